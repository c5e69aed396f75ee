import Foundation

/// A sentence a person reads, kept as its English template and its values until it is written
/// in the reader's language: `"There is no drink with the id \(id)."` is the phrase whose key is
/// `There is no drink with the id {0}.` and whose one value is the id.
///
/// The key is the English sentence with each interpolated value as `{0}`, `{1}`…: a catalog
/// (TallyLanguages) translates the key and puts the values back, formatted in the reader's
/// locale (a count grouped as they group digits). A phrase with plural forms keeps its English
/// singular beside its key, and a catalog gives each of its language's plural categories.
public struct Phrase: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// A value put into a phrase.
    public indirect enum Value: Sendable, Hashable {
        /// Text as it is: a name, a note, an id, something already written for the reader.
        case text(String)
        /// A whole number, written with the locale's digits and grouping; it picks a plural form.
        case count(Int)
        /// A phrase inside a phrase ("the amount" inside "{0} must be a number"), translated too.
        case phrase(Phrase)
        /// An amount of money, written as the reader's locale writes it ("€1,234.50",
        /// "1.234,50 €"); "1234.50 EUR" in English's plain description.
        case money(Money)
    }

    /// The English template, which is the catalog's key.
    public let key: String
    public let values: [Value]
    /// For a phrase with plural forms: its English singular template ("{0} drink"); the key is
    /// its other form ("{0} drinks"), and the first count picks between them.
    public let singular: String?

    public init(key: String, values: [Value] = [], singular: String? = nil) {
        self.key = key
        self.values = values
        self.singular = singular
    }

    /// Phrases one per line, each translated on its own.
    public static func lines(_ phrases: [Phrase]) -> Phrase {
        Phrase(key: phrases.indices.map { "{\($0)}" }.joined(separator: "\n"), values: phrases.map { .phrase($0) })
    }

    /// A phrase with plural forms: `Phrase(one: "\(n) drink", other: "\(n) drinks")`.
    public init(one: Phrase, other: Phrase) {
        self.init(key: other.key, values: other.values, singular: one.key)
    }

    public init(stringLiteral value: String) { self.init(key: value) }

    /// A phrase written where no parameter says it is one: `Phrase("Choose a file.")`, which is
    /// how the catalog check finds it in the source.
    public init(_ phrase: Phrase) { self = phrase }

    /// Text that is already written for its reader (another server's sentence, a system
    /// library's): shown as it is, in every language.
    public static func verbatim(_ text: String) -> Phrase { Phrase(key: "{0}", values: [.text(text)]) }

    /// An amount of money alone, written as each reader's locale writes it.
    public static func money(_ money: Money) -> Phrase { Phrase(key: "{0}", values: [.money(money)]) }

    public init(stringInterpolation: StringInterpolation) {
        self.init(key: stringInterpolation.key, values: stringInterpolation.values)
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var key = ""
        var values: [Value] = []

        public init(literalCapacity: Int, interpolationCount: Int) { key.reserveCapacity(literalCapacity + 4 * interpolationCount) }
        public mutating func appendLiteral(_ literal: String) { key += literal }
        public mutating func appendInterpolation(_ count: Int) { append(.count(count)) }
        public mutating func appendInterpolation(_ phrase: Phrase) { append(.phrase(phrase)) }
        /// `"\(money: amount)"`: the amount as the reader's locale writes it, not its plain description.
        public mutating func appendInterpolation(money: Money) { append(.money(money)) }
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) { append(.text(value.description)) }

        private mutating func append(_ value: Value) {
            key += "{\(values.count)}"
            values.append(value)
        }
    }

    /// The count that picks a plural form: the phrase's first.
    public var count: Int? {
        for case .count(let count) in values { return count }
        return nil
    }

    /// The phrase in English, with plain digits: for logs, the CLI's `--json`, and tests.
    public var description: String {
        let template = singular != nil && count == 1 ? singular ?? key : key
        return Self.filling(template, with: values.map { value in
            switch value {
            case .text(let text): text
            case .count(let count): String(count)
            case .phrase(let phrase): phrase.description
            case .money(let money): money.description
            }
        })
    }

    /// `template` with each `{n}` replaced by `values[n]`; a placeholder with no value stays.
    public static func filling(_ template: String, with values: [String]) -> String {
        guard !values.isEmpty, template.utf8.contains(UInt8(ascii: "{")) else { return template }
        var result = ""
        result.reserveCapacity(template.utf8.count + 16)
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"),
               let index = Int(rest[afterOpen..<close]), values.indices.contains(index) {
                result += values[index]
                rest = rest[rest.index(after: close)...]
            } else {
                result += "{"
                rest = rest[afterOpen...]
            }
        }
        return result + rest
    }
}
