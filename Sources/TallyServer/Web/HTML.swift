import Foundation
import TallyCore
import TallyLanguages
import TallyLanguages

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

    /// Escapes `& < > " '` byte by byte in UTF-8. Not by `Character`: a quote followed by a
    /// combining mark is one Character that is not equal to `"`, yet an HTML parser, which reads
    /// code points, still sees the quote and ends the attribute there.
    static func escape(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: needsEscaping) else { return text }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(utf8.count + 16)
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "&"): escaped += Array("&amp;".utf8)
            case UInt8(ascii: "<"): escaped += Array("&lt;".utf8)
            case UInt8(ascii: ">"): escaped += Array("&gt;".utf8)
            case UInt8(ascii: "\""): escaped += Array("&quot;".utf8)
            case UInt8(ascii: "'"): escaped += Array("&#39;".utf8)
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): true
        default: false
        }
    }

    /// `attribute` when `condition` holds ("checked", "selected"), else nothing.
    static func flag(_ attribute: String, _ condition: Bool) -> HTML {
        condition ? HTML(unsafe: " " + attribute) : ""
    }

    /// A sentence with markup among its words, in the reader's language: `HTML.sentence("Drink
    /// from your {0} →", link)`. The sentence is translated and escaped; each `{n}` is then the
    /// n-th piece of markup, which the translation may move.
    static func sentence(_ phrase: Phrase, _ parts: HTML...) -> HTML {
        HTML(unsafe: Phrase.filling(escape(Written.current.say(phrase)), with: parts.map(\.description)))
    }
}
