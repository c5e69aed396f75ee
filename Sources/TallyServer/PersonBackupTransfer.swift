import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyImport
import TallyRepositories
import TallyServices

/// A person's backup (A2) out and in, from the API or the settings page: streamed out as it is
/// read; in, saved to a temporary file as it arrives, then read and restored.
enum PersonBackupTransfer {
    /// Far more than a lifetime of drinks and ledgers (ten years of drinks are about 10 MB). A
    /// backup is read whole to be restored, so this also bounds the memory a restore takes.
    static let maxSize: Int64 = 64 << 20

    static func download(_ hydration: HydrationService, _ spending: SpendingService) async throws -> Response {
        let today = try await hydration.today()
        return Response(status: .ok, headers: [
            .contentType: "application/json; charset=utf-8",
            .contentDisposition: "attachment; filename=\"\(PersonBackup.fileName(on: today))\"",
            .cacheControl: "no-store",
        ], body: ResponseBody { writer in
            try await PersonBackup.export(hydration: hydration, spending: spending) { try await writer.write(ByteBuffer(bytes: $0)) }
            try await writer.finish(nil)
        })
    }

    static func restoring<Body: AsyncSequence & Sendable>(_ body: Body, merge: Bool, _ hydration: HydrationService,
                                                          _ spending: SpendingService) async throws -> BackupRestoreReport
        where Body.Element == ByteBuffer {
        let file = HealthUpload.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        try await HealthUpload.save(body, to: file, maxSize: maxSize,
                                    tooLarge: Phrase("A backup can be at most 64 MB; this one is bigger."),
                                    empty: Phrase("The upload is empty: send the backup that Tally's export wrote as the body."))
        return try await restoring(file, merge: merge, hydration, spending)
    }

    /// Restores the backup saved in `file`.
    static func restoring(_ file: URL, merge: Bool, _ hydration: HydrationService, _ spending: SpendingService) async throws -> BackupRestoreReport {
        let backup = try await HealthUpload.read {
            guard let data = FileManager.default.contents(atPath: file.path) else { throw HealthUpload.cannotStore() }
            return try PersonBackup.read(data)
        }
        return try await backup.restore(merge: merge, hydration: hydration, spending: spending)
    }
}
