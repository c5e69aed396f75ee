import Foundation

/// The methods the API uses.
public enum HTTPVerb: String, Sendable, CaseIterable {
    case get = "GET", post = "POST", put = "PUT", patch = "PATCH", delete = "DELETE"
}

/// One route of the API: its method, its path under `/api/v1`, the body it reads and the answer
/// it gives. The server registers its handler against this value and the command line sends
/// requests with it, so that neither spells a path or a body of its own.
public struct Route<Body: Sendable, Answer: Sendable>: Sendable, CustomStringConvertible {
    public let method: HTTPVerb
    /// The path under `/api/v1`, parameters in braces: `ledgers/{ledger}/entries/{id}`.
    public let template: String

    public init(_ method: HTTPVerb, _ template: String) {
        self.method = method
        self.template = template
    }

    /// The parameters' names, in the order they appear.
    public var parameters: [String] {
        template.split(separator: "/").compactMap { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? String(part.dropFirst().dropLast()) : nil
        }
    }

    /// The path with its parameters filled in, in the order they appear.
    public func path(_ values: any CustomStringConvertible...) -> String { path(values) }

    public func path(_ values: [any CustomStringConvertible]) -> String {
        var values = values.makeIterator()
        return template.split(separator: "/").map { part in
            part.hasPrefix("{") ? (values.next().map { Self.pathSegment("\($0)") } ?? String(part)) : String(part)
        }.joined(separator: "/")
    }

    /// As openapi.yaml writes it: `GET /api/v1/intakes/{id}`.
    public var description: String { "\(method.rawValue) /api/v1/\(template)" }

    private static func pathSegment(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? value
    }
}

/// A request without a body, or an answer of 204 No Content.
public struct NoBody: Codable, Sendable, Equatable {
    public init() {}
}

/// A body that is a file, not JSON: an export brought in, or a ledger's export going out.
public struct FileBody: Sendable {}

/// A request body whose fields are all optional, so that no body at all means all of them absent.
public protocol OptionalFields: Decodable {}
