import Foundation
import TallyCore

/// The API's JSON writer: byte for byte what `JSONEncoder` writes with `.sortedKeys` and
/// `.withoutEscapingSlashes` and instants as `InternetTime.utcSeconds`, in a fraction of its time.
///
/// Every answer of the API goes through it, so its cost is paid on every request: `JSONEncoder`
/// was a quarter of the CPU of today's summary (a dictionary per object, a dynamic cast and an
/// existential box per value). This one writes each scalar's text once, into one buffer, as it is
/// encoded; objects and arrays keep only where their members' text lies, and are joined, keys
/// sorted, at the end. Foundation offers nothing faster, nor does any package this project may use.
public struct WireEncoder: Sendable {
    public init() {}

    /// The JSON of `value`.
    public func encode<Value: Encodable>(_ value: Value) throws -> Data {
        Data(try bytes(of: value))
    }

    /// The JSON of `value`, as bytes to send.
    public func bytes<Value: Encodable>(of value: Value) throws -> [UInt8] {
        if let writable = value as? any WireWritable {
            var json = JSONWriter()
            try writable.write(to: &json)
            return json.bytes
        }
        let scratch = WireScratch()
        guard let root = try WireEncoding(scratch: scratch).value(of: value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "Top-level \(Value.self) did not encode any values."))
        }
        var output: [UInt8] = []
        output.reserveCapacity(scratch.bytes.count + 64)
        root.write(into: &output, from: scratch.bytes)
        return output
    }
}

/// The text of every scalar of one encoding, one after the other.
final class WireScratch {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(1024) }

    /// Writes what `write` appends, and says where it lies.
    @inline(__always)
    func scalar(_ write: (inout [UInt8]) -> Void) -> WireValue {
        let start = bytes.count
        write(&bytes)
        return .scalar(start..<bytes.count)
    }

    func string(_ text: String) -> WireValue { scalar { JSONText.appendString(text, to: &$0) } }
    func literal(_ text: StaticString) -> WireValue {
        scalar { bytes in text.withUTF8Buffer { bytes.append(contentsOf: $0) } }
    }
    func integer<Integer: BinaryInteger>(_ value: Integer) -> WireValue { scalar { JSONText.appendInteger(value, to: &$0) } }

    func number<Float: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Float, at path: @autoclosure () -> [any CodingKey]) throws -> WireValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(
                codingPath: path(), debugDescription: "Unable to encode \(value) directly in JSON."))
        }
        return scalar { JSONText.appendNumber(value, to: &$0) }
    }
}

/// What one value became: its text in the scratch buffer, or an object or array still being filled.
enum WireValue {
    case scalar(Range<Int>)
    case object(WireObject)
    case array(WireArray)
    /// A `superEncoder()`'s value, known only once its encoder is done.
    case pending(WireEncoding)

    func write(into output: inout [UInt8], from scratch: [UInt8]) {
        switch self {
        case .scalar(let range):
            output.append(contentsOf: scratch[range])
        case .object(let object):
            object.write(into: &output, from: scratch)
        case .array(let array):
            output.append(UInt8(ascii: "["))
            for (index, item) in array.items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                item.write(into: &output, from: scratch)
            }
            output.append(UInt8(ascii: "]"))
        case .pending(let encoding):
            (encoding.value ?? .object(WireObject())).write(into: &output, from: scratch)
        }
    }
}

final class WireObject {
    var fields: [(key: String, value: WireValue)] = []

    init() { fields.reserveCapacity(16) }

    /// Keys in the order of their UTF-8 bytes, as `JSONEncoder`'s `.sortedKeys`; a key set twice
    /// keeps its last value, as in `JSONEncoder`'s dictionary.
    func write(into output: inout [UInt8], from scratch: [UInt8]) {
        var order = Array(fields.indices)
        // The answers read most encode their keys in order already: then one pass says so.
        if !fields.indices.dropFirst().allSatisfy({ Self.compare(fields[$0 - 1].key, fields[$0].key) < 0 }) {
            // Of two equal keys, the one set first comes first; only the last is written.
            order.sort { a, b in
                let order = Self.compare(fields[a].key, fields[b].key)
                return order == 0 ? a < b : order < 0
            }
        }
        output.append(UInt8(ascii: "{"))
        var first = true
        for (position, index) in order.enumerated() {
            let field = fields[index]
            if position + 1 < order.count, fields[order[position + 1]].key == field.key { continue }
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            JSONText.appendString(field.key, to: &output)
            output.append(UInt8(ascii: ":"))
            field.value.write(into: &output, from: scratch)
        }
        output.append(UInt8(ascii: "}"))
    }

    /// The order of two keys' UTF-8 bytes: negative, zero or positive.
    private static func compare(_ a: String, _ b: String) -> Int32 {
        var (a, b) = (a, b)
        return a.withUTF8 { a in
            b.withUTF8 { b in
                let shorter = min(a.count, b.count)
                let common = shorter == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, shorter)
                return common != 0 ? common : Int32(a.count) - Int32(b.count)
            }
        }
    }
}

final class WireArray {
    var items: [WireValue] = []
}

/// JSON's text for scalars, as `JSONEncoder` writes them.
package enum JSONText {
    /// Quoted; `"` and `\` escaped, control characters as `\b \f \n \r \t` or `\u00XX`, the rest
    /// (slashes and all of Unicode) as it is.
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var mark = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: utf8[mark..<index])
                mark = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default: bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex(byte >> 4), hex(byte & 0xF)])
                }
            }
            bytes.append(contentsOf: utf8[mark...])
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// An id as `UUID.uuidString` writes it (upper-case hexadecimal in groups of 8-4-4-4-12),
    /// quoted, without the C formatting that `uuidString` goes through.
    static func appendUUID(_ id: UUID, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        withUnsafeBytes(of: id.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { bytes.append(UInt8(ascii: "-")) }
                bytes.append(hex(byte >> 4, upperCase: true))
                bytes.append(hex(byte & 0xF, upperCase: true))
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func hex(_ digit: UInt8, upperCase: Bool = false) -> UInt8 {
        digit < 10 ? UInt8(ascii: "0") + digit : (upperCase ? UInt8(ascii: "A") : UInt8(ascii: "a")) + digit - 10
    }

    /// Specialised here for the callers in other modules (the server's log): through
    /// `BinaryInteger`'s witnesses, a number of three digits took 2,700 instructions.
    package static func appendWholeNumber(_ value: Int64, to bytes: inout [UInt8]) {
        appendInteger(value, to: &bytes)
    }

    static func appendInteger<Integer: BinaryInteger>(_ value: Integer, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    /// The shortest text that reads back as the same number, without a trailing `.0`.
    static func appendNumber<Float: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Float, to bytes: inout [UInt8]) {
        // Whole numbers below 2^(significand bits + 1) are written without an exponent: digits alone.
        if let whole = Int64(exactly: value), abs(whole) < Int64(1) << (Float.significandBitCount + 1),
           !(value == 0 && value.sign == .minus) {
            appendInteger(whole, to: &bytes)
            return
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }
}
