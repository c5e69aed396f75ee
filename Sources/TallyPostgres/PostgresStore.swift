import Foundation
import Logging
import PostgresNIO
import TallyCore
import TallyRepositories

/// Tally's store on a PostgreSQL server: the repositories of `SQLiteStore`, for several
/// `tally serve` instances that share one database.
///
/// Everything an instance needs to agree on with the others lives in the database: sessions,
/// throttles, the claims on reminders, the server's keys, the kept totals. Each write is one
/// transaction that first takes a lock on what it changes (the user, the ledger, or the server's
/// sign-up and throttle), so that two instances changing the same data follow one another and see
/// each other's writes, as SQLite's single writer gives for free. Logging a drink takes none:
/// nothing it reads decides whether it may be written.
public final class PostgresStore: StoreAvailability {
    let pool: PostgresPool
    let logger: Logger
    /// Woken when a change commits, by any instance (see `watchChanges`).
    public let changes = ChangeSignals()
    /// How the connection that listens for changes is made.
    let listening: PostgresConnection.Configuration

    /// How long a server's use of the database may take, unless TALLY_POSTGRES_DEADLINE says otherwise.
    public static let defaultDeadline: Duration = .seconds(5)

    /// Connects to the database at `url` (`postgres://user:password@host:port/database`) and
    /// brings its schema up to date. `schema` puts Tally's tables in a schema of their own
    /// (created when missing), for tests that share one server. `deadline` bounds each use of
    /// the database, the wait for a connection included (nil: none, for commands that may run long).
    public static func connect(url: String, schema: String? = nil, maximumConnections: Int = 20,
                               idleTimeout: Duration = .seconds(60), deadline: Duration? = nil) async throws -> PostgresStore {
        // Days and instants are exchanged in binary, but a text cast must never depend on the
        // server's settings.
        var parameters = [("DateStyle", "ISO, YMD"), ("TimeZone", "UTC")]
        if let schema {
            guard schema.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                throw TallyError.invalid("A schema name is letters, digits and underscores.")
            }
            parameters.append(("search_path", schema))
        }
        let address = try PostgresURL(url)
        var configuration = try address.configuration
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectionIdleTimeout = idleTimeout
        // The server gives up on a statement when the store has: it does not go on for nobody.
        configuration.options.additionalStartupParameters = parameters
            + (deadline.map { [("statement_timeout", "\(Int($0 / .milliseconds(1)))")] } ?? [])
        // The schema is brought up to date on a connection of its own, before the pool opens any:
        // an address that reaches no server fails here, at once, with what went wrong.
        var single = try address.connectionConfiguration
        single.options.connectTimeout = .seconds(10)
        single.options.additionalStartupParameters = parameters
        var probe = single
        probe.options.connectTimeout = .seconds(2)
        let store = PostgresStore(PostgresPool(configuration, probe: probe, deadline: deadline, logger: Self.backgroundLogger),
                                  listening: probe)
        do {
            let connection = try await PostgresConnection.connect(configuration: single, id: 0, logger: store.logger)
            do {
                if let schema {
                    // Stores that start at once would race to create it: the migration lock comes
                    // first (closing the connection lets it go).
                    try await connection.run("SELECT pg_advisory_lock(4, hashtext(\(schema)))", logger: store.logger)
                    try await connection.run("CREATE SCHEMA IF NOT EXISTS \(unescaped: schema)", logger: store.logger)
                }
                try await PostgresMigrations.migrate(connection, logger: store.logger)
                try await connection.close()
            } catch {
                try? await connection.close()
                throw error
            }
        } catch {
            store.close()
            throw Self.translate(error, url: url)
        }
        return store
    }

    private static var backgroundLogger: Logger {
        var logger = Logger(label: "tally.postgres")
        logger.logLevel = .error
        return logger
    }

    private init(_ pool: PostgresPool, listening: PostgresConnection.Configuration) {
        self.pool = pool
        self.listening = listening
        self.logger = Self.backgroundLogger
    }

    /// The connections' current client (for tests).
    var client: PostgresClient { pool.client }

    /// Closes the connections; the store cannot be used after.
    public func close() { pool.close() }

    deinit { pool.close() }

    /// Why the database does not answer now, or nil when it does (for /health).
    public func unavailability() -> String? { pool.unavailability() }

    /// What a database error means to a person, with the connection's address and never its password.
    static func translate(_ error: any Error, url: String) -> any Error {
        if let error = error as? TallyError { return error }
        if let error = error as? PSQLError, error.serverInfo == nil {
            return TallyError.invalid("Cannot reach PostgreSQL at \(address(url)) (\(reason(error))): check that it runs and that the address is right.")
        }
        if let error = error as? PSQLError, let message = error.serverInfo?[.message] {
            // Refused at the door: a wrong password, a database that does not exist.
            if error.serverInfo?[.sqlState].map({ $0.hasPrefix("28") || $0 == "3D000" }) == true {
                return TallyError.invalid("PostgreSQL at \(address(url)) refused: \(message).")
            }
        }
        return translate(error)
    }

    /// The address without its password, as a refusal names it.
    static func address(_ url: String) -> Phrase {
        PostgresAddress.redacted(url).map(Phrase.verbatim) ?? Phrase("the PostgreSQL database")
    }

    /// Why no connection was made, in a few words (the system's own, for an I/O error).
    static func reason(_ error: PSQLError) -> Phrase {
        func describe(_ io: IOError) -> Phrase { .verbatim(String(cString: strerror(io.errnoCode)).lowercased()) }
        switch error.underlying {
        case let failure as NIOConnectionError:
            if let io = failure.connectionErrors.lazy.compactMap({ $0.error as? IOError }).first { return describe(io) }
            if failure.dnsAError != nil || failure.dnsAAAAError != nil { return Phrase("the host name is unknown") }
            return Phrase("no connection")
        case let io as IOError:
            return describe(io)
        default:
            return .verbatim("\(error.code)")
        }
    }
}

// MARK: Transactions

/// What a write locks before it reads: the changes of one user (or one ledger) follow one
/// another, whichever instance makes them.
enum WriteLock {
    case user(UUID)
    case ledger(UUID)
    /// Something of the whole server (the sign-up mode, invites, the throttle).
    case server

    var query: PostgresQuery {
        switch self {
        case .user(let id): "SELECT pg_advisory_xact_lock(1, hashtext(\(id.uuidString)))"
        case .ledger(let id): "SELECT pg_advisory_xact_lock(2, hashtext(\(id.uuidString)))"
        case .server: "SELECT pg_advisory_xact_lock(3, 0)"
        }
    }
}

extension PostgresStore {
    /// Runs `body` in one write transaction, after taking `lock`; an error in `body` rolls it
    /// back, and constraint failures become conflicts a person can act on.
    func write<T: Sendable>(locking lock: WriteLock?, _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await transaction("BEGIN") { [self] connection in
            if let lock { try await connection.run(lock.query, logger: logger) }
            return try await body(connection)
        }
    }

    /// Runs `body` in one read-only transaction that sees one snapshot of the database.
    func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    private func transaction<T: Sendable>(_ begin: PostgresQuery, _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        do {
            let admission = TokenAdmission.current
            return try await pool.withConnection { [self] connection in
                try await connection.run(begin, logger: logger)
                do {
                    try await check(admission, connection)
                    let value = try await body(connection)
                    try await connection.run("COMMIT", logger: logger)
                    return value
                } catch {
                    try? await connection.run("ROLLBACK", logger: logger)
                    throw error
                }
            }
        } catch {
            throw Self.translate(error)
        }
    }

    /// A connection for a read of one statement, which needs no transaction.
    func connection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let admission = TokenAdmission.current
        return try await pool.withConnection { [self] connection in
            try await check(admission, connection)
            return try await body(connection)
        }
    }

    /// The request's known token checked again, on the connection at hand (see TokenAdmission).
    func check(_ admission: TokenAdmission?, _ connection: PostgresConnection) async throws {
        guard let admission else { return }
        try await admission.check { try await !connection.all(TokenAdmitsStatement(admission: admission), logger: logger).isEmpty }
    }

    /// A constraint failure as a conflict, with what PostgreSQL said; other errors as they are.
    static func translate(_ error: any Error) -> any Error {
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else { return error }
        let message = error.serverInfo?[.message].map(Phrase.verbatim) ?? Phrase("a constraint failed")
        switch state {
        case "23505", "23503", "23514", "23502", "23P01":
            return StoreRefusal.clash(message)
        case "22001", "22003", "22P02", "22007", "22008":
            return TallyError.invalid("The database refused a value: \(message).")
        case "40001", "40P01", "53300":
            return TallyError(.busy, "The database is busy: try again shortly.", retryAfter: 1)
        default:
            return error
        }
    }
}

// MARK: Rows

extension PostgresConnection {
    /// Every row of `query`.
    func rows(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await self.query(query, logger: logger).collect()
    }

    /// The first row of `query`, if any.
    func row(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRow? {
        try await rows(query, logger: logger).first
    }

    /// Runs a statement whose rows, if any, are not needed.
    func run(_ query: PostgresQuery, logger: Logger) async throws {
        for try await _ in try await self.query(query, logger: logger) {}
    }
}
