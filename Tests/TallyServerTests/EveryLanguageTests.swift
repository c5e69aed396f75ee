import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
import TallyLanguages
import TallyRepositories
@testable import TallyServer

/// Every page in every language Tally speaks: nothing English is left on a page read in another
/// language, the page says its language and direction, the person's choice is kept with their
/// account, and the API's sentences follow Accept-Language.
@Suite("Every page in every language")
struct EveryLanguageTests {
    /// What the fixture types (names, descriptions, notes), which no page translates.
    static let typed = Set<String>(["Ada", "Sam", "Ada, Sam", "Home", "Groceries", "Food", "ada", "test", "Tally", "Apple Health",
                                     "ABCD-EFGH-JKMN", "ml · Europe/Berlin", "tally --server … --token …"])
        .union(Language.all.map(\.name))

    /// Texts a page shows that have no words to translate: numbers, codes (a currency's, "EUR"),
    /// units, ids, names.
    static func hasWords(_ text: String) -> Bool {
        text.split(whereSeparator: { !$0.isLetter || !$0.isASCII }).contains { word in
            word.count >= 3 && !(word.allSatisfy(\.isUppercase) && (try? Currency(code: String(word))) != nil)
        }
    }

    /// The texts of a page a person reads: its text nodes and the attributes that are words, without the scripts' data.
    static func words(_ html: String) -> Set<String> {
        let withoutScripts = html.replacing(#/<script[^>]*>[\s\S]*?</script>/#, with: "")
        let tokens = HTMLTokens(withoutScripts)
        let attributes = tokens.tags.flatMap { tag in
            tag.attributes.filter { ["aria-label", "title", "placeholder", "alt"].contains($0.name) }.map(\.value)
        }
        return Set((tokens.texts + attributes).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty })
    }

    @Test("No page read in another language shows an English sentence")
    func noEnglishLeft() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR", "members": ["Ada", "Sam"]}"#)
            let path = "/api/v1/ledgers/\(ledger.id)"
            let ada = ledger.members[0].id, sam = ledger.members[1].id
            _ = try await client.send(.post, path + "/expenses", token: f.adaToken,
                                      json: #"{"amount": "1234.50", "payer": \#(ada), "description": "Groceries", "category": "Food"}"#)
            _ = try await client.send(.post, path + "/payments", token: f.adaToken, json: #"{"from": \#(sam), "to": \#(ada), "amount": "10.00"}"#)
            _ = try await client.send(.post, "/api/v1/intakes", token: f.adaToken, json: #"{"volumeMl": 250}"#)
            let code = try #require(try await client.send(.post, path + "/invite", token: f.adaToken).decode(LedgerReply.self).inviteCode)
            let drink = try #require(try await f.store.entries(on: LocalDate("2025-06-15")!, of: f.ada.id).first).id

            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let stranger = WebTests.Browser(client)
            let pages: [(WebTests.Browser, String)] = (["/", "/history", "/bottle", "/settings", "/account", "/spending", "/spending?all",
                                                        "/spending/\(ledger.id)", "/spending/\(ledger.id)/settings",
                                                        "/spending/\(ledger.id)/activity", "/spending/\(ledger.id)/recurring",
                                                        "/join/\(code)", "/entries/\(drink)/edit", "/nowhere"]
                + SettingsSection.allCases.map(\.link)).map { (browser, $0) }
                + ["/signin", "/signup", "/signup?join=\(code)"].map { (stranger, $0) }

            for language in Language.all where language != .english {
                let catalog = try Catalog.read(language)
                // Months the language writes as English does ("November 2024" in German).
                let written = Written(language: language)
                let months = (1...12).flatMap { month in
                    [2024, 2025].flatMap { year in [written.shortMonth(YearMonth(year: year, month: month)!), written.month(YearMonth(year: year, month: month)!)] }
                }
                // Currencies as ICU names them, in the language's own words or, where it has none
                // ("ZWG · Zimbabwean Gold"), in English's: not a phrase of Tally's.
                let currencies = Set(written.currencies.map { "\($0.code) · \($0.name)" })
                for (reader, page) in pages {
                    reader.language = "en-US"
                    let english = Self.words(try await reader.get(page).text)
                    reader.language = language.tag
                    let answer = try await reader.get(page)
                    guard answer.status != .seeOther else { continue }
                    #expect(answer.text.contains(#"<html lang="\#(language.tag)" dir="\#(language.direction)""#), "\(language.tag) \(page): \(answer.status)")
                    let left = Self.words(answer.text).filter { text in
                        let title = text.hasSuffix(" · Tally") ? String(text.dropLast(" · Tally".count)) : text
                        return english.contains(text) && Self.hasWords(text) && !Self.typed.contains(title) && !months.contains(text)
                            && !currencies.contains(text)
                            && catalog[text] != .sentence(text)   // a word the language writes as English does
                    }
                    #expect(left.isEmpty, "\(language.tag) \(page) shows English: \(left.sorted())")
                }
                browser.language = nil
            }
        }
    }

    @Test("The language chosen in Settings is kept with the account, over the browser's")
    func chosenLanguage() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            browser.language = "fr-FR"
            #expect(try await browser.get("/").text.contains(#"<html lang="fr" dir="ltr""#))
            let saved = try await browser.post("/settings/language", ["language": "ar"])
            #expect(saved.status == .seeOther)
            let page = try await browser.get("/").text
            #expect(page.contains(#"<html lang="ar" dir="rtl""#), "the account's choice wins over the browser's")
            #expect(page.contains(#"<script type="application/json" id="tally-words">"#))
            #expect(page.contains(#"href="/manifest.webmanifest?lang=ar""#))
            // Another device of the same person, another browser language: the account's.
            let phone = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            phone.language = "de-DE"
            #expect(try await phone.get("/history").text.contains(#"<html lang="ar""#))
            // A language Tally does not speak is refused in words, and nothing changes.
            let refused = try await browser.post("/settings/language", ["language": "xx"])
            #expect(refused.status == .badRequest)
            // Back to the browser's.
            _ = try await browser.post("/settings/language", ["language": ""])
            #expect(try await browser.get("/").text.contains(#"<html lang="fr""#))
        }
    }

    @Test("A German page reads 1.234,56 as an amount and writes it back as Germans do")
    func germanAmounts() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR", "members": ["Ada", "Sam"]}"#)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            browser.language = "de-DE"
            _ = try await browser.get("/spending/\(ledger.id)")
            let added = try await browser.post("/spending/\(ledger.id)/expenses",
                                               ["amount": "1.234,56", "description": "Groceries", "payer": "\(ledger.members[0].id)",
                                                "among-\(ledger.members[0].id)": "on", "among-\(ledger.members[1].id)": "on"])
            #expect(added.status.code < 400, "\(added.text.matches(of: #/error[^>]*>[^<]+/#).map(\.output))")
            let expenses = try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/entries", token: f.adaToken).text
            #expect(expenses.contains(#""1234.56""#), "\(expenses.prefix(400))")
            #expect(try await browser.get("/spending/\(ledger.id)").text.contains("1.234,56\u{00A0}€"))
        }
    }

    @Test("The API's sentences follow Accept-Language; its field names and titles stay English")
    func apiDetail() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let answer = try await client.execute(uri: "/api/v1/intakes", method: .post,
                                                  headers: [.authorization: "Bearer \(f.adaToken)", .contentType: "application/json", .acceptLanguage: "de-DE"],
                                                  body: ByteBuffer(string: #"{"volumeMl": -5}"#)) { Answer(status: $0.status, headers: $0.headers, body: Data(buffer: $0.body)) }
            let problem = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
            let english = try await client.execute(uri: "/api/v1/intakes", method: .post,
                                                   headers: [.authorization: "Bearer \(f.adaToken)", .contentType: "application/json"],
                                                   body: ByteBuffer(string: #"{"volumeMl": -5}"#)) { Answer(status: $0.status, headers: $0.headers, body: Data(buffer: $0.body)) }
            let englishProblem = try #require(try JSONSerialization.jsonObject(with: english.body) as? [String: Any])
            #expect(answer.status == .badRequest)
            #expect(problem["title"] as? String == "Bad Request")
            #expect(problem["field"] as? String == englishProblem["field"] as? String)
            let detail = try #require(problem["detail"] as? String)
            #expect(detail != englishProblem["detail"] as? String, "the German detail is German: \(detail)")
            #expect(!detail.isEmpty)
        }
    }

    @Test("A reminder is written in the person's chosen language; without one, in English")
    func reminderLanguage() {
        let german = PushSender.reminder(for: User(name: "ada", createdAt: Date(), language: "de"))
        #expect(german.body == Written(language: Language.matching("de")!).say(Phrase("Time for a glass of water.")))
        #expect(german.body != "Time for a glass of water.")
        #expect(PushSender.reminder(for: User(name: "sam", createdAt: Date())).body == "Time for a glass of water.")
    }
}
