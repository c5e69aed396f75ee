import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import TallyServer

/// No page answers 5xx, whatever it is sent: every web route of the router (so that pages added
/// later are covered too), with ids that are foreign, unknown or not ids at all, and forms whose
/// every field holds something hostile.
@Suite("Web pages under bad input")
struct WebInputTests {
    /// Values for each field a form may read: wrong types, out of range, hostile text, too long.
    static let hostileValues = ["", "abc", "-1", "0", "1e309", "NaN", "99999999999999999999", "2025-02-30", "25:99",
                                "\u{0}", "\"\u{301}><x>", "\u{202E}", String(repeating: "é", count: 5000)]
    static let fields = ["action", "activity", "age", "amount", "capacity", "category", "code", "currency", "date",
                         "description", "enabled", "frequency", "from", "id", "kind", "ledger", "mode", "name", "password",
                         "payer", "to", "unit", "volumeMl", "wake", "sleep", "sleepRecords", "smart", "timeZone", "weight", "note", "level"]

    @Test("Every web route, with foreign and malformed ids and hostile forms, answers below 500")
    func neverAServerError() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let mine = try await client.makeLedger(f.adaToken, #"{"name": "Mine", "currency": "EUR"}"#)
            let foreign = try await client.makeLedger(f.bobToken, #"{"name": "Bob's", "currency": "EUR"}"#)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")

            let routes = buildRouter(services: APIServices(store: f.store, clock: f.clock, accounts: f.accounts,
                                                           push: PushCenter(store: f.store, contact: "mailto:tally@localhost")))
                .routes.filter { !$0.path.description.hasPrefix("/api") && !$0.path.description.hasPrefix("api") }
            #expect(routes.count > 30)
            let parameters: [String: [String]] = [
                "ledger": [mine.id.uuidString, foreign.id.uuidString, UUID().uuidString, "not-an-id"],
                "id": [UUID().uuidString, "x"], "member": ["1", "999999", "x"], "date": ["2025-06-15", "2025-13-45"],
                "code": ["AAAA-BBBB-CCCC", "x"], "file": ["x.ics"],
            ]
            var requests = 0
            for route in routes {
                for path in Self.addresses(route.path.description, parameters) {
                    if route.method == .get {
                        let answer = try await browser.get(path)
                        #expect(answer.status.code < 500, "GET \(path): \(answer)")
                        requests += 1
                        continue
                    }
                    for value in Self.hostileValues {
                        let form = Dictionary(uniqueKeysWithValues: Self.fields.map { ($0, value) })
                        let answer = try await browser.post(path, form)
                        #expect(answer.status.code < 500, "POST \(path) with \(value.prefix(20).debugDescription): \(answer.status)")
                        requests += 1
                    }
                    let unchecked = try await browser.post(path, ["name": "x"], csrf: "forged")
                    #expect(unchecked.status.code < 500, "POST \(path) without its CSRF token: \(unchecked.status)")
                }
            }
            #expect(requests > 200)
        }
    }

    /// The route's pattern with each combination of its parameters' values.
    static func addresses(_ pattern: String, _ values: [String: [String]]) -> [String] {
        var paths = [""]
        for component in pattern.split(separator: "/") {
            // The router writes a parameter as {name}; ":name" as it is registered.
            let name = component.hasPrefix(":") ? component.dropFirst()
                : component.hasPrefix("{") && component.hasSuffix("}") ? component.dropFirst().dropLast() : nil
            let options = name.map { values[String($0)] ?? ["x"] } ?? [String(component)]
            paths = paths.flatMap { path in options.map { path + "/" + $0 } }
        }
        return paths.map { $0.isEmpty ? "/" : $0 }
    }
}
