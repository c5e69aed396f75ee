import Foundation
import TallyAPI
import TallyCore
@testable import TallyImport
import TallyRepositories
import TallyServices
import TallyStore
import Testing

/// A2: a person's whole backup, written as JSON and restored into another account: the same
/// days, totals, goals, streaks, kinds, bottle, reminders, sleep records, balances and plans.
@Suite("A person's JSON backup and its restore (A2)")
struct PersonBackupTests {
    typealias CSV = DrinkCSVTests

    /// Everything of one person, as the screens show it, to compare two accounts by.
    struct Picture: Equatable {
        var totals: [LocalDate: Double]
        var entries: Int
        var settings: HydrationSettings
        var profile: Profile?
        var goals: [GoalPeriod]
        var streaks: [Int]
        var kinds: [String]
        var bottle: Bottle
        var reminders: ReminderSettings
        var sleep: [DateInterval]
        /// Per ledger (by name): each member's name and balance, the settle-up sentences, the
        /// count of entries, and each recurring expense with who pays, its zone, state and days.
        var ledgers: [String: [String]]

        init(_ hydration: HydrationService, _ spending: SpendingService) async throws {
            let store = hydration.store
            totals = try await store.dailyTotals(of: hydration.user, from: nil, through: nil)
            entries = try await CSV.entries(of: hydration).count
            settings = try await hydration.settings()
            profile = try await store.profile(of: hydration.user)
            goals = try await store.goalHistory(of: hydration.user).periods
            let history = try await hydration.history(days: 7, month: YearMonth(year: 2026, month: 5))
            streaks = [history.streaks.current, history.streaks.longest]
            kinds = try await hydration.drinkKinds().map { "\($0.name) \($0.factor) \($0.isBuiltIn) \($0.isRetired)" }.sorted()
            bottle = try await hydration.bottle()
            reminders = try await store.reminderSettings(of: hydration.user)
            sleep = try await store.asleepIntervals(of: hydration.user, endingAfter: .distantPast)
            var ledgers: [String: [String]] = [:]
            for details in try await spending.ledgers() {
                let summary = try await spending.summary(of: details.ledger.id)
                let entries = try await spending.entries(in: details.ledger.id, .all)
                ledgers[details.ledger.name] = summary.balances.members.map { "\(summary.name($0.member)) \($0.balance)" } + summary.sentences
                    + [entries.count.description]
                    // Entries typed in another currency, as typed.
                    + entries.compactMap { entry in entry.original.map { "\(entry.amount) from \($0.amount) at \($0.rate.plain)" } }.sorted()
                    + (try await spending.recurringExpenses(in: details.ledger.id)).map { recurring in
                        let payers = recurring.template.payers.map { "\(summary.name($0.member)) \($0.amount.plain)" }
                        return "\(recurring.title) \(payers) \(recurring.timeZone) \(recurring.status) \(recurring.nextDate) \(String(describing: recurring.endDate))"
                    }
            }
            self.ledgers = ledgers
        }
    }

    static func spending(_ hydration: HydrationService) -> SpendingService {
        SpendingService(store: hydration.store as! any SpendingStore, clock: hydration.clock, user: hydration.user)
    }

    /// The two-year person of the CSV tests, with a profile, a goal history, a bottle, reminders,
    /// sleep records, and two ledgers with expenses, a shares split, a payment and a deleted entry.
    static func generatedPerson(in store: SQLiteStore) async throws -> (HydrationService, SpendingService) {
        let ada = try await CSV.generatedPerson(in: store)
        let spending = spending(ada)
        _ = try await ada.setProfile(try Profile(age: 34, weightKg: 61.5, activity: .moderate))
        // Several goals over the two years (the history replaced whole, the profile's automatic
        // goal of today included): the streaks and each day's goal depend on them.
        _ = try await store.updateGoalHistory(of: ada.user) { history, _, _ in
            history = GoalHistory(periods: [
                GoalPeriod(start: CSV.day("2024-05-01"), end: CSV.day("2024-12-31"), goal: Goal(mode: .automatic, targetMl: 2000)),
                GoalPeriod(start: CSV.day("2025-01-01"), end: CSV.day("2025-09-30"), goal: Goal(mode: .custom, targetMl: 1200)),
                GoalPeriod(start: CSV.day("2025-10-01"), end: CSV.day("2026-02-28"), goal: Goal(mode: .none, targetMl: nil)),
                GoalPeriod(start: CSV.day("2026-03-01"), end: nil, goal: Goal(mode: .custom, targetMl: 900)),
            ])
        }
        _ = try await ada.setPresets([150, 300, 450, 600])
        _ = try await ada.adjustBottle(capacityMl: 750, levelMl: 400, sipMl: 45)
        _ = try await ada.saveReminderSettings(ReminderSettings(enabled: true, window: WakeWindow(wake: TimeOfDay("06:30")!, sleep: TimeOfDay("22:45")!),
                                                                frequency: 6, smartThresholdHours: 3, useSleepRecords: true))
        _ = try await store.importHealthRecords(drinks: [], asleep: [DateInterval(start: CSV.instant("2026-05-30T21:30:00Z"), end: CSV.instant("2026-05-31T05:10:00Z"))],
                                                of: ada.user, at: CSV.instant("2026-05-31T08:00:00Z"))
        let home = try await spending.createLedger(name: "Home", currency: "EUR", memberNames: ["Ada", "Sam", "Kim"]).ledger.id
        let (adaID, samID, kimID) = try await (spending.id(of: "Ada", in: home), spending.id(of: "Sam", in: home), spending.id(of: "Kim", in: home))
        _ = try await spending.addExpense(to: home, .init(amount: .text("90.00"), description: "Groceries", category: "food"))
        _ = try await spending.addExpense(to: home, .init(amount: .text("33.33"), payer: samID, description: "=Pizza, \"large\"",
                                                          split: .init(method: .shares, parts: [.init(member: adaID, value: .decimal(2)),
                                                                                                .init(member: samID, value: .decimal(1))])))
        _ = try await spending.recordPayment(in: home, NewPayment(from: kimID, to: adaID, amount: .text("10.00")))
        _ = try await spending.addExpense(to: home, .init(amount: .text("45.00"), payers: [.init(member: adaID, paid: .text("30")),
                                                                                          .init(member: kimID, paid: .text("15"))],
                                                          description: "Dinner"))
        let gone = try await spending.addExpense(to: home, .init(amount: .text("5.00"), description: "Mistake")).entry.id
        _ = try await spending.deleteEntry(gone, in: home)
        // Rent from today: its first occurrence is recorded at once, and is in the backup.
        _ = try await spending.addRecurringExpense(to: home, .init(
            amount: .text("900"), payers: [.init(member: adaID, paid: .text("600")), .init(member: samID, paid: .text("300"))],
            description: "Rent", repeat: RepeatBody(.monthly(day: 1))))
        let trip = try await spending.createLedger(name: "Trip", currency: "JPY", memberNames: ["Ada", "Lee"]).ledger.id
        let lee = try await spending.id(of: "Lee", in: trip)
        _ = try await spending.addExpense(to: trip, .init(amount: .text("12000"), payer: lee, description: "Ryokan"))
        _ = try await spending.addExpense(to: trip, .init(amount: .text("40.50"), payers: [.init(member: lee, paid: .text("30")),
                                                                                         .init(member: try await spending.id(of: "Ada", in: trip), paid: .text("10.50"))],
                                                          description: "Museum", currency: "EUR", rate: .text("161.5")))
        let pass = try await spending.addRecurringExpense(to: trip, .init(
            amount: .text("3000"), payer: lee, description: "Rail pass", repeat: RepeatBody(.weekly(weekday: 5)),
            endDate: CSV.day("2026-09-30"), timeZone: "Asia/Tokyo"))
        _ = try await spending.pauseRecurringExpense(pass.id, in: trip)
        return (ada, spending)
    }

    @Test("A backup from before several payers (entries without payers) restores each expense as paid by its payer; one with them, by each")
    func entriesWithoutPayers() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        func entry(_ payers: String) throws -> EntryJSON {
            try decoder.decode(EntryJSON.self, from: Data("""
                {"id": "\(UUID())", "kind": "expense", "amount": "12.00", "currency": "EUR", "payer": 7, \(payers) "recipient": null,
                 "date": "2026-01-02", "description": null, "category": null, "split": "equal",
                 "parts": [{"member": 7, "value": "1", "share": "6.00"}, {"member": 8, "value": "1", "share": "6.00"}],
                 "createdAt": "2026-01-02T10:00:00Z", "deletedAt": null}
                """.utf8))
        }
        let members = [LedgerMember(id: 1, name: "Ada", userID: nil), LedgerMember(id: 2, name: "Sam", userID: nil)]
        let details = LedgerDetails(ledger: Ledger(id: UUID(), name: "Home", currency: .euro, createdAt: Date()), members: members,
                                    ownerID: 1, invite: nil, hasEntries: false)
        let old = try entry("")
        #expect(old.payers.isEmpty)
        let found = RestoredMembers(names: [7: "Sam", 8: "Ada"], details: details)
        let restored = try old.spendingEntry(members: found, currency: .euro)
        #expect(restored.payers == [PayerPart(member: 2, amount: Money(minorUnits: 1200, currency: .euro))])
        let both = try entry(#""payers": [{"member": 7, "paid": "5.00"}, {"member": 8, "paid": "7.00"}],"#)
            .spendingEntry(members: found, currency: .euro)
        #expect(both.payers.map { [$0.member, $0.amount.minorUnits] } == [[1, 700], [2, 500]])
    }

    static func backup(_ hydration: HydrationService, _ spending: SpendingService) async throws -> Data {
        var data = Data()
        try await PersonBackup.export(hydration: hydration, spending: spending) { data.append($0) }
        return data
    }

    @Test("A2: a generated person's backup restored into a new account, here and in another database, shows the same everything; again with merge, nothing twice")
    func roundTrip() async throws {
        let store = try SQLiteStore.inMemory()
        let (ada, adaSpending) = try await Self.generatedPerson(in: store)
        let data = try await Self.backup(ada, adaSpending)
        let original = try await Picture(ada, adaSpending)
        #expect(original.entries > 1500 && original.ledgers.count == 2 && original.goals.count == 4, "\(original.goals)")
        #expect(original.ledgers["Trip"]?.contains("6541 JPY from 40.50 EUR at 161.5") == true, "\(original.ledgers)")
        #expect(original.streaks[1] > 3, "the streaks compared are not all zero: \(original.streaks)")
        let document = try PersonBackup.read(data)
        for ledger in document.ledgers {
            let kept = try await adaSpending.activity(in: ledger.ledger.id, limit: 500).map(\.text)
            #expect(ledger.activity.map(\.text) == kept && kept.count > 1, "\(ledger.ledger.name)'s activity log is in the backup")
        }

        for target in [store, try SQLiteStore.inMemory()] {
            let bob = try await CSV.person("bob", zone: "Asia/Tokyo", in: target)
            let bobSpending = Self.spending(bob)
            // A new account that chose a goal while signing up: the backup's history replaces it.
            _ = try await bob.setGoal(.custom(ml: 3000))
            let report = try await PersonBackup.read(data).restore(merge: false, hydration: bob, spending: bobSpending)
            #expect(report.drinksAdded + report.removalsAdded == original.entries && report.alreadyThere == 0)
            #expect(report.ledgers == ["Home", "Trip"] && report.ledgerEntriesAdded == 8 && report.recurringExpensesAdded == 2 && report.settingsRestored, "\(report)")
            #expect(try await Picture(bob, bobSpending) == original)

            let again = try await PersonBackup.read(data).restore(merge: true, hydration: bob, spending: bobSpending)
            #expect(again.drinksAdded + again.removalsAdded + again.ledgerEntriesAdded + again.sleepRecordsAdded + again.recurringExpensesAdded == 0)
            #expect(again.alreadyThere == original.entries && !again.settingsRestored)
            #expect(try await Picture(bob, bobSpending) == original)

            let refused = await #expect(throws: TallyError.self) {
                try await PersonBackup.read(data).restore(merge: false, hydration: bob, spending: bobSpending)
            }
            #expect(refused?.kind == .conflict)
            #expect(refused?.message.hasPrefix("This account has drinks already") == true)
        }
        // ada's own data is untouched by restoring a copy of it beside her.
        #expect(try await Picture(ada, adaSpending) == original)
    }

    @Test("A2: a restore that stops halfway has restored the settings, profile and goals already; merging the backup then finishes it whole")
    func stoppedHalfway() async throws {
        let store = try SQLiteStore.inMemory()
        let (ada, adaSpending) = try await Self.generatedPerson(in: store)
        let data = try await Self.backup(ada, adaSpending)
        let original = try await Picture(ada, adaSpending)
        // The same backup with a removal that takes its last day below zero: that day's batch is
        // refused once the batches before it are in, as a restore killed there would stop.
        var document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var entries = try #require(document["entries"] as? [[String: Any]])
        var removal = try #require(entries.last)
        for key in ["kindID", "kind", "factor", "note", "source"] { removal[key] = nil }
        removal["type"] = "removal"
        removal["id"] = UUID().uuidString
        removal["volumeMl"] = 5000
        entries.append(removal)
        document["entries"] = entries
        let broken = try JSONSerialization.data(withJSONObject: document)

        let bob = try await CSV.person("bob", zone: "Asia/Tokyo", in: store)
        let bobSpending = Self.spending(bob)
        await #expect(throws: TallyError.self) {
            try await PersonBackup.read(broken).restore(merge: false, hydration: bob, spending: bobSpending, batchSize: 100)
        }
        let halfway = try await Picture(bob, bobSpending)
        #expect(halfway.entries > 0 && halfway.entries < original.entries, "\(halfway.entries) of \(original.entries)")
        #expect(halfway.settings == original.settings && halfway.profile == original.profile && halfway.goals == original.goals)
        #expect(halfway.bottle == original.bottle && halfway.reminders == original.reminders)

        let finished = try await PersonBackup.read(data).restore(merge: true, hydration: bob, spending: bobSpending, batchSize: 100)
        #expect(finished.drinksAdded + finished.removalsAdded == original.entries - halfway.entries)
        #expect(try await Picture(bob, bobSpending) == original)
    }

    /// The backup of a person whose ledger Home (Ada, Sam) has a monthly rent of 900.00 on the
    /// 1st, set up on 1 June 2026, when its first occurrence was recorded.
    static func backupWithRent() async throws -> Data {
        let ada = try await CSV.person("ada")
        let spending = Self.spending(ada)
        let home = try await spending.createLedger(name: "Home", currency: "EUR", memberNames: ["Ada", "Sam"]).ledger.id
        _ = try await spending.addRecurringExpense(to: home, .init(amount: .text("900"), description: "Rent", repeat: RepeatBody(.monthly(day: 1))))
        return try await Self.backup(ada, spending)
    }

    @Test("A2: a recurring expense restored later records what fell due since, once, never an occurrence the backup holds, and a year at most")
    func recurringRestoredLater() async throws {
        let text = String(decoding: try await Self.backupWithRent(), as: UTF8.self)
        #expect(text.contains(#""nextDate":"2026-07-01""#), "the 1 June rent is recorded and in the backup")
        let variants = [
            ("as written", text),
            // An occurrence recorded between the backup's two reads: in the entries, not yet past in the rule.
            ("read before its occurrence", text.replacingOccurrences(of: #""nextDate":"2026-07-01""#, with: #""nextDate":"2026-06-01""#)),
            ("next due long ago", text.replacingOccurrences(of: #""nextDate":"2026-07-01""#, with: #""nextDate":"2020-07-01""#)),
        ]
        for (name, backup) in variants {
            // act: restored on 15 August
            let bob = try await CSV.person("bob", now: CSV.instant("2026-08-15T10:00:00Z"))
            let bobSpending = Self.spending(bob)
            let report = try await PersonBackup.read(Data(backup.utf8)).restore(merge: false, hydration: bob, spending: bobSpending)
            // check: 1 June from the backup, 1 July and 1 August recorded by the restore
            #expect(report.recurringExpensesAdded == 1, "\(name)")
            let ledger = try #require(try await bobSpending.ledgers().first).ledger.id
            let rent = try await bobSpending.entries(in: ledger, .all).filter { $0.description == "Rent" }.map(\.date.description)
            #expect(rent.sorted() == ["2026-06-01", "2026-07-01", "2026-08-01"], "\(name)")
            let restored = try #require(try await bobSpending.recurringExpenses(in: ledger).first)
            #expect(restored.nextDate == CSV.day("2026-09-01") && restored.status == .active, "\(name)")
            let activity = try await bobSpending.activity(in: ledger).map(\.text)
            #expect(activity.contains { $0.hasPrefix("Restored the recurring expense Rent, 900.00 EUR, paid by Ada") }, "\(activity)")

            let again = try await PersonBackup.read(Data(backup.utf8)).restore(merge: true, hydration: bob, spending: bobSpending)
            #expect(again.recurringExpensesAdded == 0 && again.ledgerEntriesAdded == 0, "\(name)")
            #expect(try await bobSpending.recurringExpenses(in: ledger).count == 1)
        }
    }

    @Test("A2: a ledger export from before recurring expenses were part of it restores, with none; a broken one is refused before anything is written")
    func recurringOldAndBroken() async throws {
        let data = try await Self.backupWithRent()
        var document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var ledgers = try #require(document["ledgers"] as? [[String: Any]])
        ledgers[0]["recurring"] = nil
        document["ledgers"] = ledgers
        let old = try JSONSerialization.data(withJSONObject: document)
        let bob = try await CSV.person("bob")
        let report = try await PersonBackup.read(old).restore(merge: false, hydration: bob, spending: Self.spending(bob))
        #expect(report.recurringExpensesAdded == 0 && report.ledgers == ["Home"] && report.ledgerEntriesAdded == 1)

        let breaks: [(String, Any)] = [("repeat", ["every": "year", "month": 2, "day": 30]), ("timeZone", "Mars/Olympus")]
        for (field, value) in breaks {
            var ledgers = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])["ledgers"] as? [[String: Any]] ?? []
            var recurring = try #require(ledgers[0]["recurring"] as? [[String: Any]])
            recurring[0][field] = value
            ledgers[0]["recurring"] = recurring
            document["ledgers"] = ledgers
            let kim = try await CSV.person("kim")
            let error = await #expect(throws: TallyError.self) {
                try await PersonBackup.read(try JSONSerialization.data(withJSONObject: document))
                    .restore(merge: false, hydration: kim, spending: Self.spending(kim))
            }
            #expect(error?.message.hasPrefix("The backup's ledger \"Home\" cannot be restored: recurring expense ") == true, "\(String(describing: error))")
            #expect(try await Self.spending(kim).ledgers().isEmpty)
        }
    }

    @Test("A2: a backup spells a drink's kind kindID, as the API does; one of version 1, which spelled it kindId, restores the same")
    func versionOneSpelling() async throws {
        let store = try SQLiteStore.inMemory()
        let ada = try await CSV.person("ada", in: store)
        try await ada.addDrinkKind(name: "Kvass", factor: 0.9)
        _ = try await ada.logDrink(.init(volumeMl: 300, kindName: "Kvass", at: CSV.instant("2026-05-20T08:00:00Z")))
        let text = String(decoding: try await Self.backup(ada, Self.spending(ada)), as: UTF8.self)
        #expect(text.contains("\"kindID\":\"") && !text.contains("kindId") && text.contains("\"version\":2"))

        let old = text.replacingOccurrences(of: "\"kindID\"", with: "\"kindId\"").replacingOccurrences(of: "\"version\":2", with: "\"version\":1")
        let bob = try await CSV.person("bob", in: store)
        let report = try await PersonBackup.read(Data(old.utf8)).restore(merge: false, hydration: bob, spending: Self.spending(bob))
        #expect(report.drinksAdded == 1 && report.newKinds == ["Kvass"])
        let drinks = try await bob.store.entries(on: CSV.day("2026-05-20"), of: bob.user)
        guard case .intake(let kvass)? = drinks.first else { Issue.record("no drink: \(drinks)"); return }
        #expect(drinks.count == 1 && kvass.kindName == "Kvass" && kvass.volumeMl == 300)
    }

    @Test("A2: a merge adds the backup's drinks, kinds and ledger entries to what the account has, and keeps its settings")
    func merge() async throws {
        let store = try SQLiteStore.inMemory()
        let ada = try await CSV.person("ada", in: store)
        try await ada.addDrinkKind(name: "Kvass", factor: 0.9)
        _ = try await ada.logDrink(.init(volumeMl: 300, kindName: "Kvass", at: CSV.instant("2026-05-20T08:00:00Z")))
        let data = try await Self.backup(ada, Self.spending(ada))

        let bob = try await CSV.person("bob", zone: "Asia/Tokyo", in: store)
        _ = try await bob.logDrink(.init(volumeMl: 250, at: CSV.instant("2026-05-20T01:00:00Z")))
        let report = try await PersonBackup.read(data).restore(merge: true, hydration: bob, spending: Self.spending(bob))
        #expect(report.drinksAdded == 1 && report.newKinds == ["Kvass"] && !report.settingsRestored)
        #expect(try await bob.settings().timeZone == "Asia/Tokyo")
        #expect(try await bob.store.dailyTotals(of: bob.user, from: nil, through: nil) == [CSV.day("2026-05-20"): 520])
    }

    @Test("A2: a file that is not a backup, one cut short, one of another format, and one of a newer version are refused by name; nothing changes")
    func refused() async throws {
        let ada = try await CSV.person("ada")
        let data = try await Self.backup(ada, Self.spending(ada))
        let text = String(decoding: data, as: UTF8.self)
        let cases: [(Data, String)] = [
            (Data("date,time,amount\n".utf8), "This is not a Tally backup: it is not a JSON object (a file cut short, or another kind of file)."),
            (data.prefix(data.count / 2), "This is not a Tally backup: it is not a JSON object (a file cut short, or another kind of file)."),
            (Data(text.replacingOccurrences(of: "\"tally-person-backup\"", with: "\"something-else\"").utf8),
             "This is not a Tally backup: its \"format\" is not \"tally-person-backup\". Choose the file that Tally's backup wrote."),
            (Data(text.replacingOccurrences(of: "\"version\":2", with: "\"version\":7").utf8),
             "This backup is of version 7; this Tally reads version 2 and older. Update Tally to restore it."),
        ]
        let bob = try await CSV.person("bob")
        for (file, message) in cases {
            await #expect(throws: TallyError.invalid(.verbatim(message))) {
                try await PersonBackup.read(file).restore(merge: false, hydration: bob, spending: Self.spending(bob))
            }
        }
        // A backup whose parts break the rules is refused before anything is written.
        let badBottle = Data(text.replacingOccurrences(of: "\"capacityMl\":1000", with: "\"capacityMl\":-5").utf8)
        await #expect(throws: TallyError.self) {
            try await PersonBackup.read(badBottle).restore(merge: false, hydration: bob, spending: Self.spending(bob))
        }
        #expect(try await bob.store.dailyTotals(of: bob.user, from: nil, through: nil).isEmpty)
        #expect(try await bob.bottle() == .standard)
    }

    @Test("A2: a backup merged back into the account it was made of adds nothing: no drink, no ledger entry twice")
    func mergeIntoItsOwnAccount() async throws {
        let store = try SQLiteStore.inMemory()
        let (ada, spending) = try await Self.generatedPerson(in: store)
        let before = try await Picture(ada, spending)
        let report = try await PersonBackup.read(try await Self.backup(ada, spending)).restore(merge: true, hydration: ada, spending: spending)
        #expect(report.drinksAdded + report.removalsAdded + report.ledgerEntriesAdded + report.sleepRecordsAdded + report.recurringExpensesAdded == 0,
                "\(report)")
        #expect(try await Picture(ada, spending) == before)
    }

    @Test("A2: a backup whose ledger breaks a rule (an amount with three decimals in EUR) is refused before anything is written")
    func badLedgerRefusedFirst() async throws {
        let ada = try await CSV.person("ada")
        _ = try await ada.logDrink(.init(volumeMl: 250, at: CSV.instant("2026-05-20T08:00:00Z")))
        let home = try await Self.spending(ada).createLedger(name: "Home", currency: "EUR", memberNames: ["Ada", "Sam"]).ledger.id
        _ = try await Self.spending(ada).addExpense(to: home, .init(amount: .text("12.50"), description: "Bread"))
        let text = String(decoding: try await Self.backup(ada, Self.spending(ada)), as: UTF8.self)
        #expect(text.contains("\"amount\":\"12.50\""))
        let broken = Data(text.replacingOccurrences(of: "\"amount\":\"12.50\"", with: "\"amount\":\"12.505\"").utf8)
        let bob = try await CSV.person("bob")
        let error = await #expect(throws: TallyError.self) {
            try await PersonBackup.read(broken).restore(merge: false, hydration: bob, spending: Self.spending(bob))
        }
        #expect(error?.message.hasPrefix("The backup's ledger \"Home\" cannot be restored: entry ") == true, "\(String(describing: error))")
        #expect(try await bob.store.dailyTotals(of: bob.user, from: nil, through: nil).isEmpty)
        #expect(try await Self.spending(bob).ledgers().isEmpty)
        #expect(try await bob.drinkKinds().allSatisfy(\.isBuiltIn))
    }

    @Test("A2: a retired kind and an active one of the same name stay two kinds; a drink whose kind the backup's list lacks keeps its kind's name")
    func kindsOfOneName() async throws {
        let ada = try await CSV.person("ada")
        try await ada.addDrinkKind(name: "Smoothie", factor: 0.8)
        _ = try await ada.logDrink(.init(volumeMl: 200, kindName: "Smoothie", at: CSV.instant("2026-05-19T08:00:00Z")))
        try await ada.retireDrinkKind("Smoothie")
        try await ada.addDrinkKind(name: "Smoothie", factor: 0.9)
        _ = try await ada.logDrink(.init(volumeMl: 100, kindName: "Smoothie", at: CSV.instant("2026-05-20T08:00:00Z")))
        var backup = try PersonBackup.read(try await Self.backup(ada, Self.spending(ada)))
        // A kind added while the backup was being written: its drink is there, the kind is not.
        try await ada.addDrinkKind(name: "Kvass", factor: 0.7)
        let kvass = try await ada.logDrink(.init(volumeMl: 300, kindName: "Kvass", at: CSV.instant("2026-05-21T08:00:00Z"))).intake
        backup.entries.append(PersonBackup.Entry(.intake(kvass)))

        let bob = try await CSV.person("bob")
        _ = try await backup.restore(merge: false, hydration: bob, spending: Self.spending(bob))
        let kinds = try await bob.drinkKinds().filter { !$0.isBuiltIn }.map { "\($0.name) \($0.factor) \($0.isRetired)" }.sorted()
        #expect(kinds == ["Kvass 0.7 false", "Smoothie 0.8 true", "Smoothie 0.9 false"])
        #expect(try await bob.store.dailyTotals(of: bob.user, from: nil, through: nil)
                == [CSV.day("2026-05-19"): 160, CSV.day("2026-05-20"): 90, CSV.day("2026-05-21"): 210])
    }
}
