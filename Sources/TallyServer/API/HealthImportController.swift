import Foundation
import Hummingbird
import NIOPosix
import TallyCore
import TallyImport
import TallyStore

/// Apple Health's export brought in (A2): water as drinks, sleep records for the reminders.
struct HealthImportController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<TallyRequestContext>) {
        group.post("import/apple-health", use: importAppleHealth)
    }

    /// The body is `export.zip` as the Health app shares it, or the `export.xml` inside it.
    @Sendable func importAppleHealth(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<AppleHealthImporter.Report> {
        let hydration = try services.hydration(context)
        let report = try await HealthUpload.importing(request.body, into: hydration)
        return JSONBody(report, status: report.drinksAdded + report.sleepRecordsAdded > 0 ? .created : .ok)
    }
}

/// An uploaded Apple Health export: saved to a temporary file as it arrives (exports can be
/// gigabytes), read on NIO's thread pool so the server's threads stay free, then deleted.
enum HealthUpload {
    /// Big enough for many years of a phone's health data.
    static let maxSize: Int64 = 4 << 30

    static func importing<Body: AsyncSequence & Sendable>(_ body: Body, into hydration: HydrationService) async throws
        -> AppleHealthImporter.Report where Body.Element == ByteBuffer {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tally-health-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try await save(body, to: file)
        return try await importing(file, into: hydration)
    }

    /// Imports the export saved in `file`.
    static func importing(_ file: URL, into hydration: HydrationService) async throws -> AppleHealthImporter.Report {
        let export = try await NIOThreadPool.singleton.runIfActive { try AppleHealthExport.read(contentsOf: file) }
        return try await AppleHealthImporter(hydration: hydration).importExport(export)
    }

    private static func save<Body: AsyncSequence>(_ body: Body, to file: URL) async throws where Body.Element == ByteBuffer {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw HTTPError(.serviceUnavailable, message: "The server cannot store the upload now; try again later.")
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var size: Int64 = 0
        for try await chunk in body {
            size += Int64(chunk.readableBytes)
            guard size <= maxSize else {
                throw HTTPError(.contentTooLarge, message: "An Apple Health export can be at most 4 GB; this one is bigger.")
            }
            try handle.write(contentsOf: chunk.readableBytesView)
        }
        guard size > 0 else {
            throw HTTPError(.badRequest, message: "The upload is empty: send Apple Health's export.zip or export.xml as the body.")
        }
    }
}
