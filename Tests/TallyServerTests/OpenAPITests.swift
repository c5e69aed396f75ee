import Foundation
import Testing
import Yams
import Hummingbird
@testable import TallyServer

/// openapi.yaml and the router describe the same API: a route the document lacks, or a
/// documented route the server does not have, fails here (A4).
@Suite("OpenAPI document")
struct OpenAPITests {
    static let documentURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("openapi.yaml")

    @Test("Every route is documented, and every documented route exists (the web app's pages aside)")
    func routesMatch() async throws {
        let f = try await ServerFixture()
        let services = APIServices(store: f.store, clock: f.clock, accounts: f.accounts,
                                   push: PushCenter(store: f.store, contact: "mailto:tally@localhost"))
        let pages = Router(context: TallyRequestContext.self)
        WebController(services: services).addRoutes(to: pages)
        SpendingWebController(services: services).addRoutes(to: pages)
        BottleWebController(services: services).addRoutes(to: pages)
        AppShellController().addRoutes(to: pages)
        let served = Self.names(buildRouter(services: services)).subtracting(Self.names(pages))
        let yaml = try String(contentsOf: Self.documentURL, encoding: .utf8)
        let document = try #require(try Yams.load(yaml: yaml) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: Any])
        let methods = ["get", "put", "post", "patch", "delete", "head", "options"]
        let documented = Set(paths.flatMap { path, item in
            ((item as? [String: Any]) ?? [:]).keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" }
        })
        #expect(served.subtracting(documented).sorted() == [], "routes missing from openapi.yaml")
        #expect(documented.subtracting(served).sorted() == [], "documented routes the server lacks")
        #expect(served.count > 20)
    }

    /// "GET /api/v1/intakes/{id}" for each route, in the document's spelling.
    static func names(_ router: Router<TallyRequestContext>) -> Set<String> {
        Set(router.routes.map { route in
            "\(route.method.rawValue) " + route.path.description
                .split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
                .joined(separator: "/").prefixed("/")
        })
    }

    @Test("The server serves the repository's document byte for byte")
    func servedDocument() async throws {
        #expect(OpenAPIDocument.bytes == Array(try Data(contentsOf: Self.documentURL)))
    }
}

private extension String {
    func prefixed(_ prefix: String) -> String { hasPrefix(prefix) ? self : prefix + self }
}
