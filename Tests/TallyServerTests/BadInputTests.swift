import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// Every kind of bad input gets a 4xx problem with a sentence, and changes nothing (A4).
@Suite("Bad input")
struct BadInputTests {
    typealias Case = BadInputCase

    static let cases: [Case] = [
        // Malformed JSON and wrong types.
        Case(method: .post, path: "/api/v1/intakes", body: #"{"volumeMl": 250"#, status: .badRequest, says: "not valid JSON"),
        Case(method: .post, path: "/api/v1/intakes", body: #"{"volumeMl": "250"}"#, status: .badRequest, says: "volumeMl must be a number"),
        Case(method: .post, path: "/api/v1/intakes", body: #"{}"#, status: .badRequest, says: "Give the volume as volumeMl"),
        Case(method: .post, path: "/api/v1/intakes", body: #"{"volumeMl": 250, "id": "nope"}"#, status: .badRequest, says: "The field id"),
        Case(method: .post, path: "/api/v1/intakes", body: #"{"volumeMl": 250, "at": "yesterday"}"#, status: .badRequest, says: "The field at is not valid"),
        // Foundation rolled these over to 13:39 and March 1 instead of refusing them.
        Case(method: .post, path: "/api/v1/intakes", body: #"{"volumeMl": 250, "at": "2025-06-14T12:99:00Z"}"#, status: .badRequest, says: "The field at is not valid"),
        Case(method: .post, path: "/api/v1/intakes", body: #"{"volumeMl": 250, "at": "2025-02-29T12:00:00Z"}"#, status: .badRequest, says: "The field at is not valid"),
        Case(method: .post, path: "/api/v1/intakes", body: #"[250]"#, status: .badRequest, says: "must be an object"),
        // Out of range.
        Case(method: .post, path: "/api/v1/intakes", body: #"{"volumeMl": 0}"#, status: .badRequest, says: "more than 0"),
        Case(method: .post, path: "/api/v1/intakes", body: #"{"volumeMl": -5}"#, status: .badRequest, says: "more than 0"),
        Case(method: .post, path: "/api/v1/intakes", body: #"{"volumeMl": 5000.5}"#, status: .badRequest, says: "at most 5000 ml"),
        Case(method: .post, path: "/api/v1/intakes", body: #"{"volumeMl": 1e400}"#, status: .badRequest, says: "not valid JSON"),
        Case(method: .post, path: "/api/v1/intakes", body: #"{"volumeMl": 250, "kind": "beer"}"#, status: .notFound, says: "no drink kind named beer"),
        Case(method: .post, path: "/api/v1/intakes", body: #"{"volumeMl": 250, "at": "2030-01-01T00:00:00Z"}"#, status: .badRequest, says: "future"),
        Case(method: .post, path: "/api/v1/removals", body: #"{"volumeMl": 10}"#, status: .conflict, says: "at most 0 ml can be removed"),
        Case(method: .put, path: "/api/v1/profile", body: #"{"age": 9, "weightKg": 70, "activity": "light"}"#, status: .badRequest, says: "between 10 and 120"),
        Case(method: .put, path: "/api/v1/profile", body: #"{"age": 40, "weightKg": 300.5, "activity": "light"}"#, status: .badRequest, says: "between 30 and 300 kg"),
        Case(method: .put, path: "/api/v1/profile", body: #"{"age": 40, "weightKg": 70, "activity": "couch"}"#, status: .badRequest, says: "not one of sedentary, light"),
        Case(method: .post, path: "/api/v1/goal/calculate", body: #"{"age": 121, "weightKg": 70, "activity": "light"}"#, status: .badRequest, says: "between 10 and 120"),
        Case(method: .put, path: "/api/v1/goal", body: #"{"mode": "custom"}"#, status: .badRequest, says: "needs goalMl"),
        Case(method: .put, path: "/api/v1/goal", body: #"{"mode": "custom", "goalMl": 100000}"#, status: .badRequest, says: "between 250 ml and 10000 ml"),
        Case(method: .put, path: "/api/v1/goal", body: #"{"mode": "lots"}"#, status: .badRequest, says: "not one of auto, custom, none"),
        Case(method: .patch, path: "/api/v1/settings", body: #"{"unit": "cups"}"#, status: .badRequest, says: "The field unit is not valid: \"cups\" is not one of ml, oz."),
        Case(method: .patch, path: "/api/v1/settings", body: #"{"unit": "oz", "timeZone": "Mars/Olympus"}"#, status: .badRequest, says: "IANA"),
        Case(method: .put, path: "/api/v1/presets", body: #"{"amountsMl": [100, 200]}"#, status: .badRequest, says: "3 or 4"),
        Case(method: .put, path: "/api/v1/presets", body: #"{"amountsMl": [100, 200, 9000]}"#, status: .badRequest, says: "at most 5000 ml"),
        Case(method: .post, path: "/api/v1/kinds", body: #"{"name": "Lava", "factor": 2}"#, status: .badRequest, says: "between 0 and 1.5"),
        Case(method: .post, path: "/api/v1/kinds", body: #"{"name": "water", "factor": 1}"#, status: .conflict, says: "already a drink kind"),
        Case(method: .put, path: "/api/v1/kinds/factors", body: #"{"set": "vibes"}"#, status: .badRequest, says: "not one of standard, bhi"),
        Case(method: .post, path: "/api/v1/tokens", body: #"{"name": ""}"#, status: .badRequest, says: "name"),
        // Query parameters.
        Case(method: .get, path: "/api/v1/history?days=0", body: nil, status: .badRequest, says: "1 to 366 days"),
        Case(method: .get, path: "/api/v1/history?days=many", body: nil, status: .badRequest, says: "days must be a whole number"),
        Case(method: .get, path: "/api/v1/history?month=2025-13", body: nil, status: .badRequest, says: "month"),
        Case(method: .get, path: "/api/v1/days/2025-02-30", body: nil, status: .badRequest, says: "not a date"),
        Case(method: .get, path: "/api/v1/entries?date=today", body: nil, status: .badRequest, says: "date"),
        Case(method: .get, path: "/api/v1/entries?limit=501", body: nil, status: .badRequest, says: "between 1 and 500"),
        // Unknown ids.
        Case(method: .get, path: "/api/v1/intakes/\(UUID())", body: nil, status: .notFound, says: "no drink"),
        Case(method: .patch, path: "/api/v1/intakes/\(UUID())", body: #"{"volumeMl": 100}"#, status: .notFound, says: "no drink"),
        Case(method: .delete, path: "/api/v1/entries/\(UUID())", body: nil, status: .notFound, says: "no entry"),
        Case(method: .delete, path: "/api/v1/entries/not-a-uuid", body: nil, status: .notFound, says: "no entry"),
        Case(method: .patch, path: "/api/v1/kinds/\(UUID())", body: #"{"name": "x"}"#, status: .notFound, says: "no drink kind"),
        Case(method: .delete, path: "/api/v1/tokens/\(UUID())", body: nil, status: .notFound, says: "no token"),
    ]

    @Test("A 4xx problem that says what is wrong, and nothing changes", arguments: cases)
    func refused(_ badCase: Case) async throws {
        let f = try await ServerFixture()
        let token = f.adaToken
        try await f.test { client in
            // setup: one drink, so that there is something to lose.
            _ = try await client.send(.post, "/api/v1/intakes", token: token, json: #"{"volumeMl": 250, "at": "2025-06-14T10:00:00Z"}"#)
            let before = try await Snapshot(client, token)
            // act
            let answer = try await client.send(badCase.method, badCase.path, token: token, json: badCase.body)
            // check
            let detail = try answer.problem(badCase.status)
            #expect(detail.localizedCaseInsensitiveContains(badCase.says), "\(detail)")
            #expect(try await Snapshot(client, token) == before)
        }
    }

    @Test("A body over 64 KiB is refused with 413 and changes nothing")
    func oversized() async throws {
        let f = try await ServerFixture()
        let token = f.adaToken
        try await f.test { client in
            let before = try await Snapshot(client, token)
            let note = String(repeating: "x", count: 70_000)
            let answer = try await client.send(.post, "/api/v1/intakes", token: token, json: #"{"volumeMl": 250, "note": "\#(note)"}"#)
            #expect(try answer.problem(.contentTooLarge).contains("64 KiB"))
            #expect(try await Snapshot(client, token) == before)
        }
    }
}

/// Everything a user's requests could change, read through the API.
struct Snapshot: Equatable {
    var days: [String]

    init(_ client: some TestClientProtocol, _ token: String) async throws {
        days = []
        for path in ["/api/v1/days/2025-06-14", "/api/v1/today", "/api/v1/goal", "/api/v1/settings", "/api/v1/kinds", "/api/v1/tokens"] {
            days.append(try await client.send(.get, path, token: token).text)
        }
    }
}
