import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

extension PostgresStore: EntryRepository {
    public func addIntake(_ intake: Intake, of user: UUID) async throws -> (intake: Intake, created: Bool) {
        try await write(locking: .user(user)) { [self] connection in
            if let existing = try await existingEntry(intake.id, of: user, connection) {
                guard case .intake(let stored) = existing else { throw StoreRefusal.idTaken(intake.id) }
                return (stored, false)
            }
            return (try await insertIntake(intake, of: user, connection), true)
        }
    }

    /// Takes no lock: nothing it reads decides whether it may be written (a drink has no check
    /// on the day's total), so two drinks of one person go in side by side, each seeing the
    /// settings and kinds as they were when it began. Five round trips in all.
    public func logIntake(of user: UUID, _ make: @escaping @Sendable (HydrationSettings, [DrinkKind]) throws -> Intake)
        async throws -> LoggedIntake {
        try await write(locking: nil) { [self] connection in
            let (settings, kinds) = try await settingsAndKinds(user, connection)
            let intake = try make(settings, kinds)
            let stored: Intake
            let created: Bool
            if let inserted = try await insertIfNew(intake, of: user, kinds: kinds, connection) {
                (stored, created) = (inserted, true)
            } else {
                guard case .intake(let found)? = try await existingEntry(intake.id, of: user, connection) else {
                    throw StoreRefusal.idTaken(intake.id)
                }
                (stored, created) = (found, false)
            }
            return LoggedIntake(intake: stored, created: created, day: try await progress(of: stored.day, user, connection),
                                unit: settings.unit)
        }
    }

    public func addIntakes(_ intakes: [Intake], of user: UUID) async throws -> Int {
        try await write(locking: .user(user)) { [self] connection in try await insertIntakes(intakes, of: user, connection) }
    }

    public func addRemoval(of user: UUID, _ make: @escaping @Sendable (HydrationSettings) throws -> Removal,
                           check: @escaping @Sendable (Removal, HydrationSettings, Double) throws -> Void) async throws -> (removal: Removal, created: Bool) {
        try await write(locking: .user(user)) { [self] connection in
            let settings = try await settings(user, connection)
            let removal = try make(settings)
            if let existing = try await existingEntry(removal.id, of: user, connection) {
                guard case .removal(let stored) = existing else { throw StoreRefusal.idTaken(removal.id) }
                return (stored, false)
            }
            try check(removal, settings, try await total(of: removal.day, user, connection))
            try await connection.run("""
                INSERT INTO removal (id, userId, at, day, volumeMl)
                VALUES (\(removal.id), \(user), \(removal.at), \(removal.day), \(removal.volumeMl))
                """, logger: logger)
            return (removal, true)
        }
    }

    public func updateIntake(id: UUID, of user: UUID,
                             edit: @escaping @Sendable (Intake, Double, HydrationSettings, [DrinkKind]) throws -> Intake) async throws -> Intake {
        try await write(locking: .user(user)) { [self] connection in
            guard case .intake(let current)? = try await entry(id, of: user, connection) else {
                throw StoreRefusal.noDrink(id)
            }
            let total = try await total(of: current.day, user, connection)
            var edited = try edit(current, total, try await settings(user, connection), try await drinkKinds(user, connection))
            edited.id = current.id
            try await requireKind(edited.kindID, of: user, connection)
            try await connection.run("""
                UPDATE intake SET at = \(edited.at), day = \(edited.day), volumeMl = \(edited.volumeMl), kindId = \(edited.kindID),
                    factor = \(edited.factor), effectiveMl = \(edited.effectiveMl), note = \(edited.note), source = \(edited.source.rawValue)
                WHERE id = \(id) AND userId = \(user)
                """, logger: logger)
            return try await intake(id, connection)!
        }
    }

    public func deleteEntry(id: UUID, of user: UUID,
                            check: @escaping @Sendable (DayEntry, Double, HydrationSettings) throws -> Void) async throws -> DayEntry {
        try await write(locking: .user(user)) { [self] connection in
            guard let entry = try await entry(id, of: user, connection) else {
                throw StoreRefusal.noEntry(id)
            }
            let settings = try await settings(user, connection)
            try check(entry, try await total(of: entry.day, user, connection), settings)
            switch entry {
            case .intake: try await connection.run("DELETE FROM intake WHERE id = \(id)", logger: logger)
            case .removal: try await connection.run("DELETE FROM removal WHERE id = \(id)", logger: logger)
            }
            return entry
        }
    }

    public func entry(id: UUID, of user: UUID) async throws -> DayEntry? {
        try await read { [self] connection in try await entry(id, of: user, connection) }
    }

    public func entryIDs(startingWith prefix: String, of user: UUID, limit: Int) async throws -> [UUID] {
        guard let range = IDPrefix(prefix) else { return [] }
        // The prefix's range is a range of the primary key.
        let (lowest, highest) = range.ids
        return try await read { [self] connection in
            try await connection.rows("""
                SELECT id FROM intake WHERE id BETWEEN \(lowest) AND \(highest) AND userId = \(user)
                UNION ALL
                SELECT id FROM removal WHERE id BETWEEN \(lowest) AND \(highest) AND userId = \(user)
                LIMIT \(limit)
                """, logger: logger).map { try $0.decode(UUID.self) }
        }
    }

    public func entries(on day: LocalDate, of user: UUID) async throws -> [DayEntry] {
        try await read { [self] connection in try await entries(on: day, of: user, connection) }
    }

    public func entries(from: LocalDate, through: LocalDate, of user: UUID) async throws -> [DayEntry] {
        try await connection { [self] connection in
            try await connection.rows("""
                \(unescaped: Self.intakeSelect) WHERE intake.userId = \(user) AND intake.day BETWEEN \(from) AND \(through)
                UNION ALL
                SELECT id, at, day, volumeMl, NULL, NULL, NULL, NULL, NULL, NULL FROM removal
                WHERE userId = \(user) AND day BETWEEN \(from) AND \(through)
                """, logger: logger).map(DayEntriesStatement.entry)
        }.sorted { $0.day != $1.day ? $0.day < $1.day : DayEntry.happenedBefore($0, $1) }
    }

    public func entryIDsOfOthers(_ ids: [UUID], user: UUID) async throws -> Set<UUID> {
        try await connection { [self] connection in
            Set(try await connection.rows("""
                SELECT id FROM intake WHERE id = ANY(\(ids)) AND userId <> \(user)
                UNION ALL SELECT id FROM removal WHERE id = ANY(\(ids)) AND userId <> \(user)
                """, logger: logger).map { try $0.decode(UUID.self) })
        }
    }

    /// A few statements whatever the file's size: the ids and the days go as arrays, the drinks
    /// as multi-row inserts, the removals through `unnest`.
    public func importEntries(of user: UUID, _ make: @escaping @Sendable (HydrationSettings, [DrinkKind]) throws -> EntryImport,
                              check: @escaping @Sendable (LocalDate, Double, HydrationSettings) throws -> Void) async throws -> EntryImport.Added {
        try await write(locking: .user(user)) { [self] connection in
            let settings = try await settings(user, connection)
            let batch = try make(settings, try await drinkKinds(user, connection))
            for kind in batch.newKinds {
                try await saveDrinkKind(kind, of: user, connection)
            }
            let entries = batch.distinctEntries
            let stored = try await storedIDs(entries.map(\.id), of: user, connection)
            let new = entries.filter { !stored.contains($0.id) }
            let intakes = new.compactMap { if case .intake(let intake) = $0 { intake } else { nil } }
            let removals = new.compactMap { if case .removal(let removal) = $0 { removal } else { nil } }
            let drinks = try await insertIntakes(intakes, of: user, connection)
            try await connection.run("""
                INSERT INTO removal (id, userId, at, day, volumeMl)
                SELECT id, \(user), at, day, volumeMl
                FROM unnest(\(removals.map(\.id)), \(removals.map(\.at)), \(removals.map(\.day)), \(removals.map(\.volumeMl)))
                    AS removal (id, at, day, volumeMl)
                """, logger: logger)
            let days = Array(Set(new.map(\.day))).sorted()
            let totals = Dictionary(uniqueKeysWithValues: try await connection.rows("""
                SELECT day, totalMl FROM dayTotal WHERE userId = \(user) AND day = ANY(\(days))
                """, logger: logger).map { try $0.decode((LocalDate, Double).self) })
            for day in days {
                try check(day, totals[day] ?? 0, settings)
            }
            return EntryImport.Added(drinks: drinks, removals: removals.count, newKinds: batch.newKinds.map(\.name))
        }
    }

    /// Four round trips: the transaction, the settings with the goals, the day's entries.
    public func daySnapshot(of user: UUID, day: @escaping @Sendable (HydrationSettings) -> LocalDate) async throws -> DaySnapshot {
        try await read { [self] connection in
            let (settings, goals) = try await settingsAndGoals(user, connection)
            let date = day(settings)
            return DaySnapshot(settings: settings, day: date, entries: try await entries(on: date, of: user, connection), goals: goals)
        }
    }

    /// Kept beside the day's total by the functions of migration 3.
    public func dayRevision(of user: UUID, on day: LocalDate) async throws -> Int64 {
        try await connection { [self] connection in
            try await connection.row("SELECT revision FROM dayTotal WHERE userId = \(user) AND day = \(day)", logger: logger)?
                .decode(Int64.self) ?? 0
        }
    }

    public func dailyTotals(of user: UUID, from: LocalDate?, through: LocalDate?) async throws -> [LocalDate: Double] {
        try await read { [self] connection in
            var totals: [LocalDate: Double] = [:]
            for row in try await connection.rows("""
                SELECT day, totalMl FROM dayTotal
                WHERE userId = \(user) AND day BETWEEN COALESCE(\(from)::date, '-infinity') AND COALESCE(\(through)::date, 'infinity')
                    AND entryCount > 0
                """, logger: logger) {
                let (day, total) = try row.decode((LocalDate, Double).self)
                totals[day] = total
            }
            return totals
        }
    }
}
