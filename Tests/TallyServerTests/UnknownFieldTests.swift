import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// A write with a field the API does not know is refused with a 400 that names it, and nothing
/// is stored: a client sending "colour" (or a field of a newer version) learns it was not kept.
@Suite("Unknown fields in a request")
struct UnknownFieldTests {
    /// The problem of a refused unknown field: its detail, after checking its form and field.
    func refused(_ answer: Answer, field: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let detail = try answer.problem(.badRequest, sourceLocation: sourceLocation)
        #expect(try answer.json()["field"] as? String == field, "\(answer)", sourceLocation: sourceLocation)
        #expect(detail.hasPrefix("\"\(field)\" is not a field of this request: leave it out, or use one of "), "\(detail)",
                sourceLocation: sourceLocation)
        return detail
    }

    @Test("Drinks, goal, settings, kinds, tokens and reminders refuse an unknown field by name, and keep nothing")
    func hydrationRoutes() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let token = f.adaToken
            let drink = try await client.send(.post, "/api/v1/intakes", token: token, json: #"{"volumeMl": 250, "colour": "amber"}"#)
            #expect(try refused(drink, field: "colour")
                == #""colour" is not a field of this request: leave it out, or use one of id, volumeMl, amount, kind, at, note."#)
            let today = try await client.send(.get, "/api/v1/today", token: token).decode(DaySummary.self)
            #expect(today.entries.isEmpty, "nothing was logged")

            let made = try await client.send(.post, "/api/v1/intakes", token: token, json: #"{"volumeMl": 250}"#)
            let id = try #require((try made.json()["entry"] as? [String: Any])?["id"] as? String)
            let edit = try await client.send(.patch, "/api/v1/intakes/\(id)", token: token, json: #"{"volumeMl": 400, "colour": "amber"}"#)
            #expect(try refused(edit, field: "colour") == #""colour" is not a field of this request: leave it out, or use one of volumeMl, kind, at, note."#)
            #expect(try await client.send(.get, "/api/v1/intakes/\(id)", token: token).json()["volumeMl"] as? Double == 250, "not edited")

            let goal = try await client.send(.put, "/api/v1/goal", token: token, json: #"{"mode": "custom", "goalMl": 2000, "colour": 1}"#)
            #expect(try refused(goal, field: "colour").hasSuffix("use one of mode, goalMl."))
            #expect(try await client.send(.get, "/api/v1/goal", token: token).json()["mode"] as? String == "auto")

            _ = try refused(try await client.send(.patch, "/api/v1/settings", token: token, json: #"{"unit": "oz", "colour": null}"#), field: "colour")
            #expect(try await client.send(.get, "/api/v1/settings", token: token).json()["unit"] as? String == "ml")

            let kinds = try await client.send(.get, "/api/v1/kinds", token: token).body
            _ = try refused(try await client.send(.post, "/api/v1/kinds", token: token, json: #"{"name": "Lassi", "factor": 1, "colour": "white"}"#),
                            field: "colour")
            #expect(try await client.send(.get, "/api/v1/kinds", token: token).body == kinds)

            let tokens = try await client.send(.get, "/api/v1/tokens", token: token).body
            _ = try refused(try await client.send(.post, "/api/v1/tokens", token: token, json: #"{"name": "phone", "colour": "blue"}"#), field: "colour")
            #expect(try await client.send(.get, "/api/v1/tokens", token: token).body == tokens)

            // A nested object: the reminders' window.
            let reminders = try await client.send(.put, "/api/v1/reminders", token: token, json: """
                {"enabled": true, "window": {"wake": "07:00", "sleep": "22:00", "nap": "14:00"}, "frequency": 2}
                """)
            #expect(try refused(reminders, field: "window.nap").hasSuffix("use one of wake, sleep."))
            #expect(try await client.send(.get, "/api/v1/reminders", token: token).json()["enabled"] as? Bool == false)
        }
    }

    @Test("Ledgers, expenses, payments, changes and recurring expenses refuse an unknown field, nested ones by their path, and keep nothing")
    func spendingRoutes() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let token = f.adaToken
            _ = try refused(try await client.send(.post, "/api/v1/ledgers", token: token, json: #"{"name": "Trip", "currency": "EUR", "colour": "red"}"#),
                            field: "colour")
            #expect((try await client.send(.get, "/api/v1/ledgers", token: token).json()["items"] as? [Any])?.isEmpty == true)

            let ledger = try await client.makeLedger(token, #"{"name": "Trip", "currency": "EUR", "members": ["Ada", "Sam"]}"#)
            let (ada, sam) = (ledger.members[0].id, ledger.members[1].id)
            let base = "/api/v1/ledgers/\(ledger.id)"
            func entries() async throws -> Int {
                try #require(try await client.send(.get, "\(base)/entries", token: token).json()["items"] as? [Any]).count
            }

            let expense = try await client.send(.post, "\(base)/expenses", token: token, json: #"{"amount": "12.50", "colour": "red"}"#)
            let detail = try refused(expense, field: "colour")
            #expect(detail.contains("use one of id, amount, payer, payers, date, description, category, split"), "\(detail)")
            let part = try await client.send(.post, "\(base)/expenses", token: token, json: """
                {"amount": "10", "split": {"method": "shares", "parts": [{"member": \(ada), "value": 1}, {"member": \(sam), "weight": 2}]}}
                """)
            #expect(try refused(part, field: "split.parts[1].weight")
                == #""split.parts[1].weight" is not a field of this request: leave it out, or use one of member, value."#)
            let payer = try await client.send(.post, "\(base)/expenses", token: token, json: """
                {"amount": "10", "payers": [{"member": \(ada), "paid": "10", "note": "cash"}]}
                """)
            #expect(try refused(payer, field: "payers[0].note").hasSuffix("use one of member, paid."))
            _ = try refused(try await client.send(.post, "\(base)/payments", token: token, json: #"{"to": \#(sam), "amount": "5", "colour": "red"}"#),
                            field: "colour")
            #expect(try await entries() == 0, "nothing was recorded")

            let kept = try await client.addExpense(token, "\(base)/expenses", #"{"amount": "12.50", "description": "Lunch"}"#)
            let change = try await client.send(.patch, "\(base)/entries/\(kept.id)", token: token, json: #"{"description": "Dinner", "colour": "red"}"#)
            _ = try refused(change, field: "colour")
            let read = try await client.send(.get, "\(base)/entries/\(kept.id)", token: token)
            #expect(try read.json()["description"] as? String == "Lunch", "not changed")

            let recurring = try await client.send(.post, "\(base)/recurring", token: token, json: """
                {"amount": "800", "repeat": {"every": "month", "day": 1, "hour": 9}}
                """)
            #expect(try refused(recurring, field: "repeat.hour").hasSuffix("use one of every, weekday, day, month."))
            #expect((try await client.send(.get, "\(base)/recurring", token: token).json()["items"] as? [Any])?.isEmpty == true)

            let rename = try await client.send(.patch, "\(base)/members/\(sam)", token: token, json: #"{"name": "Samuel", "nickname": "Sam"}"#)
            #expect(try refused(rename, field: "nickname") == #""nickname" is not a field of this request: leave it out, or use one of name."#)
            let names = try #require(try await client.send(.get, base, token: token).json()["members"] as? [[String: Any]]).map { $0["name"] as? String }
            #expect(names == ["Ada", "Sam"])
        }
    }

    @Test("The refusal is in the client's language; the field's name stays as the body has it")
    func inGerman() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let answer = try await client.send(.post, "/api/v1/kinds", token: f.adaToken, json: #"{"name": "Lassi", "factor": 1, "colour": "white"}"#,
                                               headers: [.acceptLanguage: "de-DE"])
            #expect(try answer.problem(.badRequest) == "„colour“ ist kein Feld dieser Anfrage: Lass es weg oder nimm eins von name, factor.")
            #expect(try answer.json()["field"] as? String == "colour")
            #expect(try answer.json()["title"] as? String == "Bad Request")
        }
    }

    @Test("A browser's push subscription is taken as its toJSON() gives it, expirationTime and all")
    func browserSubscription() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let key = P256.KeyAgreement.PrivateKey().publicKey.x963Representation.base64URL
            let auth = Data(repeating: 7, count: 16).base64URL
            let answer = try await client.send(.post, "/api/v1/push/subscriptions", token: f.adaToken, json: """
                {"endpoint": "https://push.example.com/1", "expirationTime": null, "keys": {"p256dh": "\(key)", "auth": "\(auth)"}}
                """)
            #expect(answer.status == .created, "\(answer)")
            let extra = try await client.send(.post, "/api/v1/push/subscriptions", token: f.adaToken, json: """
                {"endpoint": "https://push.example.com/2", "keys": {"p256dh": "\(key)", "auth": "\(auth)", "kind": "aes128gcm"}}
                """)
            _ = try refused(extra, field: "keys.kind")
            #expect(try await f.store.pushSubscriptions(of: f.ada.id).count == 1)
            // Unsubscribing names the endpoint alone; one with a NUL is no subscription's (PostgreSQL cannot compare it).
            _ = try refused(try await client.send(.delete, "/api/v1/push/subscriptions", token: f.adaToken,
                                                  json: #"{"endpoint": "https://push.example.com/1", "keys": {}}"#), field: "keys")
            #expect(try await client.send(.delete, "/api/v1/push/subscriptions", token: f.adaToken, json: #"{"endpoint": "\u0000"}"#).status == .noContent)
            #expect(try await f.store.pushSubscriptions(of: f.ada.id).count == 1)
        }
    }
}
