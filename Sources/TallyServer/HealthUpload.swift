import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOPosix
import TallyAPI
import TallyCore
import TallyImport
import TallyRepositories
import TallyServices

/// An uploaded Apple Health export (from the API or the settings page): saved to a temporary
/// file as it arrives (exports can be gigabytes), read on the uploads' own threads so that
/// neither the server's event loops nor NIO's shared pool (which serves the static files) wait
/// for it, then deleted. The same saving and threads serve every upload (`Uploads`).
enum HealthUpload {
    /// Big enough for many years of a phone's health data.
    static let maxSize: Int64 = 4 << 30

    /// A thread for each upload the server takes at once (`Uploads.serverWide`): one big file
    /// is read beside the others, never in front of them.
    private static let readers: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: Uploads.standardServerWide)
        pool.start()
        return pool
    }()

    static let temporaryPrefix = "tally-health-"

    /// A new temporary file's address, for one upload.
    static func temporaryFile(in folder: URL = UploadFolder.url) -> URL {
        folder.appendingPathComponent(temporaryPrefix + UUID().uuidString)
    }

    /// Removes the uploads that a server which crashed mid-import left behind: those untouched
    /// for an hour (another server on this machine may be writing a newer one). Returns how many.
    @discardableResult
    static func sweepLeftovers(in folder: URL = FileManager.default.temporaryDirectory, now: Date = Date()) -> Int {
        let files = FileManager.default
        let names = (try? files.contentsOfDirectory(atPath: folder.path)) ?? []
        var removed = 0
        for name in names where name.hasPrefix(temporaryPrefix) {
            let file = folder.appendingPathComponent(name)
            guard let modified = (try? files.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date,
                  now.timeIntervalSince(modified) > 3600, (try? files.removeItem(at: file)) != nil else { continue }
            removed += 1
        }
        return removed
    }

    /// The answer when the upload cannot be stored (a full disk): the server's problem, said so.
    static func cannotStore() -> StatusRefusal {
        StatusRefusal(HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"),
                      Phrase("The server has no room to store the upload now; try again later."))
    }

    static func importing<Body: AsyncSequence & Sendable>(_ body: Body, into hydration: HydrationService) async throws
        -> AppleHealthImporter.Report where Body.Element == ByteBuffer {
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        try await save(body, to: file, maxSize: maxSize,
                       tooLarge: Phrase("An Apple Health export can be at most 4 GB; this one is bigger."),
                       empty: Phrase("The upload is empty: send Apple Health's export.zip or export.xml as the body."))
        return try await importing(file, into: hydration)
    }

    /// Runs `work` (reading an uploaded file) on the uploads' own thread.
    static func read<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await readers.runIfActive(work)
    }

    /// Imports the export saved in `file`.
    static func importing(_ file: URL, into hydration: HydrationService) async throws -> AppleHealthImporter.Report {
        let export = try await readers.runIfActive { try AppleHealthExport.read(contentsOf: file) }
        return try await AppleHealthImporter(hydration: hydration).importExport(export)
    }

    /// Saves a request's body to `file` as it arrives, refusing more than `maxSize` bytes, or none.
    static func save<Body: AsyncSequence>(_ body: Body, to file: URL, maxSize: Int64, tooLarge: Phrase, empty: Phrase) async throws
        where Body.Element == ByteBuffer {
        guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]) else { throw cannotStore() }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let lease = UploadSpace.server.lease()
        var size: Int64 = 0
        for try await chunk in body {
            size += Int64(chunk.readableBytes)
            guard size <= maxSize else {
                throw StatusRefusal(.contentTooLarge, tooLarge)
            }
            try lease.take(Int64(chunk.readableBytes))
            do { try handle.write(contentsOf: chunk.readableBytesView) } catch { throw cannotStore() }
        }
        guard size > 0 else { throw StatusRefusal(.badRequest, empty) }
    }
}
