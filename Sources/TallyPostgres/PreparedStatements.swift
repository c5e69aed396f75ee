import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

// The statements that nearly every request makes, prepared once per connection: PostgreSQL then
// parses and plans each once, not on every request. Parsing and planning were most of the
// database's work for a day's screen (`perf record` during bench/server.sh: half of all CPU in
// the postgres backends, led by base_yyparse, copyObjectImpl and the planner).

extension PostgresConnection {
    /// Every row of a prepared statement, decoded.
    func all<Statement: PostgresPreparedStatement>(_ statement: Statement, logger: Logger) async throws -> [Statement.Row] {
        var rows: [Statement.Row] = []
        for try await row in try await execute(statement, logger: logger) { rows.append(row) }
        return rows
    }
}

/// A statement about a credential: its hash, and now (an expired one is no one's).
protocol CredentialStatement: PostgresPreparedStatement where Row == Credentialed {
    var tokenHash: Data { get }
    var now: Date { get }
}

extension CredentialStatement {
    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        try bindings.append(tokenHash)
        bindings.append(now)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Credentialed { try PostgresStore.credentialed(row) }
}

/// A statement about one user ($1).
protocol UserStatement: PostgresPreparedStatement {
    var user: UUID { get }
}

extension UserStatement {
    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(user)
        return bindings
    }
}

/// A statement about one user's day ($1, $2).
protocol UserDayStatement: PostgresPreparedStatement {
    var user: UUID { get }
    var day: LocalDate { get }
}

extension UserDayStatement {
    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(user)
        bindings.append(day)
        return bindings
    }
}

/// A goal period from nullable columns (a LEFT JOIN that found none reads as nil).
private func goalPeriod(start: LocalDate?, end: LocalDate?, mode: String?, targetMl: Double?) -> GoalPeriod? {
    guard let start, let mode else { return nil }
    return GoalPeriod(start: start, end: end, goal: .stored(mode: mode, targetMl: targetMl))
}

/// Who an API token belongs to: a token neither revoked nor expired, of an enabled account.
struct TokenUserStatement: CredentialStatement {
    static let sql = """
        SELECT \(PostgresStore.userColumns), apiToken.lastUsedAt, apiToken.scope, apiToken.expiresAt
        FROM apiToken JOIN users ON users.id = apiToken.userId
        WHERE apiToken.tokenHash = $1 AND apiToken.revokedAt IS NULL
          AND (apiToken.expiresAt IS NULL OR apiToken.expiresAt > $2) AND users.disabledAt IS NULL
        """
    var tokenHash: Data
    var now: Date

    func decodeRow(_ row: PostgresRow) throws -> Credentialed {
        let (id, name, createdAt, language, lastSeenAt, scope, expiresAt) = try row.decode((UUID, String, Date, String?, Date?, String, Date?).self)
        return Credentialed(user: User(id: id, name: name, createdAt: createdAt, language: language), lastSeenAt: lastSeenAt,
                            token: TokenGrant(scope: TokenScope(rawValue: scope) ?? .read, expiresAt: expiresAt))
    }
}

/// Whether a known API token still admits its holder: neither revoked nor expired, of an
/// enabled account (TokenAdmission).
struct TokenAdmitsStatement: PostgresPreparedStatement {
    static let sql = """
        SELECT 1 FROM apiToken JOIN users ON users.id = apiToken.userId
        WHERE apiToken.tokenHash = $1 AND apiToken.userId = $2 AND apiToken.revokedAt IS NULL
          AND (apiToken.expiresAt IS NULL OR apiToken.expiresAt > $3) AND users.disabledAt IS NULL
        """
    typealias Row = Int32
    var admission: TokenAdmission

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        try bindings.append(admission.tokenHash)
        bindings.append(admission.user)
        bindings.append(admission.now)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int32 { try row.decode(Int32.self) }
}

/// Who a browser's session belongs to: an unexpired session of an enabled account.
struct SessionUserStatement: CredentialStatement {
    static let sql = """
        SELECT \(PostgresStore.userColumns), session.lastSeenAt FROM session JOIN users ON users.id = session.userId
        WHERE session.tokenHash = $1 AND session.expiresAt > $2 AND users.disabledAt IS NULL
        """
    var tokenHash: Data
    var now: Date
}

/// A day's drinks (with their kinds' names) and removals; a removal's kind columns are NULL.
struct DayEntriesStatement: UserDayStatement {
    static let sql = """
        \(PostgresStore.intakeSelect) WHERE intake.userId = $1 AND intake.day = $2
        UNION ALL
        SELECT id, at, day, volumeMl, NULL, NULL, NULL, NULL, NULL, NULL FROM removal WHERE userId = $1 AND day = $2
        """
    var user: UUID
    var day: LocalDate

    func decodeRow(_ row: PostgresRow) throws -> DayEntry { try Self.entry(row) }

    /// A drink or, with NULL kind columns, a removal.
    static func entry(_ row: PostgresRow) throws -> DayEntry {
        let (_, _, _, _, kind) = try row.decode((UUID, Date, LocalDate, Double, UUID?).self)
        return kind == nil ? .removal(try PostgresStore.removal(row)) : .intake(try PostgresStore.intake(row))
    }
}

/// A day's kept total beside each goal period (one row with NULL goal columns when there is none).
struct ProgressStatement: UserDayStatement {
    static let sql = """
        SELECT (SELECT totalMl FROM dayTotal WHERE userId = $1 AND day = $2), goal.startDay, goal.endDay, goal.mode, goal.targetMl
        FROM (VALUES (1)) AS one LEFT JOIN goal ON goal.userId = $1
        """
    var user: UUID
    var day: LocalDate

    func decodeRow(_ row: PostgresRow) throws -> (totalMl: Double?, period: GoalPeriod?) {
        let (total, start, end, mode, targetMl) = try row.decode((Double?, LocalDate?, LocalDate?, String?, Double?).self)
        return (total, goalPeriod(start: start, end: end, mode: mode, targetMl: targetMl))
    }
}

/// The user's settings beside each goal period (one row with NULL goal columns when there is none).
struct SettingsAndGoalsStatement: UserStatement {
    static let sql = """
        SELECT \(PostgresStore.settingsColumns), goal.startDay, goal.endDay, goal.mode, goal.targetMl
        FROM userSettings LEFT JOIN goal ON goal.userId = userSettings.userId WHERE userSettings.userId = $1
        """
    var user: UUID

    func decodeRow(_ row: PostgresRow) throws -> (settings: HydrationSettings, period: GoalPeriod?) {
        let (_, _, _, start, end, mode, targetMl) = try row.decode((String, String, String?, LocalDate?, LocalDate?, String?, Double?).self)
        return (try PostgresStore.settings(row), goalPeriod(start: start, end: end, mode: mode, targetMl: targetMl))
    }
}

/// The user's settings beside each drink kind, in the kinds' order.
struct SettingsAndKindsStatement: UserStatement {
    static let sql = """
        SELECT \(PostgresStore.settingsColumns), drinkKind.id, drinkKind.name, drinkKind.factor, drinkKind.isBuiltIn, drinkKind.isRetired
        FROM userSettings LEFT JOIN drinkKind ON drinkKind.userId = userSettings.userId
        WHERE userSettings.userId = $1 \(PostgresStore.kindOrder)
        """
    var user: UUID

    func decodeRow(_ row: PostgresRow) throws -> (settings: HydrationSettings, kind: DrinkKind?) {
        let (_, _, _, id, name, factor, isBuiltIn, isRetired) =
            try row.decode((String, String, String?, UUID?, String?, Double?, Bool?, Bool?).self)
        guard let id, let name, let factor, let isBuiltIn, let isRetired else { return (try PostgresStore.settings(row), nil) }
        return (try PostgresStore.settings(row), DrinkKind(id: id, name: name, factor: factor, isBuiltIn: isBuiltIn, isRetired: isRetired))
    }
}
