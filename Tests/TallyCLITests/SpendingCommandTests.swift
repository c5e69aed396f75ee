import Foundation
import Testing

/// The spending commands end to end (S1–S6, A5): the `tally` binary on a real database.
@Suite("spending commands")
struct SpendingCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../TallyImportTests/Fixtures/ihatemoney").standardized

    func sandbox() throws -> Sandbox {
        let tally = try Sandbox(now: "2026-11-21T10:00:00Z")
        try tally.ok(["ledger", "create", "Home", "--member", "Alex", "--member", "Sam"])
        return tally
    }

    /// Each member's balance from `tally balance --json`.
    func balances(_ tally: Sandbox, _ extra: [String] = []) throws -> [String: String] {
        let summary = try tally.object(["balance"] + extra)
        let members = try #require(summary["members"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: members.map { ($0["name"] as! String, $0["balance"] as! String) })
    }

    // S2, S3, S4: spend, see who owes whom, settle with the plan's payment.
    @Test func spendBalanceSettle() throws {
        let tally = try sandbox()
        let added = try tally.ok(["spend", "30", "Groceries"]).stdout
        #expect(added.contains("Recorded Groceries 30.00 EUR, paid by Alex, split equally."))
        try tally.ok(["spend", "10.01", "--payer", "sam", "Bread"])
        #expect(try balances(tally) == ["Alex": "9.99", "Sam": "-9.99"])
        let text = try tally.ok(["balance"]).stdout
        #expect(text.contains("Sam owes Alex 9.99 EUR."))
        let plan = try tally.ok(["settle"]).stdout
        #expect(plan.contains("Sam pays Alex 9.99 EUR"))
        try tally.ok(["settle", "--record"])
        #expect(try balances(tally) == ["Alex": "0.00", "Sam": "0.00"])
        #expect(try tally.ok(["settle"]).stdout.contains("Everyone is settled up."))
    }

    // S2: shares, exact amounts and percentages, and an equal split over some members.
    @Test func splits() throws {
        let tally = try sandbox()
        try tally.ok(["ledger", "members", "add", "Kim"])
        let shares = try tally.object(["spend", "9", "--split", "shares", "--part", "Alex=2", "--part", "Sam=1", "Wine"])
        let parts = try #require(shares["parts"] as? [[String: Any]])
        #expect(parts.map { $0["share"] as? String } == ["6.00", "3.00"])
        let among = try tally.object(["spend", "10", "--among", "Sam, Kim", "Taxi"])
        #expect((among["parts"] as? [[String: Any]])?.map { $0["share"] as? String } == ["5.00", "5.00"])
        let exact = try tally.object(["spend", "10", "--split", "exact", "--part", "alex=7.50", "--part", "kim=2.50"])
        #expect((exact["parts"] as? [[String: Any]])?.map { $0["share"] as? String } == ["7.50", "2.50"])
        let percent = try tally.object(["spend", "100", "--split", "percent", "--part", "Alex=50", "--part", "Sam=25", "--part", "Kim=25"])
        #expect((percent["parts"] as? [[String: Any]])?.map { $0["share"] as? String } == ["50.00", "25.00", "25.00"])
        let summary = try balances(tally)
        #expect(summary.values.map { Decimal(string: $0)! }.reduce(0, +) == 0)
    }

    // S2: an expense and a payment in another currency, converted at the rate given or last used;
    // a new rate converts that entry again; refusals in one sentence, nothing stored.
    @Test func otherCurrency() throws {
        let tally = try sandbox()
        let added = try tally.ok(["spend", "100", "Dinner", "--currency", "usd", "--rate", "0.92"]).stdout
        #expect(added.contains("Recorded Dinner 100.00 USD → 92.00 EUR, paid by Alex, split equally."), "\(added)")
        let taxi = try tally.object(["spend", "10", "Taxi", "--currency", "USD", "--payer", "Sam"])
        #expect(taxi["amount"] as? String == "9.20", "the ledger's last rate for dollars")
        #expect((taxi["original"] as? [String: Any])?["rate"] as? String == "0.92")
        try tally.ok(["pay", "Sam", "Alex", "20", "--currency", "USD", "--rate", "0.9"])
        #expect(try balances(tally) == ["Alex": "23.40", "Sam": "-23.40"])
        let id = try #require(taxi["id"] as? String)
        let changed = try tally.ok(["expenses", "edit", String(id.prefix(8)), "--rate", "1"]).stdout
        #expect(changed.contains("Taxi 10.00 USD → 10.00 EUR"), "\(changed)")
        let listed = try tally.ok(["expenses"]).stdout
        #expect(listed.contains("Dinner 100.00 USD → 92.00 EUR"), "\(listed)")
        #expect(try tally.refused(["spend", "10", "--currency", "GBP"])
                == "Give the rate of GBP: how many EUR one GBP is worth. This ledger has no rate for it yet.")
        #expect(try tally.refused(["spend", "10", "--currency", "USD", "--rate", "0"]) == "A rate must be more than 0.")
        #expect(try tally.refused(["spend", "10", "--currency", "ABC", "--rate", "1"])
                == "\"ABC\" is not a currency: use an ISO 4217 code such as EUR, USD, GBP or JPY.")
    }

    // S2, S3: two members paid one expense, each with what they paid; an edit changes their parts.
    @Test func severalPayers() throws {
        let tally = try sandbox()
        let added = try tally.ok(["spend", "50", "Dinner", "--payer", "Alex=20", "--payer", "sam=30"]).stdout
        #expect(added.contains("Recorded Dinner 50.00 EUR, paid by Alex 20.00 and Sam 30.00, split equally."), "\(added)")
        #expect(try balances(tally) == ["Alex": "-5.00", "Sam": "5.00"])
        let listed = try tally.ok(["expenses", "list"]).stdout
        #expect(listed.contains("paid by Alex 20.00 and Sam 30.00"))
        let id = String(try #require(listed.split(separator: " ").first { $0.count == 8 && $0.allSatisfy(\.isHexDigit) }))
        let json = try tally.object(["expenses", "edit", id, "--amount", "60", "--payer", "Alex=40", "--payer", "Sam=20"])
        #expect((json["payers"] as? [[String: Any]])?.map { $0["paid"] as? String } == ["40.00", "20.00"])
        #expect(try balances(tally) == ["Alex": "10.00", "Sam": "-10.00"])
        for (arguments, expected) in [
            (["spend", "50", "--payer", "Alex=20", "--payer", "Sam=20"],
             "What the payers paid adds up to 40.00, not 50.00: change it by 10.00 so it matches the expense."),
            (["spend", "50", "--payer", "Alex=20", "--payer", "Sam"], "Several payers each need what they paid, such as --payer Alex=30 --payer Sam=20."),
            (["spend", "50", "--payer", "Alex", "--payer", "Sam"], "Several payers each need what they paid"),
            (["spend", "50", "--payer", "Alex=x", "--payer", "Sam=50"], "is not an amount"),
            (["expenses", "edit", id, "--amount", "70"], "Several members pay this expense: say what each pays of 70.00, or name one payer."),
        ] {
            let message = try tally.refused(arguments)
            #expect(message.contains(expected), "\(arguments): \(message)")
        }
        #expect(try balances(tally) == ["Alex": "10.00", "Sam": "-10.00"], "nothing refused changed anything")

        let rent = try tally.ok(["recurring", "add", "1000", "Rent", "--every", "month", "--on", "1", "--payer", "Alex=600", "--payer", "Sam=400"]).stdout
        #expect(rent.contains("Rent 1000.00 EUR every month on the 1st, paid by Alex 600.00 and Sam 400.00; next on 2026-12-01"), "\(rent)")
    }

    // S2 and A5: refused input changes nothing and says why in one sentence.
    @Test func refused() throws {
        let tally = try sandbox()
        try tally.ok(["spend", "10"])
        for (arguments, expected) in [
            (["spend", "12.345"], "more decimals than EUR has"),
            (["spend", "0"], "more than 0"),
            (["spend", "1000000.01"], "at most 1000000.00 EUR"),
            (["spend", "abc"], "is not an amount"),
            (["spend", "10", "--payer", "Bob"], "\"Bob\" is not a member of this ledger: use one of Alex, Sam."),
            (["spend", "10", "--split", "exact", "--part", "Alex=4"], "add up to 4.00, not 10.00"),
            (["spend", "10", "--split", "percent", "--part", "Alex=60", "--part", "Sam=30"], "add up to 90%, not 100%"),
            (["spend", "10", "--split", "shares"], "needs a --part"),
            (["spend", "10", "--part", "Alex=1"], "--part goes with --split"),
            (["spend", "10", String(repeating: "x", count: 201)], "at most 200 characters"),
            (["spend", "10", "--date", "2026-02-30"], "is not a date"),
            (["pay", "Alex", "Alex", "5"], "from one member to another"),
            (["ledger", "create", "Trip", "--currency", "XYZ"], "is not a currency"),
        ] {
            let message = try tally.refused(arguments)
            #expect(message.contains(expected), "\(arguments): \(message)")
        }
    }

    // S1: which ledger: the only one, or --ledger when there are several.
    @Test func choosingTheLedger() throws {
        let tally = try Sandbox(now: "2026-11-21T10:00:00Z")
        #expect(try tally.refused(["balance"], exit: 2).contains("You have no ledger yet"))
        try tally.ok(["ledger", "create", "Home"])
        try tally.ok(["ledger", "create", "Trip", "--currency", "JPY"])
        #expect(try tally.refused(["spend", "10"]).contains("choose one with --ledger (Home, Trip)"))
        try tally.ok(["spend", "1000", "--ledger", "trip"])
        #expect(try tally.refused(["spend", "10.5", "--ledger", "Trip"]).contains("more decimals than JPY has"))
        #expect(try balances(tally, ["--ledger", "Trip"]) == ["Person 1": "500", "Person 2": "-500"])
        #expect(try tally.ok(["balance"], env: ["TALLY_LEDGER": "Home"]).stdout.contains("Everyone is settled up."))
    }

    // S5: newest first, delete and restore by a short id, and the activity log.
    @Test func deleteRestoreAndLog() throws {
        let tally = try sandbox()
        try tally.ok(["spend", "5", "--date", "2026-11-01", "Old"])
        let new = try tally.object(["spend", "7", "--payer", "Sam", "New"])
        let output = try tally.ok(["expenses", "--json"]).stdout
        let list = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        #expect(list.map { $0["description"] as? String } == ["New", "Old"])
        let id = try #require(new["id"] as? String)
        let short = String(id.prefix(8)).lowercased()
        #expect(try tally.ok(["expenses", "delete", short]).stdout.contains("Undo with: tally expenses restore \(short)"))
        #expect(try balances(tally) == ["Alex": "2.50", "Sam": "-2.50"])
        #expect(try tally.ok(["expenses", "--deleted"]).stdout.contains("(deleted)"))
        try tally.ok(["expenses", "restore", short])
        #expect(try balances(tally) == ["Alex": "-1.00", "Sam": "1.00"])
        let log = try tally.ok(["ledger", "log"]).stdout
        #expect(log.contains("Restored 7.00 EUR for New, paid by Sam, split equally."))
        #expect(log.contains("Deleted 7.00 EUR for New"))
        #expect(try tally.refused(["expenses", "restore", short], exit: 2).contains("has an id starting with"))

        // S5: an edit changes only what it names, and the log says from what to what.
        let edited = try tally.object(["expenses", "edit", short, "--amount", "9", "--description", "Newer"])
        #expect(edited["amount"] as? String == "9.00" && edited["description"] as? String == "Newer")
        #expect(try tally.ok(["ledger", "log"]).stdout.contains("Changed New (7.00 EUR): amount 7.00 EUR → 9.00 EUR; description “New” → “Newer”."))
        #expect(try tally.refused(["expenses", "edit", short, "--amount", "0"]).contains("more than 0"))
    }

    // S1: an invite code lets a second user of the same database join as Person 2.
    @Test func inviteAndJoin() throws {
        let tally = try Sandbox(now: "2026-11-21T10:00:00Z")
        try tally.ok(["ledger", "create", "Home"])
        let code = try #require(try tally.object(["ledger", "invite"])["inviteCode"] as? String)
        let joined = try tally.ok(["ledger", "join", code.lowercased(), "--user", "sam"]).stdout
        #expect(joined.contains("You are Person 2 in Home (EUR)."))
        try tally.ok(["spend", "20", "--user", "sam"])
        #expect(try tally.ok(["balance"]).stdout.contains("Person 1 owes Person 2 10.00 EUR."))
        try tally.ok(["ledger", "invite", "--revoke"])
        try tally.ok(["ledger", "list", "--user", "kim"]) // a user is created on first use
        #expect(try tally.refused(["ledger", "join", code, "--user", "kim"], exit: 2).contains("This invite is not valid any more; ask for a new one."))
    }

    // S1: the joiner picks who they are; only the owner invites and removes, until they hand the ledger on.
    @Test func ownerAndChoice() throws {
        let tally = try Sandbox(now: "2026-11-21T10:00:00Z")
        try tally.ok(["ledger", "create", "Trip", "--member", "Alex", "--member", "Sam", "--member", "Kim"])
        let opened = try tally.object(["ledger", "invite", "--days", "3", "--uses", "2"])
        let code = try #require(opened["inviteCode"] as? String)
        #expect((opened["invite"] as? [String: Any])?["usesLeft"] as? Int == 2)
        #expect(try tally.refused(["ledger", "invite", "--days", "31"]).contains("1 to 30 days"))
        try tally.ok(["ledger", "list", "--user", "sam"]) // a user is created on first use
        #expect(try tally.refused(["ledger", "join", code, "--user", "sam"]) == "Say who you are in Trip: one of Sam, Kim, or someone new.")
        #expect(try tally.ok(["ledger", "join", code, "--as", "kim", "--user", "sam"]).stdout.contains("You are Kim in Trip (EUR)."))
        #expect(try tally.refused(["ledger", "members", "remove", "Sam", "--user", "sam"], exit: 3) == "Only Alex, who owns this ledger, can remove members.")
        #expect(try tally.refused(["ledger", "invite", "--user", "sam"], exit: 3).contains("can open an invite"))
        // Handed on: Kim (sam's account) owns it now.
        #expect(try tally.refused(["ledger", "owner", "Sam"], exit: 3).contains("Nobody has joined as Sam yet"))
        #expect(try tally.ok(["ledger", "owner", "Kim"]).stdout.contains("Kim (joined, owner)"))
        #expect(try tally.ok(["ledger", "invite", "--user", "sam"]).stdout.contains("It is shown only this once."))
        #expect(try tally.refused(["ledger", "invite", "--revoke"], exit: 3) == "Only Kim, who owns this ledger, can revoke the invite.")
    }

    // S6: IHateMoney's real exports import once, in either format; the export reads back.
    @Test func importAndExport() throws {
        let tally = try Sandbox(now: "2026-11-21T10:00:00Z")
        let json = Self.fixtures.appendingPathComponent("household.json").path
        let csv = Self.fixtures.appendingPathComponent("household.csv").path
        let report = try tally.object(["import", "ihatemoney", json])
        #expect(report["added"] as? Int == 14)
        let again = try tally.object(["import", "ihatemoney", csv, "--ledger", "household"])
        #expect(again["added"] as? Int == 0 && again["alreadyThere"] as? Int == 14)
        #expect(try balances(tally) == ["Alex": "15.10", "Sam": "-84.36", "Zoë Müller": "69.26"])
        let exported = try tally.ok(["export", "ledger"]).stdout
        #expect(exported.split(whereSeparator: \.isNewline).count == 15)
        #expect(try tally.refused(["import", "ihatemoney", Self.fixtures.appendingPathComponent("couple.json").path]).contains("--currency"))
        #expect(try tally.refused(["import", "ihatemoney", "/nonexistent/bills.json"], exit: 2).contains("Cannot read"))
    }

    /// A Splitwise group's export: two rows in EUR (one paid by two), one in USD, one that
    /// moves nothing, and the Total balance rows.
    static let splitwise = #"""
        Date,Description,Category,Cost,Currency,José,Zoë Müller,Kim
        2024-03-01,"Dinner, drinks and ""tapas""",Dining out,90.00,EUR,30.00,30.00,-60.00
        2024-03-02,Taxi,Transportation,20.00,USD,-10.00,10.00,0.00
        2024-03-03,Coffee,General,3.50,EUR,0.00,0.00,0.00
        2024-03-04,José paid Kim,Payment,10.00,EUR,10.00,0.00,-10.00

        2024-03-05,Total balance,,,EUR,40.00,30.00,-70.00
        2024-03-05,Total balance,,,USD,-10.00,10.00,0.00

        """#

    // S6: a Splitwise export imports once, with a rate for its other currency; locally and through a server.
    @Test func importSplitwise() throws {
        let tally = try Sandbox(now: "2026-11-21T10:00:00Z")
        let file = tally.folder.appendingPathComponent("trip.csv")
        try Data(Self.splitwise.utf8).write(to: file)
        #expect(try tally.refused(["import", "splitwise", file.path])
            == "This export has entries in USD, and the ledger keeps EUR: give the rate of each to EUR, such as USD=0.92.")
        #expect(try tally.refused(["import", "splitwise", file.path, "--rate", "USD"]).contains("is not a rate such as USD=0.92"))
        let text = try tally.ok(["import", "splitwise", file.path, "--rate", "USD=0.90"]).stdout
        #expect(text.contains("Imported 3 of 3 bills.") && text.contains("1 row moved nothing and was left out.")
                && text.contains("New members: José, Zoë Müller, Kim."), "\(text)")
        // Zoë: +30.00 + 9.00 (half of 20 USD at 0.90); José: +30.00 − 9.00 + 10.00.
        #expect(try balances(tally) == ["José": "31.00", "Zoë Müller": "39.00", "Kim": "-70.00"])
        let again = try tally.object(["import", "splitwise", file.path, "--ledger", "trip", "--rate", "USD=0.95", "--rate", "GBP=1.17"])
        #expect(again["added"] as? Int == 0 && again["alreadyThere"] as? Int == 3 && again["skipped"] as? Int == 1)

        let server = try ServeProcess.start()
        defer { server.stop() }
        let remote = try server.run(["import", "splitwise", file.path, "--currency", "USD", "--rate", "EUR=1.10", "--json"])
        #expect(remote.exitCode == 0 && remote.stdout.contains("\"added\" : 3"), "\(remote)")
        let refused = try server.run(["import", "splitwise", file.path, "--ledger", "trip"])
        #expect(refused.exitCode == 1 && refused.stderr.contains("give the rate of each to USD, such as EUR=0.92."), "\(refused)")
    }

    // A5 remote mode: the same commands through a server give the same JSON.
    // Finding entries: the same search and the same lines locally and through a server.
    @Test func search() throws {
        let local = try sandbox()
        let server = try ServeProcess.start()
        defer { server.stop() }
        try server.ok(["ledger", "create", "Home", "--member", "Alex", "--member", "Sam"])
        for run in [{ try local.ok($0) }, { try server.ok($0) }] as [([String]) throws -> CLIResult] {
            _ = try run(["spend", "4.20", "Café au lait", "--category", "Food", "--date", "2026-11-01"])
            _ = try run(["spend", "52", "Market", "--category", "Food", "--payer", "Sam", "--among", "Sam", "--date", "2026-11-03"])
            _ = try run(["spend", "24", "CAFE cinema", "--category", "Fun", "--among", "Alex", "--date", "2026-11-05"])
        }
        for arguments in [["--search", "cafe"], ["--member", "sam"], ["--category", "Food"], ["--from", "2026-11-02", "--through", "2026-11-04"],
                          ["--search", "café", "--category", "Fun", "--member", "Alex"]] {
            // Each line as "2026-11-01  ce0bedaf  Café au lait …": the ids differ between the two databases.
            func withoutIDs(_ text: String) -> String { text.replacing(/\s\s[0-9a-f]{8}\s\s/, with: "  ") }
            let here = try local.ok(["expenses"] + arguments).stdout
            #expect(withoutIDs(here) == withoutIDs(try server.ok(["expenses"] + arguments).stdout), "\(arguments)")
            let found = here.split(separator: "\n").filter { $0.contains("EUR") }.map { $0.contains("Café") ? "café" : $0.contains("Market") ? "market" : "cinema" }
            let expected: [String] = switch arguments[0] {
            case "--search": arguments.count == 2 ? ["cinema", "café"] : ["cinema"]
            case "--member": ["market", "café"]
            case "--category": ["market", "café"]
            default: ["market"]
            }
            #expect(found == expected, "\(arguments): \(here)")
        }
        #expect(try local.refused(["expenses", "--member", "Kim"]).contains("Kim"))
        #expect(try local.refused(["expenses", "--from", "yesterday"]) == "\"yesterday\" is not a date for --from: write it as YYYY-MM-DD, such as 2025-03-30.")
    }

    @Test func remoteMode() throws {
        let server = try ServeProcess.start()
        defer { server.stop() }
        try server.ok(["ledger", "create", "Home", "--member", "Alex", "--member", "Sam"])
        try server.ok(["spend", "30", "Groceries"])
        try server.ok(["spend", "10.01", "--payer", "Sam", "Bread"])
        let text = try server.ok(["balance"]).stdout
        #expect(text.contains("Sam owes Alex 9.99 EUR."))
        let refused = try server.run(["spend", "12.345"])
        #expect(refused.exitCode == 1 && refused.stderr.contains("more decimals than EUR has"))
        try server.ok(["settle", "--record"])
        #expect(try server.ok(["settle"]).stdout.contains("Everyone is settled up."))
        #expect(try server.ok(["expenses"]).stdout.contains("Groceries 30.00 EUR, paid by Alex"))
        let exported = try server.ok(["export", "ledger", "--format", "json"]).stdout
        #expect(exported.contains("\"description\" : \"Groceries\""))
        let report = try server.run(["import", "ihatemoney", Self.fixtures.appendingPathComponent("trip.csv").path, "--json"])
        #expect(report.exitCode == 0 && report.stdout.contains("\"added\" : 7"), "\(report)")
        // Whether the changes others make are told, through the server as on the local file.
        #expect(try server.ok(["ledger", "notifications", "--ledger", "Home"]).stdout
            .contains("Your devices are told of the changes others make to Home."))
        try server.ok(["ledger", "notifications", "off", "--ledger", "Home"])
        let off = try server.run(["ledger", "notifications", "--ledger", "Home", "--json"])
        #expect(off.exitCode == 0 && off.stdout.contains("\"changes\" : false"), "\(off)")
    }

    // Notifications of the others' changes, on the local file: shown, turned off and on, and a
    // word that is neither refused.
    @Test func notifications() throws {
        let tally = try sandbox()
        #expect(try tally.ok(["ledger", "notifications"]).stdout.contains("Your devices are told of the changes others make to Home."))
        #expect(try tally.ok(["ledger", "notifications", "off"]).stdout
            .contains("Your devices are not told of the changes others make to Home."))
        #expect(try tally.object(["ledger", "notifications"])["changes"] as? Bool == false)
        try tally.ok(["ledger", "notifications", "on"])
        #expect(try tally.object(["ledger", "notifications"])["changes"] as? Bool == true)
        let usage = try tally.run(["ledger", "notifications", "loud"])
        #expect(usage.exitCode == 64 && usage.stderr.contains("'loud' is invalid"), "\(usage)")
        #expect(try tally.object(["ledger", "notifications"])["changes"] as? Bool == true)
    }
}

/// H10: `tally bottle` end to end.
@Suite("bottle command")
struct BottleCommandTests {
    @Test func sipSetFillCapacity() throws {
        let tally = try Sandbox(now: "2026-11-21T10:00:00Z")
        #expect(try tally.ok(["bottle"]).stdout.contains("1000 ml left of 1000 ml"))
        #expect(try tally.ok(["bottle", "sip"]).stdout.contains("Sipped 30 ml.\n970 ml left"))
        try tally.ok(["bottle", "set", "20"])
        #expect(try tally.ok(["bottle", "sip"]).stdout.contains("Sipped 20 ml."))
        #expect(try tally.refused(["bottle", "sip"], exit: 3) == "The bottle is empty: refill it (or set its level) before the next sip.")
        #expect(try tally.object(["today"])["totalMl"] as? Double == 50)
        try tally.ok(["bottle", "fill"])
        #expect(try tally.refused(["bottle", "capacity", "6000"]) == "A bottle holds at most 5000 ml.")
        #expect(try tally.refused(["bottle", "set", "2000"]).contains("from 0"))
        let bottle = try tally.object(["bottle", "capacity", "8oz"])
        #expect(abs((bottle["capacityMl"] as? Double ?? 0) - 236.588) < 1e-9)
        try tally.ok(["bottle", "sip-size", "50"])
        #expect(try tally.ok(["bottle", "--unit", "oz"]).stdout.contains("8 oz left of 8 oz"))
    }
}
