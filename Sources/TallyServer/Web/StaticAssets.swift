import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// One of the web app's files under /static (its style sheet, scripts and icons), as read at start.
struct StaticAsset: Sendable {
    let type: String
    let plain: ByteBuffer
    /// Gzipped once, for text (a PNG is compressed already); nil for the rest.
    let gzipped: ByteBuffer?
    /// A digest of the content: the `v` of the address that a browser keeps for a year.
    let version: String

    init(name: String, bytes: [UInt8]) {
        type = Self.types[(name as NSString).pathExtension] ?? "application/octet-stream"
        plain = ByteBuffer(bytes: bytes)
        version = Web.digest(bytes, bytes: 6)
        var source = plain
        let compressed = type.hasPrefix("text/") || type.hasPrefix("image/svg") ? try? source.compress(with: .gzip(configuration: .init(compressionLevel: 9))) : nil
        gzipped = compressed.flatMap { $0.readableBytes < bytes.count ? $0 : nil }
    }

    private static let types = ["css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
                                "svg": "image/svg+xml", "png": "image/png"]

    /// The answer to `request`: gzipped when the browser takes it; kept for a year when asked by
    /// its current address (`?v=` its version), else asked again each time (its ETag answers 304).
    func response(to request: Request) -> Response {
        let zipped = gzipped != nil && Self.acceptsGzip(request.headers[.acceptEncoding])
        let tag = "\"\(version)\(zipped ? "-gz" : "")\""
        var headers: HTTPFields = [
            .contentType: type, .eTag: tag,
            .cacheControl: request.uri.queryParameters.get("v") == version ? "public, max-age=31536000, immutable" : "no-cache",
        ]
        if gzipped != nil { headers[.vary] = "Accept-Encoding" }
        if let asked = request.headers[.ifNoneMatch], asked.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == tag }) {
            return Response(status: .notModified, headers: headers)
        }
        if zipped { headers[.contentEncoding] = "gzip" }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: zipped ? gzipped! : plain))
    }

    /// Whether an Accept-Encoding names gzip (or *) without refusing it (q=0).
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { item in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first, coding == "gzip" || coding == "*" else { return false }
            return !parts.dropFirst().contains { $0.hasPrefix("q=") && (Double($0.dropFirst(2)) ?? 1) == 0 }
        }
    }
}

/// The web app's files, read and compressed once, and the addresses pages link them by.
enum StaticAssets {
    static let byName: [String: StaticAsset] = {
        let folder = URL(fileURLWithPath: StaticFiles.folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return Dictionary(uniqueKeysWithValues: names.compactMap { name in
            (try? Data(contentsOf: folder.appendingPathComponent(name))).map { (name, StaticAsset(name: name, bytes: Array($0))) }
        })
    }()

    /// `/static/NAME?v=VERSION`: an address that changes when the file does.
    static func link(_ name: String) -> String {
        byName[name].map { "/static/\(name)?v=\($0.version)" } ?? "/static/\(name)"
    }

    /// One version for all of them: the service worker's cache is named by it.
    static let version: String = {
        let versions = byName.keys.sorted().compactMap { byName[$0]?.version }.joined()
        return Web.digest(Array(versions.utf8), bytes: 6)
    }()

    static func addRoutes(to router: Router<TallyRequestContext>) {
        router.get("static/{name}") { request, context -> Response in
            guard let name = context.parameters.get("name"), let asset = byName[name] else { throw HTTPError(.notFound) }
            return asset.response(to: request)
        }
    }
}
