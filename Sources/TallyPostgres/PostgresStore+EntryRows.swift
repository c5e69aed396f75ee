import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

// Drinks and removals inside a transaction: read, found by id, inserted; shared by the entries,
// the bottle and the Health import.

extension PostgresStore {
    /// A drink's columns with its kind's current name, read by `intake(_:)`.
    static let intakeSelect = """
        SELECT intake.id, intake.at, intake.day, intake.volumeMl, intake.kindId, drinkKind.name, intake.factor,
            intake.effectiveMl, intake.note, intake.source
        FROM intake JOIN drinkKind ON drinkKind.id = intake.kindId
        """

    static func intake(_ row: PostgresRow) throws -> Intake {
        let (id, at, day, volumeMl, kindID, kindName, factor, effectiveMl, note, source) =
            try row.decode((UUID, Date, LocalDate, Double, UUID, String, Double, Double, String?, String).self)
        return .stored(id: id, at: at, day: day, volumeMl: volumeMl, kindID: kindID, kindName: kindName,
                       factor: factor, effectiveMl: effectiveMl, note: note, source: source)
    }

    static let removalColumns = "id, at, day, volumeMl"

    static func removal(_ row: PostgresRow) throws -> Removal {
        let (id, at, day, volumeMl) = try row.decode((UUID, Date, LocalDate, Double).self)
        return Removal(id: id, at: at, day: day, volumeMl: volumeMl)
    }

    /// The day's total as the triggers keep it; 0 for a day without entries.
    func total(of day: LocalDate, _ user: UUID, _ connection: PostgresConnection) async throws -> Double {
        try await connection.row("SELECT totalMl FROM dayTotal WHERE userId = \(user) AND day = \(day)", logger: logger)?
            .decode(Double.self) ?? 0
    }

    func intake(_ id: UUID, _ connection: PostgresConnection) async throws -> Intake? {
        try await connection.row("\(unescaped: Self.intakeSelect) WHERE intake.id = \(id)", logger: logger).map(Self.intake)
    }

    func entry(_ id: UUID, of user: UUID, _ connection: PostgresConnection) async throws -> DayEntry? {
        if let row = try await connection.row("\(unescaped: Self.intakeSelect) WHERE intake.id = \(id) AND intake.userId = \(user)",
                                              logger: logger) {
            return .intake(try Self.intake(row))
        }
        return try await connection.row("SELECT \(unescaped: Self.removalColumns) FROM removal WHERE id = \(id) AND userId = \(user)",
                                        logger: logger).map { .removal(try Self.removal($0)) }
    }

    /// A day's drinks and removals, in one statement.
    func entries(on day: LocalDate, of user: UUID, _ connection: PostgresConnection) async throws -> [DayEntry] {
        try await connection.all(DayEntriesStatement(user: user, day: day), logger: logger).sorted(by: DayEntry.happenedBefore)
    }

    /// A day's total and goal after a change, in one statement.
    func progress(of day: LocalDate, _ user: UUID, _ connection: PostgresConnection) async throws -> DayProgress {
        let rows = try await connection.all(ProgressStatement(user: user, day: day), logger: logger)
        return DayProgress(date: day, totalMl: rows.first?.totalMl ?? 0,
                           goal: GoalHistory(periods: rows.compactMap(\.period)).goal(on: day))
    }

    /// Stores a drink of one of `kinds` unless an entry has its id already; returns it as stored,
    /// or nil when the id was taken (then the caller finds whose it is).
    func insertIfNew(_ intake: Intake, of user: UUID, kinds: [DrinkKind], _ connection: PostgresConnection) async throws -> Intake? {
        guard let kind = kinds.first(where: { $0.id == intake.kindID }) else { throw StoreRefusal.noSuchKind }
        return try await connection.row("""
            INSERT INTO intake (id, userId, at, day, volumeMl, kindId, factor, effectiveMl, note, source)
            SELECT \(intake.id), \(user), \(intake.at), \(intake.day), \(intake.volumeMl), \(intake.kindID), \(intake.factor),
                \(intake.effectiveMl), \(intake.note), \(intake.source.rawValue)
            WHERE NOT EXISTS (SELECT 1 FROM removal WHERE id = \(intake.id))
            ON CONFLICT (id) DO NOTHING
            RETURNING id, at, day, volumeMl, kindId, \(kind.name)::text, factor, effectiveMl, note, source
            """, logger: logger).map(Self.intake)
    }

    /// The user's entry with `id`; an id that another user's entry has is a conflict, never a
    /// way to see or change their data.
    func existingEntry(_ id: UUID, of user: UUID, _ connection: PostgresConnection) async throws -> DayEntry? {
        if let entry = try await entry(id, of: user, connection) { return entry }
        if try await connection.row("""
            SELECT 1 FROM intake WHERE id = \(id) UNION ALL SELECT 1 FROM removal WHERE id = \(id)
            """, logger: logger) != nil {
            throw StoreRefusal.idTaken(id)
        }
        return nil
    }

    /// Refuses a drink whose kind is not one of the user's.
    func requireKind(_ id: UUID, of user: UUID, _ connection: PostgresConnection) async throws {
        guard try await connection.row("SELECT 1 FROM drinkKind WHERE id = \(id) AND userId = \(user)", logger: logger) != nil else {
            throw StoreRefusal.noSuchKind
        }
    }

    /// Stores a new drink of one of the user's kinds and reads it back with its kind's name.
    func insertIntake(_ intake: Intake, of user: UUID, _ connection: PostgresConnection) async throws -> Intake {
        try await requireKind(intake.kindID, of: user, connection)
        try await connection.run(Self.insert([intake], of: user), logger: logger)
        return try await self.intake(intake.id, connection)!
    }

    /// Inserts the drinks whose ids are new, several rows a statement; returns how many there
    /// were. An id another user's entry has is a conflict, a kind not the user's is refused.
    func insertIntakes(_ intakes: [Intake], of user: UUID, _ connection: PostgresConnection) async throws -> Int {
        guard !intakes.isEmpty else { return 0 }
        var stored = try await storedIDs(intakes.map(\.id), of: user, connection)
        // The first of each new id, as one by one would have it.
        let new = intakes.filter { stored.insert($0.id).inserted }
        let kinds = Set(try await connection.rows("SELECT id FROM drinkKind WHERE userId = \(user)", logger: logger)
            .map { try $0.decode(UUID.self) })
        guard new.allSatisfy({ kinds.contains($0.kindID) }) else { throw StoreRefusal.noSuchKind }
        for start in stride(from: 0, to: new.count, by: Self.intakesPerInsert) {
            try await connection.run(Self.insert(new[start..<min(start + Self.intakesPerInsert, new.count)], of: user), logger: logger)
        }
        return new.count
    }

    /// Which of `ids` the user's entries have; an id another user's entry has is a conflict.
    func storedIDs(_ ids: [UUID], of user: UUID, _ connection: PostgresConnection) async throws -> Set<UUID> {
        var stored = Set<UUID>()
        for row in try await connection.rows("""
            SELECT id, userId FROM intake WHERE id = ANY(\(ids)) UNION ALL SELECT id, userId FROM removal WHERE id = ANY(\(ids))
            """, logger: logger) {
            let (id, owner) = try row.decode((UUID, UUID).self)
            guard owner == user else { throw StoreRefusal.idTaken(id) }
            stored.insert(id)
        }
        return stored
    }

    /// Ten parameters a drink: well under the 65,535 a statement may have.
    private static let intakesPerInsert = 1000

    /// One `INSERT` of all of `intakes`.
    private static func insert(_ intakes: some Collection<Intake>, of user: UUID) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: intakes.count * 10)
        var rows: [String] = []
        rows.reserveCapacity(intakes.count)
        for intake in intakes {
            let first = bindings.count + 1
            rows.append("(" + (first..<first + 10).map { "$\($0)" }.joined(separator: ", ") + ")")
            bindings.append(intake.id)
            bindings.append(user)
            bindings.append(intake.at)
            bindings.append(intake.day)
            bindings.append(intake.volumeMl)
            bindings.append(intake.kindID)
            bindings.append(intake.factor)
            bindings.append(intake.effectiveMl)
            bindings.append(intake.note)
            bindings.append(intake.source.rawValue)
        }
        return PostgresQuery(unsafeSQL: """
            INSERT INTO intake (id, userId, at, day, volumeMl, kindId, factor, effectiveMl, note, source)
            VALUES \(rows.joined(separator: ", "))
            """, binds: bindings)
    }


}
