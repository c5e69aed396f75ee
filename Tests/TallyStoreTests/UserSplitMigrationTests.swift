import Foundation
import GRDB
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
@testable import TallyStore
import Testing

/// Migration 14 on a database that Tally made before it (Fixtures/README.md): every part of the
/// person's row arrives in its own table, and nothing else moves.
@Suite("Splitting the user row (migration 14)")
struct UserSplitMigrationTests {
    /// The SHA-256 of the calendar secret the fixture's server handed out.
    static let calendarSecretHash = Data(hex: "7791710d5e3b59e95d53907a760d4797a0dddd2b0db2864f86879698e90e0ea3")

    /// A copy of the fixture in a folder of its own: the test never writes the original.
    static func fixtureCopy() throws -> String {
        let fixture = try #require(Bundle.module.url(forResource: "Fixtures/before-user-split", withExtension: "sqlite"))
        let path = temporaryDatabasePath()
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
        return path
    }

    /// The old rows as they were, read before the store opens (and migrates) the file.
    struct Before {
        var users: [String: Row] = [:]
        var intakes: [UUID: Row] = [:]
        var removals: [UUID: Row] = [:]
        var dayTotals: [UUID: [LocalDate: Double]] = [:]
        var goals: [Row] = []
        var migrations: [String] = []

        init(_ path: String) throws {
            let queue = try DatabaseQueue(path: path)
            try queue.read { db in
                migrations = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
                for row in try Row.fetchAll(db, sql: "SELECT * FROM user") { users[row["name"]] = row }
                for row in try Row.fetchAll(db, sql: "SELECT * FROM intake") { intakes[row["id"]] = row }
                for row in try Row.fetchAll(db, sql: "SELECT * FROM removal") { removals[row["id"]] = row }
                for row in try Row.fetchAll(db, sql: "SELECT userId, day, totalMl FROM dayTotal") {
                    dayTotals[row["userId"], default: [:]][LocalDate(number: row["day"])] = row["totalMl"]
                }
                goals = try Row.fetchAll(db, sql: "SELECT * FROM goal ORDER BY startDay")
            }
            try queue.close()
        }
    }

    @Test("A database made before the split keeps every value of every user, and everything else")
    func migratesFixture() async throws {
        // setup
        let path = try Self.fixtureCopy()
        let before = try Before(path)
        #expect(before.migrations.last == "13 ledger totals", "the fixture stands for schema 13")
        let old = try #require(before.users["ada"]), oldBob = try #require(before.users["bob"]),
            oldLocal = try #require(before.users["local"])
        let adaID: UUID = old["id"], bobID: UUID = oldBob["id"], localID: UUID = oldLocal["id"]

        // act
        let store = try SQLiteStore.open(path: path)

        // check: the accounts
        let adaCreatedAt: Date = old["createdAt"], bobCreatedAt: Date = oldBob["createdAt"], localCreatedAt: Date = oldLocal["createdAt"]
        let ada = User(id: adaID, name: "ada", createdAt: adaCreatedAt)
        #expect(try await store.user(id: adaID) == ada)
        #expect(try await store.user(named: "ADA") == ada, "names still match without case")
        let adaAccount = try #require(try await store.account(named: "ada"))
        let adaHash: String = old["passwordHash"]
        #expect(adaAccount == Account(user: ada, passwordHash: adaHash, isAdmin: true, disabledAt: nil))
        let bobAccount = try #require(try await store.account(named: "bob"))
        #expect(bobAccount.user == User(id: bobID, name: "bob", createdAt: bobCreatedAt))
        let bobHash: String = oldBob["passwordHash"]
        #expect(bobAccount.passwordHash == bobHash && !bobAccount.isAdmin)
        let bobDisabledAt: Date? = oldBob["disabledAt"]
        #expect(bobAccount.disabledAt != nil && bobAccount.disabledAt == bobDisabledAt)
        #expect(try await store.accounts().map(\.user.name) == ["ada", "bob"], "local has no password")
        #expect(try await store.account(named: "local") == nil)
        #expect(try await store.user(named: "local") == User(id: localID, name: "local", createdAt: localCreatedAt))
        #expect(try await store.apiTokens(of: adaID).map(\.name) == ["fixture"])

        // check: the settings
        let ounces = [118.294, 236.588, 354.882, 473.176]
        #expect(try await store.settings(of: adaID)
                == HydrationSettings(unit: .oz, timeZone: "Asia/Tokyo", customPresets: try Presets(amountsMl: ounces, unit: .ml)))
        #expect(try await store.settings(of: bobID) == HydrationSettings(unit: .ml, timeZone: "America/New_York"))
        let localZone: String = oldLocal["timeZone"]
        #expect(try await store.settings(of: localID) == HydrationSettings(unit: .ml, timeZone: localZone))

        // check: the profile
        #expect(try await store.profile(of: adaID) == (try Profile(age: 41, weightKg: 72.5, activity: .active)))
        #expect(try await store.profile(of: bobID) == nil)

        // check: the bottle
        #expect(try await store.bottle(of: adaID) == Bottle(capacityMl: 709.764, levelMl: 532.323, sipMl: 59.147))
        #expect(try await store.bottle(of: bobID) == .standard)

        // check: the reminders and the calendar feed
        let reminders = ReminderSettings(enabled: true, window: WakeWindow(wake: TimeOfDay("06:30")!, sleep: TimeOfDay("22:15")!),
                                         frequency: 6, smartThresholdHours: 3, useSleepRecords: true)
        #expect(try await store.reminderSettings(of: adaID) == reminders)
        #expect(try await store.reminderSettings(of: bobID) == .standard)
        let owner = try #require(try await store.calendarOwner(secretHash: Self.calendarSecretHash))
        #expect(owner.user == ada)
        let adaSettings = try await store.settings(of: adaID)
        #expect(owner.settings == adaSettings)
        #expect(owner.reminders == reminders)
        #expect(try await store.calendarOwner(secretHash: Data(repeating: 0, count: 32)) == nil)

        // check: the drinks, removals, kinds and goals did not move
        var after: [UUID: DayEntry] = [:]
        for user in [adaID, bobID, localID] {
            #expect(try await store.dailyTotals(of: user, from: nil, through: nil) == before.dayTotals[user] ?? [:])
            for date in before.dayTotals[user, default: [:]].keys {
                for entry in try await store.entries(on: date, of: user) { after[entry.id] = entry }
            }
        }
        #expect(Set(after.keys) == Set(before.intakes.keys).union(before.removals.keys))
        for (id, row) in before.intakes {
            guard case .intake(let intake)? = after[id] else { Issue.record("drink \(id) is gone"); continue }
            let at: Date = row["at"], dayNumber: Int = row["day"], volume: Double = row["volumeMl"]
            let effective: Double = row["effectiveMl"], kind: UUID = row["kindId"], note: String? = row["note"]
            #expect(intake.at == at && intake.day.number == dayNumber && intake.volumeMl == volume)
            #expect(intake.effectiveMl == effective && intake.kindID == kind && intake.note == note)
        }
        for (id, row) in before.removals {
            guard case .removal(let removal)? = after[id] else { Issue.record("removal \(id) is gone"); continue }
            let at: Date = row["at"], volume: Double = row["volumeMl"]
            #expect(removal.at == at && removal.volumeMl == volume)
        }
        let kinds = try await store.drinkKinds(of: adaID)
        #expect(kinds.count == 8 && kinds.contains { $0.name == "broth" && $0.factor == 0.9 })
        let goals = try await store.goalHistory(of: adaID)
        let oldGoals = before.goals.filter { ($0["userId"] as UUID) == adaID }
        let target: Double? = oldGoals.last.flatMap { $0["targetMl"] as Double? }
        #expect(goals.periods.count == oldGoals.count)
        #expect(target != nil && goals.goal(on: day("2025-06-15")) == Goal(mode: .custom, targetMl: target))

        // check: the ledger did not move
        let spending = SpendingService(store: store, clock: FixedClock(instant("2025-06-16T10:00:00Z")), user: adaID)
        let ledger = try #require(try await spending.ledgers().first)
        #expect(ledger.ledger.name == "Flat" && ledger.ledger.currency.code == "EUR")
        #expect(ledger.members.map(\.name) == ["Ada", "Sam"] && ledger.members.map(\.userID) == [adaID, nil])
        let entries = try await store.entries(in: ledger.ledger.id, of: adaID, .current, limit: nil, after: nil)
        #expect(entries.map(\.amount.minorUnits).sorted() == [1000, 4250])
        let summary = try await spending.summary(of: ledger.ledger.id)
        let recomputed = try LedgerBalances(currency: ledger.ledger.currency, members: ledger.members.map(\.id), entries: entries)
        #expect(summary.plan == recomputed.plan && summary.plan.count == 1)
        #expect(summary.sentences == ["Sam owes Ada 11.25 EUR."])

        // check: the schema
        let (columns, tables, indexes, problems) = try await store.writer.read { db in
            (try db.columns(in: "user").map(\.name),
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'user%' ORDER BY name"),
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'user' AND sql IS NOT NULL"),
             try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count + (try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"] ? 0 : 1))
        }
        // The old columns are gone; the language (migration 21) came after.
        #expect(columns == ["id", "name", "createdAt", "passwordHash", "isAdmin", "disabledAt", "language"], "the old columns are gone")
        #expect(tables == ["user", "userBottle", "userCalendar", "userProfile", "userReminders", "userSettings"])
        #expect(indexes.isEmpty, "the calendar secret's index went with its column: \(indexes)")
        #expect(problems == 0)
    }

    @Test("After the migration the store reads and writes every part as a new one does")
    func worksAfterMigration() async throws {
        let path = try Self.fixtureCopy()
        let store = try SQLiteStore.open(path: path)
        let ada = try #require(try await store.user(named: "ada"))
        let bob = try #require(try await store.user(named: "bob"))

        // Who is asking: a session's user, and none for the disabled account.
        let now = Date()
        try await store.createSession(tokenHash: Data([1]), of: ada.id, device: "test", createdAt: now,
                                      expiresAt: now.addingTimeInterval(3600), replacing: nil)
        try await store.createSession(tokenHash: Data([2]), of: bob.id, device: "test", createdAt: now,
                                      expiresAt: now.addingTimeInterval(3600), replacing: nil)
        #expect(try await store.sessionUser(tokenHash: Data([1]), now: now)?.user == ada)
        #expect(try await store.sessionUser(tokenHash: Data([2]), now: now) == nil)

        // A drink is logged with the migrated settings.
        let hydration = HydrationService(store: store, clock: FixedClock(instant("2025-06-15T10:00:00Z")), user: ada.id)
        let logged = try await hydration.logDrink(.init(volumeMl: 100))
        #expect(logged.intake.day == day("2025-06-15"), "on Tokyo's day")

        // Every part changes and reads back.
        try await store.saveSettings(HydrationSettings(unit: .ml, timeZone: "UTC"), of: ada.id)
        #expect(try await store.settings(of: ada.id) == HydrationSettings(unit: .ml, timeZone: "UTC"))
        _ = try await store.saveProfile(nil, of: ada.id) { _, _, _ in }
        #expect(try await store.profile(of: ada.id) == nil)
        try await store.setCalendarSecret(hash: nil, of: ada.id)
        #expect(try await store.calendarOwner(secretHash: UserSplitMigrationTests.calendarSecretHash) == nil)
        try await store.saveReminderSettings(.standard, of: bob.id)
        #expect(try await store.reminderSettings(of: bob.id) == .standard)

        // An expense from before receipts (migration 25) has none, and takes one.
        let ledger = try #require(try await store.ledgers(of: ada.id).first).ledger.id
        let expenses = try await store.entries(in: ledger, of: ada.id, .current, limit: nil, after: nil)
        #expect(expenses.count == 2 && expenses.allSatisfy { $0.receipt == nil })
        let photo = ReceiptFile.photo(1, at: instant("2025-06-16T10:00:00Z"))
        let kept = try await store.keepReceipt(photo, of: expenses[0].id, in: ledger, by: ada.id, at: photo.attachedAt) { entry, _ in
            ActivityNote("Attached a receipt.", entryID: entry.id)
        }
        #expect(kept.receipt == .jpeg)
        #expect(try await store.receipt(of: expenses[0].id, in: ledger, of: ada.id, thumbnail: false) == photo)
    }
}

extension Data {
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self.init(bytes)
    }
}
