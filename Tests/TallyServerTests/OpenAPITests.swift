import Foundation
import Testing
import Yams
import HTTPTypes
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
        addWebApp(to: pages, services: services)
        AppShellController().addRoutes(to: pages)
        let served = Self.names(buildRouter(services: services)).subtracting(Self.names(pages))
        let paths = try #require(try Self.document()["paths"] as? [String: Any])
        let methods = ["get", "put", "post", "patch", "delete", "head", "options"]
        let documented = Set(paths.flatMap { path, item in
            ((item as? [String: Any]) ?? [:]).keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" }
        })
        #expect(served.subtracting(documented).sorted() == [], "routes missing from openapi.yaml")
        #expect(documented.subtracting(served).sorted() == [], "documented routes the server lacks")
        #expect(served.count > 20)
    }

    @Test("A documented address asked with a method it does not take answers 405 with Allow")
    func undeclaredMethods() async throws {
        let f = try await ServerFixture()
        let token = f.adaToken
        let methods: [HTTPRequest.Method] = [.get, .put, .post, .patch, .delete, .options, .trace]
        let paths = try #require(try Self.document()["paths"] as? [String: Any]).mapValues { item in
            Set(((item as? [String: Any]) ?? [:]).keys.map { $0.uppercased() }).intersection(methods.map(\.rawValue))
        }
        try await f.test { client in
            for (path, declared) in paths {
                // A real address for the pattern: any UUID, member or date will do for routing.
                let address = path.replacingOccurrences(of: #"\{(id|ledger)\}"#, with: UUID().uuidString, options: .regularExpression)
                    .replacingOccurrences(of: "{member}", with: "1").replacingOccurrences(of: "{date}", with: "2025-06-15")
                    .replacingOccurrences(of: "{file}", with: "secret.ics")
                for method in methods where !declared.contains(method.rawValue) {
                    let answer = try await client.send(method, address, token: token)
                    let detail = try answer.problem(.methodNotAllowed)
                    #expect(detail.contains(method.rawValue), "\(method) \(path): \(detail)")
                    #expect(answer.headers[.allow] == declared.sorted().joined(separator: ", "),
                            "\(method) \(path)")
                }
            }
        }
    }

    @Test("An address the server does not have is still a 404")
    func unknownAddress() async throws {
        let f = try await ServerFixture()
        let token = f.adaToken
        try await f.test { client in
            let unknown = try await client.send(.put, "/api/v1/nothing-here", token: token)
            #expect(unknown.status == .notFound)
            let deeper = try await client.send(.get, "/api/v1/bottle/sip/extra", token: token)
            #expect(deeper.status == .notFound)
        }
    }

    @Test("Every object of a write's JSON body allows no other fields, as the server refuses them")
    func exactRequestBodies() throws {
        let document = try Self.document()
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        // Files brought in, read by their importers, not by the API's bodies.
        let files: Set<String> = ["post /api/v1/restore", "post /api/v1/ledgers/import/ihatemoney"]
        var open: [String] = []
        func check(_ schema: Any, at place: String, seen: inout Set<String>) {
            if let list = schema as? [Any] {
                for (index, item) in list.enumerated() { check(item, at: "\(place)[\(index)]", seen: &seen) }
            }
            guard let schema = schema as? [String: Any] else { return }
            if let ref = schema["$ref"] as? String, let name = ref.split(separator: "/").last.map(String.init), seen.insert(name).inserted {
                check(schemas[name] ?? [:], at: name, seen: &seen)
            }
            if schema["type"] as? String == "object" || schema["properties"] != nil, schema["additionalProperties"] as? Bool != false {
                open.append(place)
            }
            // if and then only add to the properties beside them.
            for (key, value) in schema where !["$ref", "examples", "default", "if", "then"].contains(key) {
                check(value, at: "\(place).\(key)", seen: &seen)
            }
        }
        for (path, item) in try #require(document["paths"] as? [String: Any]) {
            for (method, operation) in (item as? [String: Any]) ?? [:] where !files.contains("\(method) \(path)") {
                let content = ((operation as? [String: Any])?["requestBody"] as? [String: Any])?["content"] as? [String: Any]
                guard let json = content?["application/json"] as? [String: Any] else { continue }
                var seen: Set<String> = []
                check(json["schema"] ?? [:], at: "\(method) \(path)", seen: &seen)
            }
        }
        #expect(open.sorted() == [], "objects of request bodies without additionalProperties: false")
    }

    static func document() throws -> [String: Any] {
        let yaml = try String(contentsOf: documentURL, encoding: .utf8)
        return try #require(try Yams.load(yaml: yaml) as? [String: Any])
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
