import Foundation
import Testing

/// `tally recurring` end to end: on a local database, where the next spending command records
/// what fell due, and against a server, with the same sentences.
@Suite("recurring commands")
struct RecurringCommandTests {
    func sandbox() throws -> Sandbox {
        let tally = try Sandbox(now: "2026-11-21T10:00:00Z")
        try tally.ok(["ledger", "create", "Home", "--member", "Alex", "--member", "Sam"])
        return tally
    }

    @Test func addListAndRecordLocally() throws {
        let tally = try sandbox()
        let added = try tally.ok(["recurring", "add", "800", "Rent", "--every", "month", "--on", "1"]).stdout
        #expect(added == "Set up Rent 800.00 EUR every month on the 1st, paid by Alex; next on 2026-12-01.\n")
        try tally.ok(["recurring", "add", "9.99", "Music", "--every", "week", "--on", "fri", "--payer", "Sam", "--among", "Sam"])
        try tally.ok(["recurring", "add", "120", "Insurance", "--every", "year", "--on", "02-29", "--until", "2030-12-31"])
        let list = try tally.ok(["recurring"]).stdout
        #expect(list.contains("Music 9.99 EUR every week on Friday, paid by Sam; next on 2026-11-27"), "\(list)")
        #expect(list.contains("Insurance 120.00 EUR every year on 29 February, paid by Alex; next on 2027-02-28, until 2030-12-31"), "\(list)")

        // act: two weeks later, the balance records what fell due first, each on its day
        let later = "2026-12-05T09:00:00Z"
        let balance = try tally.ok(["balance", "--json"], now: later).object()
        let members = try #require(balance["members"] as? [[String: Any]])
        #expect(members.map { $0["paid"] as? String } == ["800.00", "19.98"])
        let dates = try tally.ok(["expenses", "--json"], now: later).array().map { $0["date"] as? String }
        #expect(dates == ["2026-12-04", "2026-12-01", "2026-11-27"])
        #expect(try tally.ok(["ledger", "log"], now: later).stdout.contains("on its schedule (every week on Friday)"))
        let json = try tally.ok(["recurring", "--json"], now: later).array()
        #expect(json.map { $0["nextDate"] as? String } == ["2026-12-11", "2027-01-01", "2027-02-28"])
    }

    @Test func pauseResumeEndAndDelete() throws {
        let tally = try sandbox()
        let rent = try tally.object(["recurring", "add", "800", "Rent", "--every", "month", "--on", "31"])
        let short = String((rent["id"] as! String).prefix(8)).lowercased()
        #expect(try tally.ok(["recurring", "pause", "rent"]).stdout.contains("Paused Rent 800.00 EUR every month on the 31st, paid by Alex; paused"))
        #expect(try tally.ok(["recurring", "resume", short], now: "2027-01-10T10:00:00Z").stdout
            .contains("Resumed Rent 800.00 EUR every month on the 31st, paid by Alex; next on 2027-01-31"))
        let ended = try tally.object(["recurring", "end", "Rent", "--on", "2027-02-28"], now: "2027-01-10T10:00:00Z")
        #expect(ended["endDate"] as? String == "2027-02-28" && ended["status"] as? String == "active")
        let dates = try tally.ok(["expenses", "--json"], now: "2027-04-01T10:00:00Z").array().map { $0["date"] as? String }
        #expect(dates == ["2027-02-28", "2027-01-31"])
        #expect(try tally.ok(["recurring"], now: "2027-04-01T10:00:00Z").stdout.contains("ended after 2027-02-28"))
        #expect(try tally.ok(["recurring", "delete", "rent"]).stdout.contains("Deleted Rent; the expenses it recorded stay."))
        #expect(try tally.ok(["recurring"]).stdout.contains("Home has no recurring expenses"))
    }

    @Test func refused() throws {
        let tally = try sandbox()
        for (arguments, expected, code) in [
            (["recurring", "add", "10", "--every", "month", "--on", "32"], "1 to 31", Int32(1)),
            (["recurring", "add", "10", "--every", "year", "--on", "02-30"], "February has: 1 to 29", 1),
            (["recurring", "add", "10", "--every", "week", "--on", "someday"], "is not a weekday", 1),
            (["recurring", "add", "10", "--every", "month", "--from", "2026-11-01"], "starts today (2026-11-21 in Europe/Berlin) or later", 1),
            (["recurring", "add", "0", "--every", "month"], "more than 0", 1),
            (["recurring", "pause", "Gym"], "No recurring expense in Home is called \"Gym\"", 2),
        ] {
            let message = try tally.refused(arguments, exit: code)
            #expect(message.contains(expected), "\(arguments): \(message)")
        }
        let unparsed = try tally.run(["recurring", "add", "10", "--every", "fortnight"])
        #expect(unparsed.exitCode == 64 && unparsed.stderr.contains("fortnight"), "\(unparsed)")
    }

    @Test func againstAServer() throws {
        let server = try ServeProcess.start()
        defer { server.stop() }
        try server.ok(["ledger", "create", "Home", "--member", "Alex", "--member", "Sam"])
        let added = try server.ok(["recurring", "add", "800", "Rent", "--every", "month", "--on", "1", "--from", "2099-01-01"]).stdout
        #expect(added == "Set up Rent 800.00 EUR every month on the 1st, paid by Alex; next on 2099-01-01.\n")
        #expect(try server.ok(["recurring", "pause", "Rent"]).stdout.contains("; paused"))
        #expect(try server.ok(["recurring", "resume", "Rent"]).stdout.contains("; next on 2099-01-01"))
        let ended = try server.ok(["recurring", "end", "Rent", "--json"]).object()
        #expect(ended["status"] as? String == "ended")
        #expect(try server.ok(["recurring"]).stdout.contains("Rent 800.00 EUR every month on the 1st, paid by Alex; ended after"))
        let refused = try server.run(["recurring", "add", "10", "--every", "month", "--on", "32"])
        #expect(refused.exitCode == 1 && refused.stdout.isEmpty && refused.stderr.contains("1 to 31"))
        try server.ok(["recurring", "delete", "Rent"])
        #expect(try server.ok(["recurring", "--json"]).array().isEmpty)
    }
}

private extension CLIResult {
    /// stdout as a JSON array of objects.
    func array(sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        let value = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        return try #require(value as? [[String: Any]], "not a JSON array: \(self)", sourceLocation: sourceLocation)
    }
}
