import Foundation
import GRDB
import TallyCore
import TallyRepositories

extension SQLiteStore: EntryRepository {
    public func addIntake(_ intake: Intake, of user: UUID) async throws -> (intake: Intake, created: Bool) {
        try await write { db in
            if let existing = try Self.existingEntry(intake.id, of: user, db) {
                guard case .intake(let stored) = existing else { throw StoreRefusal.idTaken(intake.id) }
                return (stored, false)
            }
            guard let kind = try DrinkKindRecord.fetchOne(db, key: intake.kindID), kind.userId == user else {
                throw StoreRefusal.noSuchKind
            }
            try IntakeRecord(intake, userId: user).insert(into: db)
            return (try Self.intake(intake.id, db)!, true)
        }
    }

    public func logIntake(of user: UUID, _ make: @escaping @Sendable (HydrationSettings, [DrinkKind]) throws -> Intake)
        async throws -> LoggedIntake {
        try await write { db in
            let settings = try Self.settings(user, db)
            let kinds = try Self.drinkKinds(user, db)
            let intake = try make(settings, kinds)
            let stored: Intake
            let created: Bool
            if let existing = try Self.existingEntry(intake.id, of: user, db) {
                guard case .intake(let found) = existing else { throw StoreRefusal.idTaken(intake.id) }
                (stored, created) = (found, false)
            } else {
                // The person's kinds were read in this transaction: no need to read the one again.
                guard kinds.contains(where: { $0.id == intake.kindID }) else { throw StoreRefusal.noSuchKind }
                try IntakeRecord(intake, userId: user).insert(into: db)
                (stored, created) = (try Self.intake(intake.id, db)!, true)
            }
            let day = DayProgress(date: stored.day, totalMl: try Self.total(of: stored.day, user, db),
                                  goal: try Self.goalHistory(user, db).goal(on: stored.day))
            return LoggedIntake(intake: stored, created: created, day: day, unit: settings.unit)
        }
    }

    public func addIntakes(_ intakes: [Intake], of user: UUID) async throws -> Int {
        try await write { db in try Self.insertIntakes(intakes, of: user, db) }
    }

    /// Inserts the drinks whose ids are new; returns how many there were.
    static func insertIntakes(_ intakes: [Intake], of user: UUID, _ db: Database) throws -> Int {
        let kinds = Set(try UUID.fetchAll(db, sql: "SELECT id FROM drinkKind WHERE userId = ?", arguments: [user]))
        var added = 0
        for intake in intakes {
            if try existingEntry(intake.id, of: user, db) != nil { continue }
            guard kinds.contains(intake.kindID) else { throw StoreRefusal.noSuchKind }
            try IntakeRecord(intake, userId: user).insert(into: db)
            added += 1
        }
        return added
    }

    public func addRemoval(of user: UUID, _ make: @escaping @Sendable (HydrationSettings) throws -> Removal,
                           check: @escaping @Sendable (Removal, HydrationSettings, Double) throws -> Void) async throws -> (removal: Removal, created: Bool) {
        try await write { db in
            let settings = try Self.settings(user, db)
            let removal = try make(settings)
            if let existing = try Self.existingEntry(removal.id, of: user, db) {
                guard case .removal(let stored) = existing else { throw StoreRefusal.idTaken(removal.id) }
                return (stored, false)
            }
            try check(removal, settings, try Self.total(of: removal.day, user, db))
            try RemovalRecord(removal, userId: user).insert(db)
            return (removal, true)
        }
    }

    public func updateIntake(id: UUID, of user: UUID,
                             edit: @escaping @Sendable (Intake, Double, HydrationSettings, [DrinkKind]) throws -> Intake) async throws -> Intake {
        try await write { db in
            guard case .intake(let current)? = try Self.entry(id, of: user, db) else {
                throw StoreRefusal.noDrink(id)
            }
            var edited = try edit(current, try Self.total(of: current.day, user, db), try Self.settings(user, db), try Self.drinkKinds(user, db))
            edited.id = current.id
            guard let kind = try DrinkKindRecord.fetchOne(db, key: edited.kindID), kind.userId == user else {
                throw StoreRefusal.noSuchKind
            }
            try IntakeRecord(edited, userId: user).update(db)
            return try Self.intake(id, db)!
        }
    }

    public func deleteEntry(id: UUID, of user: UUID,
                            check: @escaping @Sendable (DayEntry, Double, HydrationSettings) throws -> Void) async throws -> DayEntry {
        try await write { db in
            guard let entry = try Self.entry(id, of: user, db) else {
                throw StoreRefusal.noEntry(id)
            }
            let settings = try Self.settings(user, db)
            switch entry {
            case .intake(let intake):
                try check(entry, try Self.total(of: intake.day, user, db), settings)
                try IntakeRecord.deleteOne(db, key: id)
            case .removal(let removal):
                try check(entry, try Self.total(of: removal.day, user, db), settings)
                try RemovalRecord.deleteOne(db, key: id)
            }
            return entry
        }
    }

    public func entry(id: UUID, of user: UUID) async throws -> DayEntry? {
        try await read { db in try Self.entry(id, of: user, db) }
    }

    public func entryIDs(startingWith prefix: String, of user: UUID, limit: Int) async throws -> [UUID] {
        guard let range = IDPrefix(prefix) else { return [] }
        return try await read { db in
            // `+userId`: the key range is the index to search, not all of the person's drinks.
            try UUID.fetchAll(db, sql: """
                SELECT id FROM intake WHERE id BETWEEN :lowest AND :highest AND +userId = :user
                UNION ALL
                SELECT id FROM removal WHERE id BETWEEN :lowest AND :highest AND +userId = :user
                LIMIT :limit
                """, arguments: ["user": user, "lowest": range.lowest, "highest": range.highest, "limit": limit])
        }
    }

    public func entries(on day: LocalDate, of user: UUID) async throws -> [DayEntry] {
        try await read { db in try Self.entries(on: day, of: user, db) }
    }

    public func entries(from: LocalDate, through: LocalDate, of user: UUID) async throws -> [DayEntry] {
        try await read { db in
            let intakes = try IntakeRow.fetchAll(db, sql: IntakeRow.select + " WHERE intake.userId = ? AND intake.day BETWEEN ? AND ?",
                                                 arguments: [user, from.number, through.number])
            let removals = try RemovalRecord.fetchAll(db, sql: "SELECT * FROM removal WHERE userId = ? AND day BETWEEN ? AND ?",
                                                      arguments: [user, from.number, through.number])
            return (intakes.map { DayEntry.intake($0.value) } + removals.map { DayEntry.removal($0.removal) })
                .sorted { $0.day != $1.day ? $0.day < $1.day : DayEntry.happenedBefore($0, $1) }
        }
    }

    public func entryIDsOfOthers(_ ids: [UUID], user: UUID) async throws -> Set<UUID> {
        try await read { db in
            var others = Set<UUID>()
            for start in stride(from: 0, to: ids.count, by: 400) {
                let chunk = Array(ids[start..<min(start + 400, ids.count)])
                let marks = databaseQuestionMarks(count: chunk.count)
                let arguments = StatementArguments(chunk) + [user] + StatementArguments(chunk) + [user]
                others.formUnion(try UUID.fetchAll(db, sql: """
                    SELECT id FROM intake WHERE id IN (\(marks)) AND userId <> ?
                    UNION ALL SELECT id FROM removal WHERE id IN (\(marks)) AND userId <> ?
                    """, arguments: arguments))
            }
            return others
        }
    }

    public func importEntries(of user: UUID, _ make: @escaping @Sendable (HydrationSettings, [DrinkKind]) throws -> EntryImport,
                              check: @escaping @Sendable (LocalDate, Double, HydrationSettings) throws -> Void) async throws -> EntryImport.Added {
        try await write { db in
            let settings = try Self.settings(user, db)
            let batch = try make(settings, try Self.drinkKinds(user, db))
            for kind in batch.newKinds {
                try Self.saveDrinkKind(kind, of: user, db)
            }
            let kinds = Set(try UUID.fetchAll(db, sql: "SELECT id FROM drinkKind WHERE userId = ?", arguments: [user]))
            var added = EntryImport.Added(newKinds: batch.newKinds.map(\.name))
            var days = Set<LocalDate>()
            for entry in batch.distinctEntries where try Self.existingEntry(entry.id, of: user, db) == nil {
                switch entry {
                case .intake(let intake):
                    guard kinds.contains(intake.kindID) else { throw StoreRefusal.noSuchKind }
                    try IntakeRecord(intake, userId: user).insert(into: db)
                    added.drinks += 1
                case .removal(let removal):
                    try RemovalRecord(removal, userId: user).insert(db)
                    added.removals += 1
                }
                days.insert(entry.day)
            }
            for day in days.sorted() {
                try check(day, try Self.total(of: day, user, db), settings)
            }
            return added
        }
    }

    public func daySnapshot(of user: UUID, day: @escaping @Sendable (HydrationSettings) -> LocalDate) async throws -> DaySnapshot {
        try await read { db in
            let settings = try Self.settings(user, db)
            let date = day(settings)
            return DaySnapshot(settings: settings, day: date, entries: try Self.entries(on: date, of: user, db),
                               goals: try Self.goalHistory(user, db))
        }
    }

    /// Kept beside the day's total by the triggers of migration 17.
    public func dayRevision(of user: UUID, on day: LocalDate) async throws -> Int64 {
        try await read { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT revision FROM dayTotal WHERE userId = ? AND day = ?"),
                               arguments: [user, day.number]) ?? 0
        }
    }

    // The queries every page and API call makes use cached statements: prepared once per
    // connection instead of once per request.
    static func entries(on day: LocalDate, of user: UUID, _ db: Database) throws -> [DayEntry] {
        let intakes = try IntakeRow.fetchAll(
            db.cachedStatement(sql: IntakeRow.select + " WHERE intake.userId = ? AND intake.day = ?"),
            arguments: [user, day.number])
        let removals = try RemovalRecord.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM removal WHERE userId = ? AND day = ?"), arguments: [user, day.number])
        return (intakes.map { DayEntry.intake($0.value) } + removals.map { DayEntry.removal($0.removal) })
            .sorted(by: DayEntry.happenedBefore)
    }

    public func dailyTotals(of user: UUID, from: LocalDate?, through: LocalDate?) async throws -> [LocalDate: Double] {
        let arguments: StatementArguments = [user, from?.number ?? 0, through?.number ?? 99_999_999]
        return try await read { db in
            var totals: [LocalDate: Double] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT day, totalMl FROM dayTotal WHERE userId = ? AND day BETWEEN ? AND ? AND entryCount > 0
                """, arguments: arguments)
            while let row = try rows.next() {
                totals[LocalDate(number: row[0])] = row[1]
            }
            return totals
        }
    }

    // MARK: - Inside a transaction

    static func total(of day: LocalDate, _ user: UUID, _ db: Database) throws -> Double {
        try Double.fetchOne(db.cachedStatement(sql: "SELECT totalMl FROM dayTotal WHERE userId = ? AND day = ?"),
                            arguments: [user, day.number]) ?? 0
    }

    static func intake(_ id: UUID, _ db: Database) throws -> Intake? {
        try IntakeRow.fetchOne(db.cachedStatement(sql: IntakeRow.select + " WHERE intake.id = ?"), arguments: [id])?.value
    }

    static func entry(_ id: UUID, of user: UUID, _ db: Database) throws -> DayEntry? {
        if let row = try IntakeRow.fetchOne(db.cachedStatement(sql: IntakeRow.select + " WHERE intake.id = ? AND intake.userId = ?"),
                                            arguments: [id, user]) {
            return .intake(row.value)
        }
        return try RemovalRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM removal WHERE id = ? AND userId = ?"),
                                          arguments: [id, user]).map { .removal($0.removal) }
    }

    /// The user's entry with `id`; an id that another user's entry has is a conflict, never a
    /// way to see or change their data.
    static func existingEntry(_ id: UUID, of user: UUID, _ db: Database) throws -> DayEntry? {
        // A new id, the usual case, is answered by this one statement.
        let anywhere = try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM intake WHERE id = :id) OR EXISTS (SELECT 1 FROM removal WHERE id = :id)
            """), arguments: ["id": id]) ?? false
        guard anywhere else { return nil }
        if let entry = try entry(id, of: user, db) { return entry }
        throw StoreRefusal.idTaken(id)
    }

}
