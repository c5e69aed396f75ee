import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyImport
import TallyRepositories
import TallyServices

/// A CSV of drinks brought in (A2), from the API or the settings page: saved to a temporary file
/// as it arrives, read on the uploads' thread, stored in one transaction, then deleted.
enum DrinkCSVUpload {
    /// Forty years of drinks (ten years are about 4 MB). The rows of a file are held while it is
    /// checked whole (an id twice, a kind that cannot be), about 14 bytes of memory to a byte
    /// of file: this bounds what one import takes to about 220 MB.
    static let maxSize: Int64 = 16 << 20

    static func importing<Body: AsyncSequence & Sendable>(_ body: Body, into hydration: HydrationService, unit: VolumeUnit?) async throws
        -> DrinkCSVImportReport where Body.Element == ByteBuffer {
        let file = HealthUpload.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        try await HealthUpload.save(body, to: file, maxSize: maxSize,
                                    tooLarge: Phrase("A CSV of drinks can be at most 16 MB (forty years of drinks); this one is bigger."),
                                    empty: Phrase("The upload is empty: send a CSV of drinks as the body."))
        return try await importing(file, into: hydration, unit: unit)
    }

    /// Imports the CSV saved in `file`.
    static func importing(_ file: URL, into hydration: HydrationService, unit: VolumeUnit?) async throws -> DrinkCSVImportReport {
        let zone = try await hydration.settings().zone
        let (now, user) = (hydration.clock.now, hydration.user)
        let rows = try await HealthUpload.read {
            guard let stream = InputStream(url: file) else { throw HealthUpload.cannotStore() }
            return try DrinkCSV.read(stream, zone: zone, now: now, unit: unit, user: user)
        }
        return try await DrinkCSVImporter(hydration: hydration).store(rows)
    }

    /// Every drink and removal of the person as a CSV download, streamed a few weeks at a time.
    static func download(_ hydration: HydrationService) async throws -> Response {
        let today = try await hydration.today()
        return Response(status: .ok, headers: [
            .contentType: DrinkCSV.mediaType,
            .contentDisposition: "attachment; filename=\"\(DrinkCSV.fileName(on: today))\"",
            .cacheControl: "no-store",
        ], body: ResponseBody { writer in
            try await DrinkCSV.export(hydration) { try await writer.write(ByteBuffer(bytes: $0)) }
            try await writer.finish(nil)
        })
    }
}
