import Foundation
import GRDB
import TallyCore
import TallyRepositories

/// Tally's store in one SQLite file (or in memory, for tests).
///
/// Follows GRDB's demo app: it owns the database writer, runs the migrations when it opens,
/// and offers named methods that are each one transaction.
public struct SQLiteStore: Sendable {
    let writer: any DatabaseWriter
    /// Woken after each commit of this store (see `CommitTopics`).
    public let changes = ChangeSignals()
    /// What the transaction being written touched: nil for a short-lived command, which no one follows.
    let topics: CommitTopics?

    /// How a process uses the database file.
    public enum Access: Sendable {
        /// A pool of connections: concurrent readers beside one writer, for the server.
        case pool
        /// One connection, for a short-lived process such as one CLI command: its few queries
        /// run one after another, and a pool's second connection would cost more than it gives.
        case singleConnection
    }

    /// When a write counts as done (SQLite's `synchronous` on the writing connection).
    public enum Durability: String, Sendable, CaseIterable {
        /// Once it is on the disk: a power cut or an operating system's crash loses nothing that
        /// was acknowledged. Every commit waits for an fsync of the WAL.
        case full
        /// Once it is in the operating system's hands: the database stays whole, but the last
        /// commits before a power cut or a crash may be lost. Faster on slow disks.
        case normal
    }

    /// Opens (creating it and its folder if needed) the database file at `path`, in WAL mode so
    /// that readers never wait for the writer, and brings its schema up to date. The file is
    /// readable by its owner only: SQLite gives its WAL and shared-memory files the same mode.
    public static func open(path: String, access: Access = .pool, durability: Durability = .full) throws -> SQLiteStore {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            // Made only when missing: making it costs a command more than looking.
            if !FileManager.default.fileExists(atPath: folder.path) {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            }
            try ownerOnly(path)
        } catch let error as TallyError {
            throw error
        } catch {
            throw TallyError.invalid("Cannot create the folder \(folder.path) for the database: \(error.localizedDescription)")
        }
        do {
            let writer: any DatabaseWriter
            switch access {
            case .pool:
                writer = try DatabasePool(path: path, configuration: configuration())
            case .singleConnection:
                writer = try DatabaseQueue(path: path, configuration: configuration())
            }
            try writer.writeWithoutTransaction { db in
                // The pool sets WAL itself; one connection must ask, so that it and a server can
                // share the file. A file keeps its WAL mode, so it is asked for only once: GRDB's
                // own `journalMode = .wal` also writes to the WAL on every open (a transaction and
                // its fsync for every command, about 2 ms), which only a pool's readers need.
                if access == .singleConnection, try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal",
                   try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") != "wal" {
                    throw DatabaseError(message: "could not activate WAL mode")
                }
                // GRDB sets NORMAL with WAL, after `prepareDatabase`: set it here, on the one
                // connection that writes.
                try db.execute(sql: "PRAGMA synchronous = \(durability.rawValue.uppercased())")
            }
            return try SQLiteStore(writer, followed: access == .pool)
        } catch let error as DatabaseError {
            throw TallyError.invalid("Cannot open the database at \(path): \(error.message ?? "\(error.resultCode)").")
        }
    }

    /// Creates the database file with mode 0600, or takes group and others' access away from
    /// an existing one and its WAL.
    static func ownerOnly(_ path: String) throws {
        let files = FileManager.default
        guard files.fileExists(atPath: path) else {
            guard files.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw TallyError.invalid("Cannot create the database at \(path): check that its folder is writable.")
            }
            return
        }
        // stat(2) rather than FileManager's attributes, which also look the owner's name up in
        // /etc/passwd and /etc/group: every command opens the file.
        for file in [path, path + "-wal", path + "-shm"] {
            var status = stat()
            guard stat(file, &status) == 0, status.st_mode & 0o077 != 0 else { continue }
            _ = chmod(file, status.st_mode & 0o700)
        }
    }

    /// The writing connection's `synchronous` setting: 2 is FULL, 1 NORMAL.
    public func synchronousSetting() async throws -> Int {
        try await writer.write { try Int.fetchOne($0, sql: "PRAGMA synchronous") ?? -1 }
    }

    /// A private in-memory database: each call gives a new, empty one.
    public static func inMemory() throws -> SQLiteStore {
        try SQLiteStore(DatabaseQueue(configuration: configuration()))
    }

    init(_ writer: any DatabaseWriter, followed: Bool = true) throws {
        self.writer = writer
        let migrator = Migrations.migrator
        // Most commands find the schema current: check that in a read, and take the write lock
        // that migrating needs only when there is something to do.
        let current = try writer.read { db in
            if try migrator.hasBeenSuperseded(db) {
                throw TallyError.conflict(
                    "This database was written by a newer version of Tally; update Tally to open it.")
            }
            return try migrator.hasCompletedMigrations(db)
        }
        if !current {
            try migrator.migrate(writer)
            // The pool's reader that checked the schema above knows the old one: a statement it
            // prepared next would expand `SELECT *` to the old columns. Close it.
            (writer as? DatabasePool)?.releaseMemory()
        }
        let topics = followed ? CommitTopics() : nil
        try topics.map { topics in try writer.writeWithoutTransaction { try topics.install(on: $0) } }
        self.topics = topics
    }

    static func configuration() -> Configuration {
        var config = Configuration()
        // The CLI and a server may share the file: wait for the other's write instead of failing.
        config.busyMode = .timeout(5)
        config.label = "Tally"
        return config
    }

    /// Runs `body` in a write transaction, turning constraint failures into conflicts a person
    /// can act on. It runs on the writer's own queue (GRDB's async write): a task waiting for
    /// another write is suspended, and the write overlaps the HTTP work of the other requests.
    /// Run here on the calling thread instead, behind a lock that tasks await, a write cost more
    /// CPU and fewer requests per second (bench/server.sh: 2.5k against 1.7k expenses a second).
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let admission = TokenAdmission.current
        do {
            let (value, touched) = try await writer.write { [topics] db in
                try Self.check(admission, db)
                let value = try body(db)
                return (value, topics?.take() ?? [])
            }
            if !touched.isEmpty { changes.signal(touched) }
            return value
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw StoreRefusal.clash(error.message.map(Phrase.verbatim) ?? Phrase("a constraint failed"))
        } catch let error as DatabaseError {
            throw Self.storageFault(error) ?? error
        }
    }

    /// What a person is told when the file system refuses a write: the disk is full (507), or
    /// the database cannot be written (read-only, an I/O error: 503). SQLite has rolled the
    /// transaction back, so nothing was saved, and the next write tries again by itself.
    static func storageFault(_ error: DatabaseError) -> TallyError? {
        switch error.resultCode {
        case .SQLITE_FULL:
            TallyError(.storageFull, "The server's disk is full, so nothing was saved; try again once its admin has made room.",
                       retryAfter: 60)
        case .SQLITE_READONLY, .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_PERM:
            TallyError(.storageUnavailable,
                       "The server cannot write to its database just now (it is read-only, or its disk failed), so nothing was saved; try again in a minute.",
                       retryAfter: 60)
        default:
            nil
        }
    }

    /// Runs `body` in a read transaction on the calling thread. A pool's readers never wait for
    /// the writer (WAL) and a read of a few rows takes microseconds, so waiting for it here costs
    /// less than GRDB's async read, which hops to the connection's queue and back: two thread
    /// switches per read, more than the SQL of a request (bench/server.sh).
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let admission = TokenAdmission.current
        return try readHere { db in
            try Self.check(admission, db)
            return try body(db)
        }
    }

    // Not async, so that GRDB's blocking overload is the one called.
    private func readHere<T>(_ body: (Database) throws -> T) throws -> T { try writer.read(body) }

}
