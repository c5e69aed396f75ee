import Foundation
import GRDB
import TallyCore
import TallyRepositories

/// What a backup wrote.
public struct BackupReport: Codable, Sendable {
    public var path: String
    public var bytes: Int64
    public var seconds: Double
    /// SQLite's `PRAGMA integrity_check` of the copy: "ok".
    public var integrity: String
}

extension SQLiteStore {
    /// Copies the whole database to `path` while it stays in use: SQLite's online backup, from
    /// one read transaction, so that the copy is the database as it stood at one moment (every
    /// write committed before it began, none half) while the server goes on writing beside it
    /// (WAL). The copy is readable by its owner only, never overwrites a file, and passes an
    /// integrity check before it counts as made.
    public func backup(to path: String) throws -> BackupReport {
        let files = FileManager.default
        guard !files.fileExists(atPath: path) else {
            throw TallyError.conflict("\(path) exists already: give the backup a new name, so that no backup is overwritten.")
        }
        let started = ContinuousClock.now
        do {
            try files.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true,
                                      attributes: [.posixPermissions: 0o700])
            try Self.ownerOnly(path)
            let target = try DatabaseQueue(path: path)
            try writer.backup(to: target)
            let integrity = try target.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
            try target.close()
            guard let integrity, integrity == "ok" else {
                throw TallyError.conflict("The copy at \(path) failed its integrity check (\(Self.said(integrity))); keep the previous backup.")
            }
            let bytes = ((try? files.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
            let elapsed = (ContinuousClock.now - started).components
            return BackupReport(path: path, bytes: bytes, seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18,
                                integrity: integrity)
        } catch {
            try? files.removeItem(atPath: path)
            if let error = error as? TallyError { throw error }
            if let error = error as? DatabaseError {
                throw TallyError.invalid("Cannot write the backup to \(path): \(error.message ?? "\(error.resultCode)").")
            }
            throw TallyError.invalid("Cannot write the backup to \(path): \(error.localizedDescription)")
        }
    }

    /// Checks, without changing it, that the file at `path` is a Tally database this version can
    /// open: SQLite's integrity check passes, and its schema is not a newer Tally's.
    public static func checkRestorable(at path: String) throws {
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration())
            defer { try? queue.close() }
            try queue.read { db in
                guard try db.tableExists("grdb_migrations"), try db.tableExists("user") else {
                    throw TallyError.invalid("\(path) is not a Tally database.")
                }
                let integrity = try String.fetchOne(db, sql: "PRAGMA integrity_check")
                guard integrity == "ok" else {
                    throw TallyError.invalid("\(path) failed SQLite's integrity check (\(Self.said(integrity))): it cannot be restored.")
                }
                if try Migrations.migrator.hasBeenSuperseded(db) {
                    throw TallyError.conflict("\(path) was written by a newer version of Tally; update Tally to restore it.")
                }
            }
        } catch let error as DatabaseError {
            throw TallyError.invalid("\(path) is not a Tally database (\(error.message ?? "\(error.resultCode)")).")
        }
    }

    /// What SQLite's integrity check answered, as a refusal quotes it.
    private static func said(_ integrity: String?) -> Phrase {
        integrity.map(Phrase.verbatim) ?? Phrase("no answer")
    }
}
