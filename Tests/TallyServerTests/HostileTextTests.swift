import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PropertyBased
import Testing
import TallyCore
@testable import TallyServer

/// Text that people type reaches other people's pages (a shared ledger's descriptions and member
/// names): whatever it holds, it must stay text there, never markup (A3, S1).
@Suite("Hostile text on pages")
struct HostileTextTests {
    /// Each of the five characters HTML gives a meaning, followed by combining marks (one
    /// `Character` with its mark, which is not equal to the bare character), the classic breakouts,
    /// bidi overrides, control and zero-width characters.
    static let payloads: [String] = [
        "\"\u{301} autofocus onfocus=alert(1) data-xss=\"",
        "'\u{301}\u{302} onmouseover=alert(1) data-xss='",
        "<\u{338}img src=x onerror=alert(1) data-xss>",
        ">\u{20D2}<\u{301}script data-xss>alert(1)</script>",
        "&\u{301}lt;b data-xss&\u{301}gt;",
        "Café \u{202E}gnp.exe\u{202C} \u{2066}rtl\u{2069} a\u{200D}b\u{200B}c",
        "bell\u{07}tab\u{09}esc\u{1B}del\u{7F}c1\u{85}x",
        "nul\u{0}byte\"\u{0}data-xss=\"",
    ]

    @Test("HTML.escape leaves no & < > \" ' unescaped, whatever follows them")
    func escapeBytes() {
        for payload in Self.payloads {
            let escaped = HTML.escape(payload)
            #expect(!escaped.unicodeScalars.contains { "<>\"'".unicodeScalars.contains($0) }, "\(escaped.debugDescription)")
            #expect(HTMLTokens.decode(escaped).sameScalars(payload))
        }
    }

    @Test("Property: any string interpolated into text and attributes stays that text, one tag with its own attributes")
    func textStaysText() async {
        // Code points drawn mostly from the dangerous ones, the rest from all of Unicode.
        let dangerous: [Unicode.Scalar] = ["&", "<", ">", "\"", "'", "=", " ", "/", "\u{0}", "\u{301}", "\u{338}", "\u{20D2}",
                                           "\u{202E}", "\u{2066}", "\u{200D}", "\u{FE0F}", "\u{1F469}", "\u{0B}", "\u{85}", ";", "#"]
        await propertyCheck(count: 500, input: Gen.int(in: 0...0x10FFFF * 2).array(of: 0...40)) { numbers in
            let scalars = numbers.map { number -> Unicode.Scalar in
                if number % 2 == 0 { return dangerous[(number / 2) % dangerous.count] }
                return Unicode.Scalar(UInt32(number / 2)) ?? "\u{FFFD}"
            }
            let text = String(String.UnicodeScalarView(scalars))
            let page: HTML = "<p title=\"\(text)\" data-confirm='\(text)' class=\"x\">\(text)</p>"
            let tokens = HTMLTokens(page.description)
            #expect(tokens.tags.map(\.name) == ["p"], "\(page.description.debugDescription)")
            let attributes = tokens.tags.first?.attributes ?? []
            #expect(attributes.map(\.name) == ["title", "data-confirm", "class"], "\(page.description.debugDescription)")
            #expect(attributes.prefix(2).allSatisfy { $0.value.sameScalars(text) })
            #expect((tokens.texts.first ?? "").sameScalars(text) || (text.isEmpty && tokens.texts.isEmpty))
        }
    }

    @Test("Every page shows hostile ledger, member, expense, category, kind and note text as text")
    func hostileTextOnEveryPage() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            var expected: [String] = []
            func accepted(_ answer: Answer, _ text: String) {
                // A refusal is fine (a 4xx with a sentence); what is stored must show as text.
                #expect(answer.status.code < 500, "\(answer)")
                if answer.status.code < 300 { expected.append(text) }
            }
            func json(_ object: [String: Any]) throws -> String {
                String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
            }

            let ledgerName = "Home " + Self.payloads[0].prefix(30)
            let ledger = try await client.makeLedger(f.adaToken, try json(["name": ledgerName, "currency": "EUR"]))
            expected.append(ledgerName)
            let path = "/api/v1/ledgers/\(ledger.id)"
            for (index, payload) in Self.payloads.enumerated() {
                let name = "M\(index)" + payload.prefix(40)
                accepted(try await client.send(.post, path + "/members", token: f.adaToken, json: try json(["name": name])), name)
                let expense = try json(["amount": "12.30", "payer": ledger.members[0].id, "description": payload, "category": "C" + payload.prefix(30)])
                accepted(try await client.send(.post, path + "/expenses", token: f.adaToken, json: expense), payload)
                let kind = "K\(index)" + payload.prefix(25)
                accepted(try await client.send(.post, "/api/v1/kinds", token: f.adaToken, json: try json(["name": kind, "factor": 1])), kind)
                accepted(try await client.send(.post, "/api/v1/intakes", token: f.adaToken, json: try json(["volumeMl": 100, "note": payload])), payload)
                let token = "T\(index)" + payload.prefix(25)
                accepted(try await client.send(.post, "/api/v1/tokens", token: f.adaToken, json: try json(["name": token])), token)
            }
            let invite = try await client.send(.post, path + "/invite", token: f.adaToken)
            let code = try #require(try invite.decode(LedgerReply.self).inviteCode)
            #expect(expected.count > 20, "too few of the hostile texts were accepted to test anything: \(expected.count)")

            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            // Someone without an account who opens the invite reads its ledger's and members' names too.
            let stranger = WebTests.Browser(client)
            let drink = try #require(try await f.store.entries(on: LocalDate("2025-06-15")!, of: f.ada.id).first).id
            var shown: [String] = []
            let pages = ["/", "/?kind=K1" + Self.payloads[1].prefix(25), "/history", "/settings", "/settings/kinds", "/account", "/spending?all",
                         "/spending/\(ledger.id)", "/spending/\(ledger.id)/settings", "/spending/\(ledger.id)/activity", "/join/\(code)",
                         "/entries/\(drink)/edit"].map { (browser, $0) } + [(stranger, "/signup?join=\(code)")]
            for (browser, page) in pages {
                let answer = try await browser.get(page.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? page)
                #expect(answer.status == .ok, "\(page): \(answer.status)")
                let tokens = HTMLTokens(answer.text)
                for tag in tokens.tags {
                    let layoutScript = tag.name == "script" && tag.attributes.map(\.name) == ["src", "defer"] && [StaticAssets.link("app.js"), StaticAssets.link("spending.js")].contains(tag.attributes[0].value)
                    #expect(!tag.name.contains("xss") && !["img", "script"].contains(tag.name) || layoutScript, "\(page): an element <\(tag.name)> from user text")
                    for attribute in tag.attributes {
                        #expect(!attribute.name.hasPrefix("on") && !attribute.name.contains("xss"),
                                "\(page): the attribute \(attribute.name) on <\(tag.name)> comes from user text")
                    }
                }
                shown += tokens.strings
            }
            // Names are kept in NFC ("<" with U+0338 composes to "≮"); what is shown is what was kept.
            for text in expected.map(\.precomposedStringWithCanonicalMapping) {
                #expect(shown.contains { $0.containsScalars(text) || $0.precomposedStringWithCanonicalMapping.containsScalars(text) },
                        "\(text.debugDescription) is not shown as text on any page")
            }
        }
    }
}
