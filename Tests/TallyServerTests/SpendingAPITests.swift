import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// The spending API (S1–S5) through the router: every endpoint's happy path, read back through a
/// second request; bad input refused with a problem and no change; other people's ledgers not
/// found; and the settle-up plan of S4 followed to zero.
@Suite("Spending API")
struct SpendingAPITests {
    // MARK: - Ledgers, members, invites (S1)

    @Test("S1: a ledger is created with Person 1 and Person 2, listed, shown, renamed; members added, renamed, removed")
    func ledgerAndMembers() async throws {
        let f = try await ServerFixture()
        let ada = f.adaToken
        try await f.test { client in
            // act: create
            let created = try await client.send(.post, "/api/v1/ledgers", token: ada, json: #"{"name": " Home ", "currency": "eur"}"#)
            // check
            #expect(created.status == .created, "\(created)")
            #expect(created.headers[.contentType]?.hasPrefix("application/json") == true)
            let ledger = try created.decode(LedgerReply.self)
            #expect(ledger.name == "Home" && ledger.currency == "EUR" && ledger.inviteCode == nil)
            #expect(ledger.members.map(\.name) == ["Person 1", "Person 2"])
            #expect(ledger.members.map(\.isYou) == [true, false])
            #expect(ledger.members.map(\.linked) == [true, false])
            let (p1, p2) = (ledger.members[0].id, ledger.members[1].id)

            // act and check: list and show
            let list = try await client.send(.get, "/api/v1/ledgers", token: ada).decode(LedgerListReply.self)
            #expect(list.items.map(\.id) == [ledger.id])
            let shown = try await client.send(.get, "/api/v1/ledgers/\(ledger.id)", token: ada)
            #expect(shown.status == .ok)
            #expect(try shown.decode(LedgerReply.self) == ledger)

            // act and check: rename, and change the currency while there are no entries
            let changed = try await client.send(.patch, "/api/v1/ledgers/\(ledger.id)", token: ada,
                                                json: #"{"name": "Flat", "currency": "USD"}"#).decode(LedgerReply.self)
            #expect(changed.name == "Flat" && changed.currency == "USD")

            // act and check: members
            let added = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/members", token: ada, json: #"{"name": "Kim"}"#)
            #expect(added.status == .created, "\(added)")
            let kim = try #require(try added.decode(LedgerReply.self).members.last)
            #expect(kim.name == "Kim" && !kim.linked && !kim.isYou)
            let renamed = try await client.send(.patch, "/api/v1/ledgers/\(ledger.id)/members/\(p2)", token: ada,
                                                json: #"{"name": "Sam"}"#).decode(LedgerReply.self)
            #expect(renamed.members.map(\.name) == ["Person 1", "Sam", "Kim"])
            let removed = try await client.send(.delete, "/api/v1/ledgers/\(ledger.id)/members/\(kim.id)", token: ada)
            #expect(removed.status == .ok, "\(removed)")
            #expect(try removed.decode(LedgerReply.self).members.map(\.id) == [p1, p2])
            let again = try await client.send(.get, "/api/v1/ledgers/\(ledger.id)", token: ada).decode(LedgerReply.self)
            #expect(again.name == "Flat" && again.members.map(\.name) == ["Person 1", "Sam"])

            // check: the activity log says who did what, newest first
            let activity = try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/activity", token: ada).decode(ActivityReply.self)
            #expect(activity.items.map(\.text) == [
                "Removed Kim from the members.",
                "Renamed Person 2 to Sam.",
                "Added Kim as a member.",
                "Changed the currency from EUR to USD.",
                "Renamed the ledger from Home to Flat.",
                "Created the ledger Home.",
            ])
            #expect(activity.items.allSatisfy { $0.actor == "ada" && $0.entryId == nil })
        }
    }

    @Test("S1: a second user joins with the invite code; both see the same summary; a revoked code lets no one in")
    func inviteAndJoin() async throws {
        let f = try await ServerFixture()
        let (ada, bob) = (f.adaToken, f.bobToken)
        let carol = try await f.accounts.signUp(name: "carol", password: "tr0ub4dor&3", timeZone: "Europe/Berlin").user
        let carolToken = try await f.accounts.createAPIToken(for: carol, name: "test").secret
        try await f.test { client in
            // setup
            let ledger = try await client.makeLedger(ada, #"{"name": "Home", "currency": "EUR"}"#)
            let opened = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/invite", token: ada)
            #expect(opened.status == .ok, "\(opened)")
            let code = try #require(try opened.decode(LedgerReply.self).inviteCode)
            #expect(code.count == 14 && code.filter { $0 == "-" }.count == 2, "\(code)")

            // act: bob types the code in lower case, without dashes
            let typed = code.replacingOccurrences(of: "-", with: "").lowercased()
            let joined = try await client.send(.post, "/api/v1/ledgers/join", token: bob, json: #"{"code": "\#(typed)"}"#)

            // check: bob is Person 2, linked
            #expect(joined.status == .ok, "\(joined)")
            let bobsView = try joined.decode(LedgerReply.self)
            #expect(bobsView.id == ledger.id)
            #expect(bobsView.members.map(\.isYou) == [false, true] && bobsView.members.map(\.linked) == [true, true])
            #expect(try await client.send(.get, "/api/v1/ledgers", token: bob).decode(LedgerListReply.self).items.map(\.id) == [ledger.id])

            // act: each pays for something, the payer left out (each their own member)
            #expect(try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/expenses", token: ada, json: #"{"amount": "20.00"}"#).status == .created)
            let bobs = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/expenses", token: bob, json: #"{"amount": "8.00"}"#)
            #expect(bobs.status == .created, "\(bobs)")
            #expect(try bobs.decode(EntryReply.self).payer == ledger.members[1].id)

            // check: one summary for both
            let adasSummary = try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/summary", token: ada)
            let bobsSummary = try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/summary", token: bob)
            #expect(adasSummary.status == .ok && bobsSummary.status == .ok)
            #expect(adasSummary.text == bobsSummary.text)
            let summary = try adasSummary.decode(SummaryReply.self)
            #expect(summary.members.map(\.balance) == ["6.00", "-6.00"])
            #expect(summary.sentences == ["Person 2 owes Person 1 6.00 EUR."])
            let activity = try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/activity", token: ada).decode(ActivityReply.self)
            #expect(activity.items.contains { $0.actor == "bob" && $0.text == "Joined as Person 2." })

            // act: revoke; carol tries the old code
            let revoked = try await client.send(.delete, "/api/v1/ledgers/\(ledger.id)/invite", token: ada).decode(LedgerReply.self)
            #expect(revoked.inviteCode == nil)
            let late = try await client.send(.post, "/api/v1/ledgers/join", token: carolToken, json: #"{"code": "\#(code)"}"#)

            // check
            try late.problem(.notFound)
            try await client.send(.get, "/api/v1/ledgers/\(ledger.id)", token: carolToken).problem(.notFound)
            #expect(try await client.send(.get, "/api/v1/ledgers/\(ledger.id)", token: ada).decode(LedgerReply.self).members.count == 2)
        }
    }

    @Test("S1: removing your own member leaves the ledger; the last member with an account stays")
    func leaveLedger() async throws {
        let f = try await ServerFixture()
        let (ada, bob) = (f.adaToken, f.bobToken)
        try await f.test { client in
            // setup: bob joins ada's ledger as Person 2
            let ledger = try await client.makeLedger(ada, #"{"name": "Home", "currency": "EUR"}"#)
            let base = "/api/v1/ledgers/\(ledger.id)"
            let code = try #require(try await client.send(.post, "\(base)/invite", token: ada).decode(LedgerReply.self).inviteCode)
            #expect(try await client.send(.post, "/api/v1/ledgers/join", token: bob, json: #"{"code": "\#(code)"}"#).status == .ok)

            // act: ada removes her own member
            let left = try await client.send(.delete, "\(base)/members/\(ledger.members[0].id)", token: ada)

            // check: done, and the ledger is now bob's alone
            #expect(left.status == .ok, "\(left)")
            let after = try left.decode(LedgerReply.self)
            #expect(after.members.map(\.name) == ["Person 2"] && after.members.allSatisfy { !$0.isYou })
            try await client.send(.get, base, token: ada).problem(.notFound)
            #expect(try await client.send(.get, "/api/v1/ledgers", token: ada).decode(LedgerListReply.self).items.isEmpty)
            let bobs = try await client.send(.get, base, token: bob).decode(LedgerReply.self)
            #expect(bobs.members.map(\.name) == ["Person 2"] && bobs.members.map(\.isYou) == [true])
            let activity = try await client.send(.get, "\(base)/activity?limit=1", token: bob).decode(ActivityReply.self)
            #expect(activity.items.map { "\($0.actor ?? "-"): \($0.text)" } == ["ada: Removed Person 1 from the members."])

            // act and check: bob, the last member with an account, cannot remove himself
            let before = try await LedgerSnapshot(client, bob, [ledger.id])
            let last = try await client.send(.delete, "\(base)/members/\(ledger.members[1].id)", token: bob)
            #expect(try last.problem(.conflict).contains("only member with an account"))
            #expect(try await LedgerSnapshot(client, bob, [ledger.id]) == before)
        }
    }

    // MARK: - Expenses, payments, history (S2–S5)

    @Test("S2: an expense split equally, over a subset, by shares, by exact amounts and by percentages")
    func splitMethods() async throws {
        let f = try await ServerFixture()
        let ada = f.adaToken
        try await f.test { client in
            // setup
            let ledger = try await client.makeLedger(ada, #"{"name": "Trip", "currency": "EUR", "members": ["Alex", "Sam", "Kim"]}"#)
            let (alex, sam, kim) = (ledger.members[0].id, ledger.members[1].id, ledger.members[2].id)
            let path = "/api/v1/ledgers/\(ledger.id)/expenses"

            // act and check: equal among everyone; the odd cent to the earliest member (S3)
            let thirds = try await client.addExpense(ada, path, #"{"amount": "10.00", "description": "Taxi", "date": "2025-06-01"}"#)
            #expect(thirds.kind == "expense" && thirds.amount == "10.00" && thirds.currency == "EUR" && thirds.payer == alex)
            #expect(thirds.split == "equal" && thirds.recipient == nil && thirds.deletedAt == nil)
            #expect(thirds.description == "Taxi" && thirds.category == nil && thirds.date == "2025-06-01")
            #expect(thirds.parts.map(\.member) == [alex, sam, kim])
            #expect(thirds.parts.map(\.share) == ["3.34", "3.33", "3.33"])
            #expect(thirds.parts.map(\.value) == ["1", "1", "1"])

            // Equal between two of the three, the amount a JSON number, paid by Sam.
            let subset = try await client.addExpense(ada, path, #"""
                {"amount": 30, "payer": \#(sam), "split": {"method": "equal", "parts": [{"member": \#(alex)}, {"member": \#(sam)}]}}
                """#)
            #expect(subset.amount == "30.00" && subset.payer == sam)
            #expect(subset.parts.map(\.member) == [alex, sam] && subset.parts.map(\.share) == ["15.00", "15.00"])

            // By shares: 2 to 1.
            let shares = try await client.addExpense(ada, path, #"""
                {"amount": "90.00", "split": {"method": "shares", "parts": [{"member": \#(alex), "value": 2}, {"member": \#(sam), "value": "1"}]}}
                """#)
            #expect(shares.split == "shares" && shares.parts.map(\.share) == ["60.00", "30.00"] && shares.parts.map(\.value) == ["2", "1"])

            // By exact amounts, one a string and one a number.
            let exact = try await client.addExpense(ada, path, #"""
                {"amount": 50, "category": "Food", "split": {"method": "exact", "parts": [{"member": \#(kim), "value": 30}, {"member": \#(alex), "value": "20.00"}]}}
                """#)
            #expect(exact.split == "exact" && exact.category == "Food")
            #expect(exact.parts.map(\.member) == [alex, kim] && exact.parts.map(\.share) == ["20.00", "30.00"])

            // By percentages.
            let percent = try await client.addExpense(ada, path, #"""
                {"amount": "80", "split": {"method": "percent", "parts": [{"member": \#(alex), "value": 60}, {"member": \#(sam), "value": "40"}]}}
                """#)
            #expect(percent.split == "percent" && percent.parts.map(\.share) == ["48.00", "32.00"])

            // JSON numbers are read exactly: 0.1 = 0.07 + 0.03 adds up.
            let cents = try await client.addExpense(ada, path, #"""
                {"amount": 0.1, "split": {"method": "exact", "parts": [{"member": \#(sam), "value": 0.07}, {"member": \#(kim), "value": 0.03}]}}
                """#)
            #expect(cents.amount == "0.10" && cents.parts.map(\.share) == ["0.07", "0.03"])

            // A repeated client id returns the stored expense with 200, never a second one.
            let id = UUID()
            let first = try await client.send(.post, path, token: ada, json: #"{"id": "\#(id)", "amount": "9.00"}"#)
            #expect(first.status == .created, "\(first)")
            let repeated = try await client.send(.post, path, token: ada, json: #"{"id": "\#(id)", "amount": "9.00"}"#)
            #expect(repeated.status == .ok, "\(repeated)")
            #expect(try repeated.decode(EntryReply.self) == (try first.decode(EntryReply.self)))

            // check: 10.00 (thirds) and 0.10 gone, everything else adds up exactly.
            for gone in [thirds.id, cents.id] {
                #expect(try await client.send(.delete, "/api/v1/ledgers/\(ledger.id)/entries/\(gone)", token: ada).status == .ok)
            }
            let summary = try await client.summary(ada, ledger.id)
            // Alex paid 9 + 90 + 50 + 80 = 229, shares 3 + 15 + 60 + 20 + 48 = 146; Sam paid 30, shares
            // 3 + 15 + 30 + 32 = 80; Kim shares 3 + 30 = 33.
            #expect(summary.members.map(\.paid) == ["229.00", "30.00", "0.00"])
            #expect(summary.members.map(\.share) == ["146.00", "80.00", "33.00"])
            #expect(summary.members.map(\.balance) == ["83.00", "-50.00", "-33.00"])
            #expect(Set(summary.plan.map { "\($0.fromName)→\($0.toName) \($0.amount)" }) == ["Sam→Alex 50.00", "Kim→Alex 33.00"])
            let entries = try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/entries", token: ada).decode(PageReply.self)
            #expect(entries.items.count == 5 && entries.nextCursor == nil)
        }
    }

    @Test("S4: a payment moves balances; edits of payments and expenses show in the summary and the activity log")
    func paymentsAndEdits() async throws {
        let f = try await ServerFixture()
        let ada = f.adaToken
        try await f.test { client in
            // setup
            let ledger = try await client.makeLedger(ada, #"{"name": "Home", "currency": "EUR"}"#)
            let (p1, p2) = (ledger.members[0].id, ledger.members[1].id)
            let base = "/api/v1/ledgers/\(ledger.id)"
            let dinner = try await client.addExpense(ada, "\(base)/expenses", #"{"amount": "30.00", "description": "Dinner", "category": "Food"}"#)

            // act: Person 2 pays 10.00 back
            let paid = try await client.send(.post, "\(base)/payments", token: ada, json: #"{"from": \#(p2), "to": \#(p1), "amount": "10", "note": "Cash"}"#)

            // check
            #expect(paid.status == .created, "\(paid)")
            let payment = try paid.decode(EntryReply.self)
            #expect(payment.kind == "payment" && payment.payer == p2 && payment.recipient == p1 && payment.amount == "10.00")
            #expect(payment.description == "Cash" && payment.split == "exact" && payment.parts.map(\.share) == ["10.00"])
            var summary = try await client.summary(ada, ledger.id)
            #expect(summary.members.map(\.sent) == ["0.00", "10.00"] && summary.members.map(\.received) == ["10.00", "0.00"])
            #expect(summary.members.map(\.balance) == ["5.00", "-5.00"])
            #expect(summary.sentences == ["Person 2 owes Person 1 5.00 EUR."])

            // act: the payment was 15.00 in fact
            let edited = try await client.send(.patch, "\(base)/entries/\(payment.id)", token: ada, json: #"{"amount": 15}"#)
            #expect(edited.status == .ok, "\(edited)")
            #expect(try edited.decode(EntryReply.self).amount == "15.00")
            summary = try await client.summary(ada, ledger.id)
            #expect(summary.members.map(\.balance) == ["0.00", "0.00"] && summary.plan.isEmpty)
            #expect(summary.sentences == ["Everyone is settled up."])

            // act: the dinner was 40.00, paid by Person 2, split 25/75, without a category
            let changed = try await client.send(.patch, "\(base)/entries/\(dinner.id)", token: ada, json: #"""
                {"amount": "40.00", "payer": \#(p2), "date": "2025-06-10", "category": null,
                 "split": {"method": "percent", "parts": [{"member": \#(p1), "value": 25}, {"member": \#(p2), "value": 75}]}}
                """#)

            // check: read back, and in the summary
            #expect(changed.status == .ok, "\(changed)")
            let dinnerNow = try await client.send(.get, "\(base)/entries/\(dinner.id)", token: ada).decode(EntryReply.self)
            #expect(dinnerNow.amount == "40.00" && dinnerNow.payer == p2 && dinnerNow.date == "2025-06-10")
            #expect(dinnerNow.description == "Dinner" && dinnerNow.category == nil)
            #expect(dinnerNow.split == "percent" && dinnerNow.parts.map(\.share) == ["10.00", "30.00"])
            summary = try await client.summary(ada, ledger.id)
            // Person 1: paid 0, share 10, sent 0, received 15 → -25; Person 2: paid 40, share 30, sent 15 → +25.
            #expect(summary.members.map(\.balance) == ["-25.00", "25.00"])
            #expect(summary.plan.map { "\($0.from)→\($0.to) \($0.amount)" } == ["\(p1)→\(p2) 25.00"])

            // The description cleared with an empty string; a payment takes no split.
            let cleared = try await client.send(.patch, "\(base)/entries/\(dinner.id)", token: ada, json: #"{"description": ""}"#)
            #expect(try cleared.decode(EntryReply.self).description == nil)
            try await client.send(.patch, "\(base)/entries/\(payment.id)", token: ada,
                                  json: #"{"split": {"method": "equal"}}"#).problem(.badRequest)

            // check: the activity log says who changed what from what
            let activity = try await client.send(.get, "\(base)/activity", token: ada).decode(ActivityReply.self)
            let texts = activity.items.map(\.text)
            #expect(texts.contains { $0.hasPrefix("Changed the payment of 10.00 EUR: amount 10.00 EUR → 15.00 EUR") }, "\(texts)")
            #expect(texts.contains { $0.hasPrefix("Changed Dinner (30.00 EUR): amount 30.00 EUR → 40.00 EUR; payer Person 1 → Person 2") }, "\(texts)")
            #expect(texts.contains("Recorded a payment of 10.00 EUR from Person 2 to Person 1."), "\(texts)")
            #expect(activity.items.filter { $0.entryId == dinner.id }.count == 3)
            #expect(activity.items.allSatisfy { $0.actor == "ada" })
        }
    }

    @Test("S5: the history comes newest first a page at a time; a deleted entry leaves the summary and comes back restored")
    func historyDeleteRestore() async throws {
        let f = try await ServerFixture()
        let ada = f.adaToken
        try await f.test { client in
            // setup: five expenses of 1…5 EUR on June 1…5, added out of order
            let ledger = try await client.makeLedger(ada, #"{"name": "Home", "currency": "EUR"}"#)
            let base = "/api/v1/ledgers/\(ledger.id)"
            var ids: [Int: UUID] = [:]
            for day in [3, 1, 5, 2, 4] {
                f.clock.advance(by: 60)
                ids[day] = try await client.addExpense(ada, "\(base)/expenses", #"{"amount": \#(day), "date": "2025-06-0\#(day)", "description": "Day \#(day)"}"#).id
            }
            let before = try await client.summary(ada, ledger.id)
            #expect(before.members.map(\.paid) == ["15.00", "0.00"])

            // act and check: pages of two, newest first
            var amounts: [String] = []
            var cursor: String? = nil
            var pages = 0
            repeat {
                let page = try await client.send(.get, "\(base)/entries?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""), token: ada).decode(PageReply.self)
                #expect(page.items.count <= 2)
                amounts += page.items.map(\.amount)
                cursor = page.nextCursor
                pages += 1
            } while cursor != nil && pages < 10
            #expect(amounts == ["5.00", "4.00", "3.00", "2.00", "1.00"])
            #expect(pages == 3)
            // A cursor is the last entry of a page: one that is not an id is refused, one that
            // names no entry of this ledger points after nothing that is found.
            for (bad, status) in [("2", HTTPResponse.Status.badRequest), (UUID().uuidString, .notFound)] {
                let refused = try await client.send(.get, "\(base)/entries?limit=2&cursor=\(bad)", token: ada)
                #expect(try refused.problem(status).contains("cursor"), "\(bad)")
            }

            // act: delete day 3
            let deleted = try await client.send(.delete, "\(base)/entries/\(ids[3]!)", token: ada)

            // check: gone from the summary and the default history, listed with deleted=true
            #expect(deleted.status == .ok, "\(deleted)")
            #expect(try deleted.decode(EntryReply.self).deletedAt != nil)
            #expect(try await client.summary(ada, ledger.id).members.map(\.paid) == ["12.00", "0.00"])
            let visible = try await client.send(.get, "\(base)/entries", token: ada).decode(PageReply.self)
            #expect(visible.items.map(\.amount) == ["5.00", "4.00", "2.00", "1.00"])
            let all = try await client.send(.get, "\(base)/entries?deleted=true", token: ada).decode(PageReply.self)
            #expect(all.items.map(\.amount) == ["5.00", "4.00", "3.00", "2.00", "1.00"])
            #expect(all.items.map { $0.deletedAt != nil } == [false, false, true, false, false])
            let shown = try await client.send(.get, "\(base)/entries/\(ids[3]!)", token: ada)
            #expect(shown.status == .ok)
            #expect(try shown.decode(EntryReply.self).deletedAt != nil)
            try await client.send(.delete, "\(base)/entries/\(ids[3]!)", token: ada).problem(.conflict)

            // act: restore
            let restored = try await client.send(.post, "\(base)/entries/\(ids[3]!)/restore", token: ada)

            // check: back in the summary, exactly as before
            #expect(restored.status == .ok, "\(restored)")
            #expect(try restored.decode(EntryReply.self).deletedAt == nil)
            #expect(try await client.summary(ada, ledger.id) == before)
            #expect(try await client.send(.get, "\(base)/entries", token: ada).decode(PageReply.self).items.count == 5)
            try await client.send(.post, "\(base)/entries/\(ids[3]!)/restore", token: ada).problem(.conflict)

            // check: the activity log, newest first, names who and which entry
            let activity = try await client.send(.get, "\(base)/activity?limit=2", token: ada).decode(ActivityReply.self)
            #expect(activity.items.map(\.text) == [
                "Restored 3.00 EUR for Day 3, paid by Person 1, split equally.",
                "Deleted 3.00 EUR for Day 3, paid by Person 1, split equally.",
            ])
            #expect(activity.items.allSatisfy { $0.actor == "ada" && $0.entryId == ids[3]! })
        }
    }

    @Test("Finding entries: words, a member, a category and dates as query parameters, a page at a time; malformed ones are refused")
    func search() async throws {
        let f = try await ServerFixture()
        let ada = f.adaToken
        try await f.test { client in
            let ledger = try await client.makeLedger(ada, #"{"name": "Home", "currency": "EUR"}"#)
            let base = "/api/v1/ledgers/\(ledger.id)"
            let (p1, p2) = (ledger.members[0].id, ledger.members[1].id)
            var ids: [String: UUID] = [:]
            for (name, json) in [
                ("café", #"{"amount": 4, "date": "2025-06-01", "description": "Café au lait", "category": "Food"}"#),
                ("market", #"{"amount": 50, "date": "2025-06-03", "description": "Market", "category": "Food", "payer": \#(p2)}"#),
                ("cinema", #"{"amount": 20, "date": "2025-06-05", "description": "CAFE cinema", "category": "Fun", "split": {"method": "equal", "parts": [{"member": \#(p1)}]}}"#),
                ("rent", #"{"amount": 900, "date": "2025-06-07", "description": "Rent"}"#),
            ] {
                f.clock.advance(by: 60)
                ids[name] = try await client.addExpense(ada, "\(base)/expenses", json).id
            }
            func found(_ query: String) async throws -> [UUID] {
                let answer = try await client.send(.get, "\(base)/entries?\(query)", token: ada)
                #expect(answer.status == .ok, "\(query): \(answer)")
                return try answer.decode(PageReply.self).items.map(\.id)
            }
            #expect(try await found("q=caf%C3%A9") == [ids["cinema"], ids["café"]])
            #expect(try await found("q=%20%20") == [ids["rent"], ids["cinema"], ids["market"], ids["café"]])
            #expect(try await found("member=\(p2)") == [ids["rent"], ids["market"], ids["café"]], "the cinema was Person 1's alone")
            #expect(try await found("category=Food") == [ids["market"], ids["café"]])
            #expect(try await found("category=") == [ids["rent"], ids["cinema"], ids["market"], ids["café"]])
            #expect(try await found("from=2025-06-03&through=2025-06-05") == [ids["cinema"], ids["market"]])
            #expect(try await found("from=2025-06-05&through=2025-06-03").isEmpty)
            #expect(try await found("member=999999").isEmpty)
            #expect(try await found("q=cafe&category=Fun&member=\(p1)&from=2025-06-01") == [ids["cinema"]])

            // A page at a time, the search kept.
            let first = try await client.send(.get, "\(base)/entries?category=Food&limit=1", token: ada).decode(PageReply.self)
            #expect(first.items.map(\.id) == [ids["market"]])
            let cursor = try #require(first.nextCursor)
            let second = try await client.send(.get, "\(base)/entries?category=Food&limit=1&cursor=\(cursor)", token: ada).decode(PageReply.self)
            #expect(second.items.map(\.id) == [ids["café"]] && second.nextCursor == nil)

            for (query, detail) in [
                ("member=Ada", "The query parameter member must be a member's id, a whole number; \"Ada\" is not."),
                ("from=2025-13-01", "The query parameter from must be a date like 2025-03-30; \"2025-13-01\" is not."),
                ("through=yesterday", "The query parameter through must be a date like 2025-03-30; \"yesterday\" is not."),
                ("q=" + String(repeating: "a", count: 101), "A search can be at most 100 characters long."),
            ] {
                let refused = try await client.send(.get, "\(base)/entries?\(query)", token: ada)
                #expect(try refused.problem(.badRequest) == detail, "\(query)")
            }
            try await client.send(.get, "\(base)/entries?q=cafe", token: f.bobToken).problem(.notFound)
        }
    }

    @Test("S1, S2: conflicts: the currency once there are entries, a member with entries, a taken name")
    func conflicts() async throws {
        let f = try await ServerFixture()
        let ada = f.adaToken
        try await f.test { client in
            // setup
            let ledger = try await client.makeLedger(ada, #"{"name": "Home", "currency": "EUR"}"#)
            let base = "/api/v1/ledgers/\(ledger.id)"
            _ = try await client.addExpense(ada, "\(base)/expenses", #"{"amount": "12.00"}"#)
            let before = try await LedgerSnapshot(client, ada, [ledger.id])

            // act and check
            #expect(try await client.send(.patch, base, token: ada, json: #"{"currency": "USD"}"#).problem(.conflict).contains("currency"))
            #expect(try await client.send(.delete, "\(base)/members/\(ledger.members[1].id)", token: ada).problem(.conflict).contains("Person 2"))
            #expect(try await client.send(.post, "\(base)/members", token: ada, json: #"{"name": "person 1"}"#).problem(.conflict).contains("already"))
            #expect(try await client.send(.patch, "\(base)/members/\(ledger.members[1].id)", token: ada,
                                          json: #"{"name": "PERSON 1"}"#).problem(.conflict).contains("already"))
            #expect(try await LedgerSnapshot(client, ada, [ledger.id]) == before)
        }
    }

    // MARK: - Bad input (A4)

    /// In paths, `{home}` is a EUR ledger, `{yen}` a JPY one; `{p1}`, `{p2}` are home's members,
    /// `{yenMember}` and `{bobsMember}` members of other ledgers; `{entry}` an expense of home.
    typealias Case = BadInputCase

    static let expenses = "/api/v1/ledgers/{home}/expenses"
    static let longText = String(repeating: "x", count: 201)

    static let badCases: [Case] = [
        // Malformed JSON and wrong types.
        Case(.post, expenses, #"{"amount": "12.50""#, says: "not valid JSON"),
        Case(.post, expenses, #"{"amount": true}"#, says: "The field amount is not valid", field: "amount"),
        Case(.post, expenses, #"{"amount": null}"#, says: "amount"),
        Case(.post, expenses, #"{}"#, says: "amount is required"),
        Case(.post, expenses, #"{"amount": "12.50", "payer": "x"}"#, says: "The field payer must be a number.", field: "payer"),
        Case(.post, expenses, #"{"amount": "12.50", "date": "tomorrow"}"#, says: "The field date is not valid"),
        Case(.post, expenses, #"["12.50"]"#, says: "must be an object"),
        Case(.post, expenses, #"{"amount": "twelve"}"#, says: "not an amount"),
        Case(.post, expenses, #"{"amount": "1e3"}"#, says: "not an amount"),
        // Float artefacts are refused, never rounded.
        Case(.post, expenses, #"{"amount": 12.499999999999998}"#, says: "more decimals than EUR"),
        Case(.post, expenses, #"{"amount": 0.30000000000000004}"#, says: "more decimals than EUR"),
        Case(.post, expenses, #"{"amount": "10.00", "split": {"method": "exact", "parts": [{"member": {p1}, "value": 0.30000000000000004}, {"member": {p2}, "value": "9.70"}]}}"#, says: "more decimals than EUR"),
        // More decimals than the currency has.
        Case(.post, expenses, #"{"amount": "12.345"}"#, says: "\"12.345\" has more decimals than EUR has: write it with 2 decimals.", field: "amount"),
        Case(.post, expenses, #"{"amount": 12.345}"#, says: "more decimals than EUR"),
        Case(.post, "/api/v1/ledgers/{yen}/expenses", #"{"amount": "100.5"}"#, says: "more decimals than JPY has: write it with no decimals"),
        Case(.post, "/api/v1/ledgers/{yen}/expenses", #"{"amount": 100.5}"#, says: "more decimals than JPY"),
        // Out of range.
        Case(.post, expenses, #"{"amount": "-5.00"}"#, says: "negative"),
        Case(.post, expenses, #"{"amount": -5}"#, says: "negative"),
        Case(.post, expenses, #"{"amount": "0"}"#, says: "more than 0"),
        Case(.post, expenses, #"{"amount": 0}"#, says: "more than 0"),
        Case(.post, expenses, #"{"amount": "0.00"}"#, says: "more than 0"),
        Case(.post, expenses, #"{"amount": "1000000.01"}"#, says: "at most 1000000.00 EUR"),
        Case(.post, expenses, #"{"amount": 1000001}"#, says: "at most 1000000.00 EUR"),
        Case(.post, expenses, #"{"amount": "99999999999999999999"}"#, says: "too large"),
        Case(.post, "/api/v1/ledgers/{home}/payments", #"{"to": {p2}, "amount": "1000000.01"}"#, says: "A payment can be at most"),
        // Members that are not in the ledger.
        Case(.post, expenses, #"{"amount": "12.50", "payer": 999999}"#, says: "not in this ledger"),
        Case(.post, expenses, #"{"amount": "12.50", "payer": {yenMember}}"#, says: "not in this ledger"),
        Case(.post, expenses, #"{"amount": "12.50", "payer": {bobsMember}}"#, says: "not in this ledger"),
        Case(.post, expenses, #"{"amount": "12.50", "split": {"method": "equal", "parts": [{"member": {p1}}, {"member": {yenMember}}]}}"#, says: "not in this ledger"),
        Case(.post, "/api/v1/ledgers/{home}/payments", #"{"to": {yenMember}, "amount": "5"}"#, says: "not in this ledger"),
        Case(.post, "/api/v1/ledgers/{home}/payments", #"{"from": {bobsMember}, "to": {p1}, "amount": "5"}"#, says: "not in this ledger"),
        Case(.post, "/api/v1/ledgers/{home}/payments", #"{"from": {p1}, "to": {p1}, "amount": "5"}"#, says: "two different members"),
        Case(.post, "/api/v1/ledgers/{home}/payments", #"{"amount": "5"}"#, says: "to is required"),
        // Splits that do not add up.
        Case(.post, expenses, #"{"amount": "50.00", "split": {"method": "exact", "parts": [{"member": {p1}, "value": "20.00"}, {"member": {p2}, "value": "20.00"}]}}"#, says: "add up to 40.00, not 50.00"),
        Case(.post, expenses, #"{"amount": "50.00", "split": {"method": "percent", "parts": [{"member": {p1}, "value": 60}, {"member": {p2}, "value": 30}]}}"#, says: "add up to 90%"),
        Case(.post, expenses, #"{"amount": "50.00", "split": {"method": "shares", "parts": [{"member": {p1}}, {"member": {p2}, "value": 2}]}}"#, says: "needs each member's share count"),
        Case(.post, expenses, #"{"amount": "50.00", "split": {"method": "shares"}}"#, says: "needs each member's share count"),
        Case(.post, expenses, #"{"amount": "50.00", "split": {"method": "shares", "parts": [{"member": {p1}, "value": 0}, {"member": {p2}, "value": 1}]}}"#, says: "more than 0"),
        Case(.post, expenses, #"{"amount": "50.00", "split": {"method": "equal", "parts": [{"member": {p1}}, {"member": {p1}}]}}"#, says: "twice"),
        Case(.post, expenses, #"{"amount": "50.00", "split": {"method": "thirds"}}"#, says: "\"thirds\" is not one of equal, shares, exact, percent"),
        // Texts too long.
        Case(.post, expenses, #"{"amount": "5", "description": "\#(longText)"}"#, says: "at most 200 characters", field: "description"),
        Case(.post, "/api/v1/ledgers/{home}/payments", #"{"to": {p2}, "amount": "5", "note": "\#(longText)"}"#, says: "at most 200 characters"),
        // Edits follow the same rules.
        Case(.patch, "/api/v1/ledgers/{home}/entries/{entry}", #"{"amount": "-1"}"#, says: "negative"),
        Case(.patch, "/api/v1/ledgers/{home}/entries/{entry}", #"{"amount": 12.499999999999998}"#, says: "more decimals than EUR"),
        Case(.patch, "/api/v1/ledgers/{home}/entries/{entry}", #"{"description": "\#(longText)"}"#, says: "at most 200 characters"),
        Case(.patch, "/api/v1/ledgers/{home}/entries/{entry}", #"{"payer": {yenMember}}"#, says: "not in this ledger", field: "payer"),
        Case(.patch, "/api/v1/ledgers/{home}/entries/{entry}", #"{"split": {"method": "percent", "parts": [{"member": {p1}, "value": 50}]}}"#, says: "add up to 50%", field: "split"),
        Case(.patch, "/api/v1/ledgers/{home}/entries/{entry}", #"{"amount": "12.50""#, says: "not valid JSON"),
        // Ledgers and members.
        Case(.post, "/api/v1/ledgers", #"{"name": "Trip", "currency": "XYZ"}"#, says: "\"XYZ\" is not a currency", field: "currency"),
        Case(.post, "/api/v1/ledgers", #"{"name": "Trip", "currency": "euro"}"#, says: "not a currency"),
        Case(.post, "/api/v1/ledgers", #"{"name": "", "currency": "EUR"}"#, says: "1 to 100 characters", field: "name"),
        Case(.post, "/api/v1/ledgers", #"{"name": "Trip", "currency": "EUR", "members": []}"#, says: "at least one member"),
        Case(.post, "/api/v1/ledgers", #"{"name": "Trip"}"#, says: "currency is required", field: "currency"),
        Case(.patch, "/api/v1/ledgers/{home}", #"{"currency": "ZZZ"}"#, says: "not a currency"),
        Case(.post, "/api/v1/ledgers/{home}/members", #"{"name": " "}"#, says: "1 to 50 characters"),
        Case(.patch, "/api/v1/ledgers/{home}/members/{p2}", #"{"name": "\#(longText)"}"#, says: "1 to 50 characters", field: "name"),
        Case(.post, "/api/v1/ledgers/join", #"{"code": "ZZZZ-ZZZZ-ZZZZ"}"#, .notFound, says: "This invite is not valid any more; ask for a new one."),
        Case(.post, "/api/v1/ledgers/{home}/invite", #"{"days": 31}"#, says: "1 to 30 days", field: "days"),
        Case(.post, "/api/v1/ledgers/{home}/invite", #"{"uses": 0}"#, says: "1 to 50 people", field: "uses"),
        Case(.put, "/api/v1/ledgers/{home}/owner", #"{"member": {p2}}"#, .conflict, says: "only a member with an account can own the ledger"),
        Case(.put, "/api/v1/ledgers/{home}/owner", #"{"member": 999999}"#, says: "not in this ledger"),
        // Several payers.
        Case(.post, "/api/v1/ledgers/{home}/expenses", #"{"amount": 10, "payers": [{"member": {p1}, "paid": 4}, {"member": {p2}, "paid": "5"}]}"#,
             says: "What the payers paid adds up to 9.00, not 10.00: change it by 1.00 so it matches the expense.", field: "payers"),
        Case(.post, "/api/v1/ledgers/{home}/expenses", #"{"amount": 10, "payer": {p1}, "payers": [{"member": {p1}, "paid": 10}]}"#,
             says: "not both"),
        Case(.post, "/api/v1/ledgers/{home}/expenses", #"{"amount": 10, "payers": []}"#, says: "at least one payer"),
        Case(.post, "/api/v1/ledgers/{home}/expenses", #"{"amount": 10, "payers": [{"member": {p1}, "paid": 10}, {"member": {p2}, "paid": 0.01}]}"#,
             says: "adds up to 10.01"),
        Case(.post, "/api/v1/ledgers/{home}/expenses", #"{"amount": 10, "payers": [{"member": {p1}, "paid": 5}, {"member": {p1}, "paid": 5}]}"#,
             says: "name a member twice", field: "payers"),
        Case(.post, "/api/v1/ledgers/{home}/expenses", #"{"amount": 10, "payers": [{"member": {p1}, "paid": 10.001}]}"#, says: "decimals", field: "payers"),
        Case(.post, "/api/v1/ledgers/{home}/expenses", #"{"amount": 10, "payers": [{"member": {bobsMember}, "paid": 10}]}"#,
             says: "not in this ledger"),
        Case(.post, "/api/v1/ledgers/{home}/expenses", #"{"amount": 10, "payers": [{"member": {p1}}]}"#, says: "paid"),
        Case(.patch, "/api/v1/ledgers/{home}/entries/{entry}", #"{"payers": [{"member": {p1}, "paid": 6}, {"member": {p2}, "paid": 6.01}]}"#,
             says: "adds up to 12.01, not 12.00"),
        // Query parameters and ids.
        Case(.get, "/api/v1/ledgers/{home}/entries?limit=0", nil, says: "between 1 and 500"),
        Case(.get, "/api/v1/ledgers/{home}/entries?cursor=-1", nil, says: "cursor"),
        Case(.get, "/api/v1/ledgers/{home}/entries?deleted=maybe", nil, says: "true or false"),
        Case(.get, "/api/v1/ledgers/{home}/activity?limit=501", nil, says: "between 1 and 500"),
        Case(.get, "/api/v1/ledgers/{home}/entries/\(UUID())", nil, .notFound, says: "no expense or payment"),
        Case(.get, "/api/v1/ledgers/{home}/entries/not-a-uuid", nil, .notFound, says: "no expense or payment"),
        Case(.delete, "/api/v1/ledgers/{home}/members/999999", nil, .notFound, says: "no member"),
        Case(.patch, "/api/v1/ledgers/{home}/members/{yenMember}", #"{"name": "Mine"}"#, .notFound, says: "no member"),
        Case(.get, "/api/v1/ledgers/not-a-uuid", nil, .notFound, says: "no ledger"),
    ]

    @Test("A 4xx problem that says what is wrong, and nothing changes", arguments: badCases)
    func refused(_ badCase: Case) async throws {
        let f = try await ServerFixture()
        let (ada, bob) = (f.adaToken, f.bobToken)
        try await f.test { client in
            // setup: a EUR ledger with an expense, a JPY ledger, and bob's ledger
            let home = try await client.makeLedger(ada, #"{"name": "Home", "currency": "EUR"}"#)
            let yen = try await client.makeLedger(ada, #"{"name": "Tokyo", "currency": "JPY"}"#)
            let bobs = try await client.makeLedger(bob, #"{"name": "Bob's", "currency": "EUR"}"#)
            let entry = try await client.addExpense(ada, "/api/v1/ledgers/\(home.id)/expenses", #"{"amount": "12.00", "description": "Lunch"}"#)
            let fill = { (text: String) in
                text.replacingOccurrences(of: "{home}", with: home.id.uuidString)
                    .replacingOccurrences(of: "{yen}", with: yen.id.uuidString)
                    .replacingOccurrences(of: "{p1}", with: String(home.members[0].id))
                    .replacingOccurrences(of: "{p2}", with: String(home.members[1].id))
                    .replacingOccurrences(of: "{yenMember}", with: String(yen.members[1].id))
                    .replacingOccurrences(of: "{bobsMember}", with: String(bobs.members[1].id))
                    .replacingOccurrences(of: "{entry}", with: entry.id.uuidString)
            }
            let before = try await LedgerSnapshot(client, ada, [home.id, yen.id])

            // act
            let answer = try await client.send(badCase.method, fill(badCase.path), token: ada, json: badCase.body.map(fill))

            // check
            let detail = try answer.problem(badCase.status)
            #expect(detail.localizedCaseInsensitiveContains(badCase.says), "\(detail)")
            if let field = badCase.field { #expect(try answer.json()["field"] as? String == field, "\(answer)") }
            #expect(try await LedgerSnapshot(client, ada, [home.id, yen.id]) == before)
        }
    }

    @Test("A body over 64 KiB is refused with 413 and changes nothing")
    func oversized() async throws {
        let f = try await ServerFixture()
        let ada = f.adaToken
        try await f.test { client in
            // setup
            let ledger = try await client.makeLedger(ada, #"{"name": "Home", "currency": "EUR"}"#)
            let base = "/api/v1/ledgers/\(ledger.id)"
            let entry = try await client.addExpense(ada, "\(base)/expenses", #"{"amount": "12.00"}"#)
            let before = try await LedgerSnapshot(client, ada, [ledger.id])
            let huge = String(repeating: "x", count: 70_000)

            // act and check
            for (method, path) in [(HTTPRequest.Method.post, "\(base)/expenses"), (.patch, "\(base)/entries/\(entry.id)"), (.post, "\(base)/payments")] {
                let answer = try await client.send(method, path, token: ada, json: #"{"amount": "5", "to": \#(ledger.members[1].id), "description": "\#(huge)"}"#)
                #expect(try answer.problem(.contentTooLarge).contains("64 KiB"))
            }
            #expect(try await LedgerSnapshot(client, ada, [ledger.id]) == before)
        }
    }

    // MARK: - Isolation (S1)

    @Test("S1: every endpoint with a ledger id answers 404 to a non-member, also for another ledger's entries, and nothing changes")
    func nonMembers() async throws {
        let f = try await ServerFixture()
        let (ada, bob) = (f.adaToken, f.bobToken)
        try await f.test { client in
            // setup: ada's ledger with an expense, a deleted expense, a payment and an open invite;
            // bob's own ledger with an expense.
            let adas = try await client.makeLedger(ada, #"{"name": "Ada's", "currency": "EUR"}"#)
            let a = "/api/v1/ledgers/\(adas.id)"
            let (p1, p2) = (adas.members[0].id, adas.members[1].id)
            let expense = try await client.addExpense(ada, "\(a)/expenses", #"{"amount": "42.00", "description": "Secret"}"#)
            let gone = try await client.addExpense(ada, "\(a)/expenses", #"{"amount": "7.00"}"#)
            #expect(try await client.send(.delete, "\(a)/entries/\(gone.id)", token: ada).status == .ok)
            let payment = try await client.send(.post, "\(a)/payments", token: ada, json: #"{"from": \#(p2), "to": \#(p1), "amount": "1"}"#).decode(EntryReply.self)
            #expect(try await client.send(.post, "\(a)/invite", token: ada).status == .ok)
            let bobs = try await client.makeLedger(bob, #"{"name": "Bob's", "currency": "EUR"}"#)
            let b = "/api/v1/ledgers/\(bobs.id)"
            _ = try await client.addExpense(bob, "\(b)/expenses", #"{"amount": "3.00"}"#)
            let adaBefore = try await LedgerSnapshot(client, ada, [adas.id])
            let bobBefore = try await LedgerSnapshot(client, bob, [bobs.id])

            // act and check: each route of openapi.yaml that takes a ledger id, with ada's ledger
            let attempts: [(HTTPRequest.Method, String, String?)] = [
                (.get, a, nil),
                (.patch, a, #"{"name": "Mine now"}"#),
                (.post, "\(a)/members", #"{"name": "Bob"}"#),
                (.patch, "\(a)/members/\(p2)", #"{"name": "Bob"}"#),
                (.delete, "\(a)/members/\(p2)", nil),
                (.post, "\(a)/invite", nil),
                (.delete, "\(a)/invite", nil),
                (.put, "\(a)/owner", #"{"member": \#(p1)}"#),
                (.post, "\(a)/expenses", #"{"amount": "1.00"}"#),
                (.post, "\(a)/expenses", #"{"amount": "1.00", "payer": \#(p1)}"#),
                (.post, "\(a)/payments", #"{"from": \#(p1), "to": \#(p2), "amount": "1.00"}"#),
                (.get, "\(a)/entries", nil),
                (.get, "\(a)/entries?deleted=true", nil),
                (.get, "\(a)/entries/\(expense.id)", nil),
                (.patch, "\(a)/entries/\(expense.id)", #"{"amount": "1.00"}"#),
                (.delete, "\(a)/entries/\(expense.id)", nil),
                (.delete, "\(a)/entries/\(payment.id)", nil),
                (.post, "\(a)/entries/\(gone.id)/restore", nil),
                (.get, "\(a)/summary", nil),
                (.get, "\(a)/activity", nil),
                // Ada's entries through bob's own ledger's path.
                (.get, "\(b)/entries/\(expense.id)", nil),
                (.patch, "\(b)/entries/\(expense.id)", #"{"amount": "1.00"}"#),
                (.delete, "\(b)/entries/\(expense.id)", nil),
                (.delete, "\(b)/entries/\(payment.id)", nil),
                (.post, "\(b)/entries/\(gone.id)/restore", nil),
            ]
            for (method, path, body) in attempts {
                let answer = try await client.send(method, path, token: bob, json: body)
                let detail = try answer.problem(.notFound)
                #expect(!detail.contains("Secret") && !detail.contains("42.00"), "leaked: \(detail)")
            }
            // Bob's list shows only his own ledger.
            #expect(try await client.send(.get, "/api/v1/ledgers", token: bob).decode(LedgerListReply.self).items.map(\.id) == [bobs.id])
            #expect(try await LedgerSnapshot(client, ada, [adas.id]) == adaBefore)
            #expect(try await LedgerSnapshot(client, bob, [bobs.id]) == bobBefore)
            // Ada's entry id as bob's client id neither reaches her entry nor says it exists: it
            // is a key in bob's ledger, which gets an entry of its own, as for any new id.
            let reuse = try await client.send(.post, "\(b)/expenses", token: bob, json: #"{"id": "\#(expense.id)", "amount": "2.00"}"#)
            #expect(reuse.status == .created, "\(reuse)")
            let added = try reuse.decode(EntryReply.self)
            #expect(added.id != expense.id && added.amount == "2.00")
            #expect(!reuse.text.contains("42.00") && !reuse.text.contains("Secret"), "leaked: \(reuse)")
            #expect(try await LedgerSnapshot(client, ada, [adas.id]) == adaBefore)
        }
    }

    // MARK: - Settling up (S4)

    @Test("S4: balances +10, +3, +3, −6, −5, −5 settle in 4 transfers; recording them brings everyone to 0.00")
    func settleUpPlan() async throws {
        let f = try await ServerFixture()
        let ada = f.adaToken
        try await f.test { client in
            // setup: six members; A pays 10 for E and F, B pays 3 and C pays 3 for D
            let ledger = try await client.makeLedger(ada, #"{"name": "Trip", "currency": "EUR", "members": ["A", "B", "C", "D", "E", "F"]}"#)
            let m = ledger.members.map(\.id)
            let base = "/api/v1/ledgers/\(ledger.id)"
            for body in [
                #"{"amount": "10.00", "payer": \#(m[0]), "split": {"method": "exact", "parts": [{"member": \#(m[4]), "value": "5.00"}, {"member": \#(m[5]), "value": "5.00"}]}}"#,
                #"{"amount": "3.00", "payer": \#(m[1]), "split": {"method": "exact", "parts": [{"member": \#(m[3]), "value": "3.00"}]}}"#,
                #"{"amount": "3.00", "payer": \#(m[2]), "split": {"method": "exact", "parts": [{"member": \#(m[3]), "value": "3.00"}]}}"#,
            ] {
                _ = try await client.addExpense(ada, "\(base)/expenses", body)
            }

            // act
            let summary = try await client.summary(ada, ledger.id)

            // check: the fewest transfers, each from someone who owes to someone owed
            #expect(summary.members.map(\.balance) == ["10.00", "3.00", "3.00", "-6.00", "-5.00", "-5.00"])
            #expect(summary.plan.count == 4, "\(summary.plan)")
            let balance = Dictionary(uniqueKeysWithValues: summary.members.map { ($0.member, $0.balance) })
            #expect(summary.plan.allSatisfy { balance[$0.from]!.hasPrefix("-") && !balance[$0.to]!.hasPrefix("-") })
            #expect(summary.sentences.count == 4)

            // act: record every transfer of the plan as a payment
            for transfer in summary.plan {
                let paid = try await client.send(.post, "\(base)/payments", token: ada,
                                                 json: #"{"from": \#(transfer.from), "to": \#(transfer.to), "amount": "\#(transfer.amount)"}"#)
                #expect(paid.status == .created, "\(paid)")
            }

            // check
            let settled = try await client.summary(ada, ledger.id)
            #expect(settled.members.map(\.balance) == Array(repeating: "0.00", count: 6))
            #expect(settled.plan.isEmpty)
            #expect(settled.sentences == ["Everyone is settled up."])
        }
    }
}

// MARK: - Helpers

/// A ledger as the API returns it.
struct LedgerReply: Decodable, Equatable {
    struct Member: Decodable, Equatable {
        var id: Int64
        var name: String
        var linked: Bool
        var isYou: Bool
    }

    var id: UUID
    var name: String
    var currency: String
    var createdAt: Date
    var members: [Member]
    var owner: Int64?
    var invite: Invite?
    var inviteCode: String?

    struct Invite: Decodable, Equatable {
        var createdAt: Date
        var expiresAt: Date
        var usesLeft: Int
    }
}

struct LedgerListReply: Decodable {
    var items: [LedgerReply]
}

/// An expense or payment as the API returns it.
struct EntryReply: Decodable, Equatable {
    struct Part: Decodable, Equatable {
        var member: Int64
        var value: String
        var share: String
    }

    var id: UUID
    var kind: String
    var amount: String
    var currency: String
    struct Payer: Decodable, Equatable {
        var member: Int64
        var paid: String
    }

    var payer: Int64
    /// Always there: one for a sole payer.
    var payers: [Payer]
    var recipient: Int64?
    var date: String
    var description: String?
    var category: String?
    var split: String
    var parts: [Part]
    var createdAt: Date
    var deletedAt: Date?
}

struct PageReply: Decodable {
    var items: [EntryReply]
    var nextCursor: String?
}

struct SummaryReply: Decodable, Equatable {
    struct Balance: Decodable, Equatable {
        var member: Int64
        var name: String
        var paid: String
        var share: String
        var sent: String
        var received: String
        var balance: String
    }

    struct Transfer: Decodable, Equatable {
        var from: Int64
        var fromName: String
        var to: Int64
        var toName: String
        var amount: String
    }

    var currency: String
    var members: [Balance]
    var plan: [Transfer]
    var sentences: [String]
}

struct ActivityReply: Decodable {
    struct Line: Decodable {
        var at: Date
        var actor: String?
        var entryId: UUID?
        var text: String
    }

    var items: [Line]
}

/// Everything a request could change in some ledgers, read through the API as `token` sees it.
struct LedgerSnapshot: Equatable {
    var texts: [String]

    init(_ client: some TestClientProtocol, _ token: String, _ ledgers: [UUID]) async throws {
        texts = [try await client.send(.get, "/api/v1/ledgers", token: token).text]
        for ledger in ledgers {
            for part in ["", "/entries?deleted=true&limit=500", "/summary", "/activity?limit=500"] {
                let answer = try await client.send(.get, "/api/v1/ledgers/\(ledger)\(part)", token: token)
                #expect(answer.status == .ok, "\(answer)")
                texts.append(answer.text)
            }
        }
    }
}

extension TestClientProtocol {
    /// Creates a ledger as the holder of `token`, expecting 201.
    func makeLedger(_ token: String, _ json: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> LedgerReply {
        let answer = try await send(.post, "/api/v1/ledgers", token: token, json: json)
        #expect(answer.status == .created, "\(answer)", sourceLocation: sourceLocation)
        return try answer.decode()
    }

    /// Adds an expense at `path` (…/expenses), expecting 201.
    func addExpense(_ token: String, _ path: String, _ json: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> EntryReply {
        let answer = try await send(.post, path, token: token, json: json)
        #expect(answer.status == .created, "\(answer)", sourceLocation: sourceLocation)
        return try answer.decode()
    }

    func summary(_ token: String, _ ledger: UUID, sourceLocation: SourceLocation = #_sourceLocation) async throws -> SummaryReply {
        let answer = try await send(.get, "/api/v1/ledgers/\(ledger)/summary", token: token)
        #expect(answer.status == .ok, "\(answer)", sourceLocation: sourceLocation)
        return try answer.decode()
    }
}
