import Foundation
import TallyCore

/// An answer that writes its own JSON, without `Encodable`'s machinery: the API's most read
/// answers. `WireEncoder` writes such a value this way, and everything else through its
/// `encode(to:)`, which stays the answer's definition for other encoders (`tally --json`).
///
/// Through `encode(to:)`, every member cost a keyed container's existential box, a witness call,
/// generic metadata and exclusivity checks: writing today's summary (8 drinks) took 306,000
/// instructions, 35 % of the request (callgrind), against a few thousand for its text. A value's
/// `write(to:)` must write what its `encode(to:)` would: keys sorted, the same members and values
/// (`WireEncoderTests` compares them with Foundation's `JSONEncoder` for each such type).
public protocol WireWritable: Encodable {
    func write(to json: inout JSONWriter) throws
}

/// JSON written in order, straight into bytes: the caller opens and closes objects and arrays and
/// gives the keys (sorted, plain ASCII), the writer the commas and the values' text, as
/// `JSONEncoder` writes them.
public struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// A value was written in the current object or array: the next one is after a comma.
    private var afterValue = false

    init() { bytes.reserveCapacity(2048) }

    private mutating func value(_ write: (inout [UInt8]) -> Void) {
        if afterValue { bytes.append(UInt8(ascii: ",")) }
        write(&bytes)
        afterValue = true
    }

    public mutating func object(_ members: (inout JSONWriter) throws -> Void) rethrows {
        value { $0.append(UInt8(ascii: "{")) }
        afterValue = false
        try members(&self)
        bytes.append(UInt8(ascii: "}"))
        afterValue = true
    }

    public mutating func array<Items: Sequence>(_ items: Items, _ item: (inout JSONWriter, Items.Element) throws -> Void) rethrows {
        value { $0.append(UInt8(ascii: "[")) }
        afterValue = false
        for element in items { try item(&self, element) }
        bytes.append(UInt8(ascii: "]"))
        afterValue = true
    }

    /// A member's key: a plain ASCII name, which JSON needs no escape for.
    public mutating func key(_ name: StaticString) {
        if afterValue { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        afterValue = false
    }

    public mutating func string(_ text: String) { value { JSONText.appendString(text, to: &$0) } }
    public mutating func bool(_ flag: Bool) { value { $0.append(contentsOf: (flag ? "true" : "false").utf8) } }
    public mutating func null() { value { $0.append(contentsOf: "null".utf8) } }
    public mutating func uuid(_ id: UUID) { value { JSONText.appendUUID(id, to: &$0) } }
    /// An instant as the API writes it (`InternetTime.utcSeconds`).
    public mutating func instant(_ date: Date) { string(InternetTime.utcSeconds(date)) }
    public mutating func text(_ value: some LosslessStringConvertible) { string(value.description) }
    public mutating func choice(_ choice: some NamedChoice) { string(choice.rawValue) }

    /// A number; nil is written as null, and one that is not finite is refused, as `JSONEncoder`
    /// refuses it.
    public mutating func number(_ number: Double?) throws {
        guard let number else { return null() }
        guard number.isFinite else {
            throw EncodingError.invalidValue(number, .init(codingPath: [], debugDescription: "Unable to encode \(number) directly in JSON."))
        }
        value { JSONText.appendNumber(number, to: &$0) }
    }
}
