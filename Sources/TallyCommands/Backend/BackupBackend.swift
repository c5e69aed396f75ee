import Foundation
import TallyAPI
import TallyCore
import TallyImport
import TallyRepositories
import TallyServices

/// A person's whole backup (A2): written from, and restored into, the local database or a server.
package protocol BackupBackend: Sendable {
    /// Writes the backup, a piece at a time.
    func exportBackup(_ write: (Data) async throws -> Void) async throws
    /// Restores a backup file: into an empty account, or merged into one that has data.
    func restoreBackup(_ file: URL, merge: Bool) async throws -> BackupRestoreReport
}

/// The local database, through the services the server uses.
struct LocalBackup: BackupBackend {
    let hydration: HydrationService
    let spending: SpendingService

    func exportBackup(_ write: (Data) async throws -> Void) async throws {
        try await PersonBackup.export(hydration: hydration, spending: spending, write: write)
    }

    func restoreBackup(_ file: URL, merge: Bool) async throws -> BackupRestoreReport {
        guard let data = FileManager.default.contents(atPath: file.path) else { throw DrinkCSV.missing(file) }
        return try await PersonBackup.read(data).restore(merge: merge, hydration: hydration, spending: spending)
    }
}
