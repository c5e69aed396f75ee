import Foundation
import TallyAPI
import TallyCommands
import TallyCore
import TallyImport
import TallyServices

/// A Tally server, through its API.
struct RemoteBackup: BackupBackend {
    let client: APIClient

    func exportBackup(_ write: (Data) async throws -> Void) async throws {
        try await client.download(API.exportBackup, to: write)
    }

    func restoreBackup(_ file: URL, merge: Bool) async throws -> BackupRestoreReport {
        guard FileManager.default.isReadableFile(atPath: file.path) else { throw DrinkCSV.missing(file) }
        return try await client.upload(API.restoreBackup, file: file, query: merge ? [URLQueryItem(name: "merge", value: "true")] : [],
                                       contentType: "application/json", timeout: 10 * 60)
    }
}
