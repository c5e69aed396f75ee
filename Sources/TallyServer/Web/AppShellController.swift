import Foundation
import Hummingbird
import TallyLanguages

/// What makes the web app installable (A3): its files, its manifest, and the service worker that
/// keeps the app shell for offline use. The worker is served from the root so that it may look
/// after every page.
struct AppShellController {
    func addRoutes(to router: Router<TallyRequestContext>) {
        StaticAssets.addRoutes(to: router)
        router.get(SitePath.manifest.routerPath) { request, _ in
            let language = request.uri.queryParameters.get("lang").flatMap(Language.matching) ?? .english
            return Self.file(WebManifest.bytes(for: language), type: "application/manifest+json")
        }
        router.get(SitePath.serviceWorker.routerPath) { _, _ in Self.file(Self.serviceWorker, type: "text/javascript; charset=utf-8") }
    }

    /// The worker keeps the app's files by the addresses the pages link them by, in a cache named
    /// for their version: a new version of any file is a new worker, which drops the old cache.
    static let serviceWorker: [UInt8] = {
        var text = String(decoding: resource("sw", "js"), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"tally-shell-v5\"", with: "\"tally-shell-\(StaticAssets.version)\"")
        for name in StaticAssets.byName.keys {
            text = text.replacingOccurrences(of: "\"/static/\(name)\"", with: "\"\(StaticAssets.link(name))\"")
        }
        return Array(text.utf8)
    }()

    private static func resource(_ name: String, _ type: String) -> [UInt8] {
        guard let url = Bundle.module.url(forResource: name, withExtension: type, subdirectory: "Resources"),
              let data = try? Data(contentsOf: url) else { return [] }
        return Array(data)
    }

    // Never from an HTTP cache: a new version of the app must reach the worker at once.
    private static func file(_ bytes: [UInt8], type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"],
                 body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
