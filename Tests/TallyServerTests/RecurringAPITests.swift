import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// Recurring expenses through the API, recorded by the server's background service on the
/// server's clock.
@Suite("Recurring expenses API")
struct RecurringAPITests {
    struct Reply: Decodable {
        struct Repeat: Decodable, Equatable {
            var every: String
            var weekday: Int?
            var day: Int?
            var month: Int?
        }

        var id: UUID
        var amount: String
        var payer: Int64
        var description: String?
        var `repeat`: Repeat
        var schedule: String
        var timeZone: String
        var nextDate: String
        var endDate: String?
        var status: String
    }

    struct ListReply: Decodable {
        var items: [Reply]
    }

    /// The service `tally serve` runs, on the fixture's store and clock.
    func service(_ f: ServerFixture) -> RecurringExpenseService {
        RecurringExpenseService(store: f.store, clock: f.clock)
    }

    @Test("Set up, listed, recorded on its day by the server, paused, resumed, ended and deleted")
    func lifecycle() async throws {
        let f = try await ServerFixture(now: "2026-11-21T10:00:00Z")
        let ada = f.adaToken
        try await f.test { client in
            let ledger = try await client.makeLedger(ada, #"{"name": "Home", "currency": "EUR", "members": ["Ada", "Sam"]}"#)
            let base = "/api/v1/ledgers/\(ledger.id)/recurring"

            // act: the rent on the 1st
            let created = try await client.send(.post, base, token: ada, json: #"""
                {"amount": "800.00", "description": "Rent", "category": "Home", "repeat": {"every": "month", "day": 1}}
                """#)
            #expect(created.status == .created, "\(created)")
            let rent = try created.decode(Reply.self)
            #expect(rent.schedule == "every month on the 1st" && rent.nextDate == "2026-12-01" && rent.status == "active")
            #expect(rent.timeZone == "Europe/Berlin" && rent.repeat == .init(every: "month", day: 1) && rent.payer == ledger.members[0].id)
            let list = try await client.send(.get, base, token: ada).decode(ListReply.self)
            #expect(list.items.map(\.id) == [rent.id])

            // act: the server's clock reaches midnight of 1 December in Berlin, and its service ticks
            f.clock.set(instant("2026-11-30T22:59:00Z"))
            await service(f).tick()
            #expect(try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/entries", token: ada).decode(PageReply.self).items.isEmpty)
            f.clock.set(instant("2026-11-30T23:00:30Z"))
            await service(f).tick()

            // check: an ordinary expense of 1 December, in the balances
            let entries = try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/entries", token: ada).decode(PageReply.self).items
            #expect(entries.map(\.date) == ["2026-12-01"] && entries.map(\.description) == ["Rent"] && entries.map(\.category) == ["Home"])
            #expect(try await client.summary(ada, ledger.id).sentences == ["Sam owes Ada 400.00 EUR."])
            #expect(try await client.send(.get, "\(base)/\(rent.id)", token: ada).decode(Reply.self).nextDate == "2027-01-01")

            // act and check: pause, resume, end, delete
            let paused = try await client.send(.patch, "\(base)/\(rent.id)", token: ada, json: #"{"paused": true}"#)
            #expect(try paused.decode(Reply.self).status == "paused", "\(paused)")
            let resumed = try await client.send(.patch, "\(base)/\(rent.id)", token: ada, json: #"{"paused": false}"#).decode(Reply.self)
            #expect(resumed.status == "active" && resumed.nextDate == "2027-01-01")
            let ended = try await client.send(.patch, "\(base)/\(rent.id)", token: ada, json: #"{"endDate": "2026-12-01"}"#).decode(Reply.self)
            #expect(ended.status == "ended" && ended.endDate == "2026-12-01")
            let deleted = try await client.send(.delete, "\(base)/\(rent.id)", token: ada)
            #expect(deleted.status == .noContent)
            try await client.send(.get, "\(base)/\(rent.id)", token: ada).problem(.notFound)
            #expect(try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/entries", token: ada).decode(PageReply.self).items.count == 1)
        }
    }

    @Test("The server records on the day in the expense's own time zone, across a change of clocks")
    func dayBoundaryAcrossDST() async throws {
        // setup: every Sunday in New York, where clocks go back an hour on Sunday 1 November 2026
        let f = try await ServerFixture(now: "2026-10-20T12:00:00Z")
        let ada = f.adaToken
        try await f.test { client in
            let ledger = try await client.makeLedger(ada, #"{"name": "Home", "currency": "USD"}"#)
            let created = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/recurring", token: ada, json: #"""
                {"amount": "15", "description": "Paper", "repeat": {"every": "week", "weekday": 7}, "timeZone": "America/New_York"}
                """#)
            #expect(created.status == .created, "\(created)")
            func dates() async throws -> [String] {
                try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/entries", token: ada).decode(PageReply.self).items.map(\.date)
            }
            for (now, expected) in [
                ("2026-10-25T03:59:59Z", []), // Saturday 23:59:59 EDT (UTC-4)
                ("2026-10-25T04:00:00Z", ["2026-10-25"]),
                ("2026-11-01T03:59:59Z", ["2026-10-25"]), // Saturday 23:59:59 EDT; at 2:00 the clocks go back
                ("2026-11-01T04:00:00Z", ["2026-11-01", "2026-10-25"]),
                ("2026-11-08T04:59:59Z", ["2026-11-01", "2026-10-25"]), // Saturday 23:59:59 EST (UTC-5)
                ("2026-11-08T05:00:00Z", ["2026-11-08", "2026-11-01", "2026-10-25"]),
            ] {
                f.clock.set(instant(now))
                await service(f).tick()
                #expect(try await dates() == expected, "at \(now)")
            }
        }
    }

    @Test("Bad input is a 400 with a sentence, and sets nothing up; another person's ledger is not found")
    func refused() async throws {
        let f = try await ServerFixture(now: "2026-11-21T10:00:00Z")
        let ada = f.adaToken
        try await f.test { client in
            let ledger = try await client.makeLedger(ada, #"{"name": "Home", "currency": "EUR"}"#)
            let base = "/api/v1/ledgers/\(ledger.id)/recurring"
            for (json, words) in [
                (#"{"amount": "10", "repeat": {"every": "year", "month": 2, "day": 30}}"#, "February has: 1 to 29"),
                (#"{"amount": "10", "repeat": {"every": "month", "day": 32}}"#, "1 to 31"),
                (#"{"amount": "10", "repeat": {"every": "month", "day": 1, "month": 13}}"#, "has no month"),
                (#"{"amount": "10", "repeat": {"every": "week"}}"#, "weekday"),
                (#"{"amount": "10", "repeat": {"every": "fortnight", "day": 1}}"#, "week, month, year"),
                (#"{"amount": "10"}"#, "repeat"),
                (#"{"amount": "0", "repeat": {"every": "month", "day": 1}}"#, "more than 0"),
                (#"{"amount": "10", "repeat": {"every": "month", "day": 1}, "startDate": "2026-11-01"}"#, "starts today"),
                (#"{"amount": "10", "repeat": {"every": "month", "day": 1}, "endDate": "2026-11-30"}"#, "before the first occurrence"),
                (#"{"amount": "10", "repeat": {"every": "month", "day": 1}, "timeZone": "Mars/Olympus"}"#, "time zone"),
                (#"{"amount": "10", "repeat": {"every": "month", "day": 1}, "payer": 99}"#, "not in this ledger"),
            ] {
                let detail = try await client.send(.post, base, token: ada, json: json).problem(.badRequest)
                #expect(detail.contains(words), "\(json): \(detail)")
            }
            #expect(try await client.send(.get, base, token: ada).decode(ListReply.self).items.isEmpty)
            try await client.send(.get, base, token: f.bobToken).problem(.notFound)
            try await client.send(.post, base, token: f.bobToken, json: #"{"amount": "10", "repeat": {"every": "month", "day": 1}}"#)
                .problem(.notFound)
            try await client.send(.patch, "\(base)/\(UUID())", token: ada, json: #"{"paused": true}"#).problem(.notFound)
            let missing = try await client.send(.post, base, token: ada, json: #"{"amount": "10", "repeat": {"every": "month", "day": 1}}"#)
            let id = try missing.decode(Reply.self).id
            #expect(try await client.send(.patch, "\(base)/\(id)", token: ada).problem(.badRequest).contains("JSON"))
            try await client.send(.delete, "\(base)/not-an-id", token: ada).problem(.notFound)
        }
    }
}

private func instant(_ text: String) -> Date {
    ISO8601DateFormatter().date(from: text)!
}
