import Foundation

/// Markup whose interpolated values are escaped unless they are HTML themselves, so that a
/// user's note or kind name can never become markup. Pages are built from these with plain
/// Swift: the compiler checks every value a page uses, and there is no template to load.
struct HTML: ExpressibleByStringInterpolation, CustomStringConvertible, Sendable {
    private(set) var description: String

    init(stringLiteral value: String) { description = value }
    init(unsafe raw: String) { description = raw }

    struct StringInterpolation: StringInterpolationProtocol {
        var output = ""
        init(literalCapacity: Int, interpolationCount: Int) { output.reserveCapacity(literalCapacity * 2) }
        mutating func appendLiteral(_ literal: String) { output += literal }
        mutating func appendInterpolation(_ html: HTML) { output += html.description }
        mutating func appendInterpolation(_ parts: [HTML]) { for part in parts { output += part.description } }
        mutating func appendInterpolation(_ value: some CustomStringConvertible) { output += HTML.escape(value.description) }
        mutating func appendInterpolation(_ value: (some CustomStringConvertible)?) {
            if let value { output += HTML.escape(value.description) }
        }
    }

    init(stringInterpolation: StringInterpolation) { description = stringInterpolation.output }

    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// `attribute` when `condition` holds ("checked", "selected"), else nothing.
    static func flag(_ attribute: String, _ condition: Bool) -> HTML {
        condition ? HTML(unsafe: " " + attribute) : ""
    }
}
