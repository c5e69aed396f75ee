import Foundation
import TallyCore

/// A start tag read from an XML stream: its name and attributes, entities decoded.
struct XMLTag: Equatable {
    var name: String
    var attributes: [String: String]
}

/// Reads the start tags of an XML document fed to it in chunks of any size, keeping only the
/// unfinished tail between chunks, so that a file of gigabytes goes through in constant memory.
///
/// It is written for Apple Health's `export.xml` and is tolerant where that file is broken,
/// which is why Foundation's `XMLParser` (libxml2) does not fit: exports from iOS 16 have a
/// malformed DTD (an `<!ATTLIST` without its `>`), on which XMLParser with a delegate crashes
/// the process on Linux (Swift 6.3), and stray control characters such as U+000B in values, at
/// which it stops. Some apps also write attribute names with spaces.
/// The scanner skips the whole DOCTYPE, comments, processing instructions, CDATA and text, and
/// reads attributes as `name="value"` pairs, passing over words that are not such pairs.
/// Only the tags named in `wanted` have their attributes read.
struct XMLTagScanner {
    /// A construct longer than this (a tag, a comment, the DTD) means the input is not an export:
    /// Apple's DTD is about 10 KB, a record with all its attributes well under 1 KB.
    static let longestConstruct = 1 << 20

    /// The wanted elements whose end tag has been read: a cut-off file has not closed its root.
    private(set) var closed: Set<String> = []
    private var pending: [UInt8] = []
    private var position = 0
    private let wantedBytes: [(name: String, bytes: [UInt8])]
    /// For an element named here, only tags whose attribute has one of the values are read.
    private let filters: [String: (attribute: [UInt8], values: Set<[UInt8]>)]

    /// `only` narrows an element to the tags whose `attribute` has one of `values` (`Record`
    /// tags of two types among the dozens of an export): the others are passed over without
    /// reading their attributes.
    init(wanted: Set<String>, only: [String: (attribute: String, values: Set<String>)] = [:]) {
        wantedBytes = wanted.map { ($0, Array($0.utf8)) }
        filters = only.mapValues { (Array("\($0.attribute)=".utf8), Set($0.values.map { Array($0.utf8) })) }
    }

    /// Reads the tags complete in what has arrived so far, handing each wanted one to `onTag`.
    mutating func feed(_ chunk: some Collection<UInt8>, onTag: (XMLTag) throws -> Void) throws {
        pending.append(contentsOf: chunk)
        while let lessThan = pending[position...].firstIndex(of: UInt8(ascii: "<")) {
            guard let end = try constructEnd(from: lessThan) else {
                position = lessThan
                break
            }
            if let tag = startTag(pending[lessThan..<end]) {
                try onTag(tag)
            } else if let name = endTag(pending[lessThan..<end]) {
                closed.insert(name)
            }
            position = end
        }
        if pending[position...].firstIndex(of: UInt8(ascii: "<")) == nil { position = pending.count }
        guard pending.count - position <= Self.longestConstruct else {
            throw TallyError.invalid("This file is not an Apple Health export: it has a part longer than 1 MB that never ends.")
        }
        pending.removeFirst(position)
        position = 0
    }

    /// Call after the last chunk: an unfinished tag at the end means a cut-off file.
    func finish() throws {
        guard pending.allSatisfy({ Self.isSpace($0) }) else {
            throw TallyError.invalid("The Apple Health export ends in the middle of a record: the file seems to be cut off.")
        }
    }

    // MARK: - Finding where a construct ends

    /// The index just past the construct that starts with `<` at `start`; nil if it has not all arrived.
    private func constructEnd(from start: Int) throws -> Int? {
        let rest = pending[start...]
        if rest.starts(with: Self.comment) { return end(of: "-->", after: start + 4) }
        if rest.starts(with: Self.cdata) { return end(of: "]]>", after: start + 9) }
        if rest.starts(with: Self.doctype) { return doctypeEnd(after: start + 9) }
        if rest.starts(with: Self.processing) { return end(of: "?>", after: start + 2) }
        if rest.count < Self.doctype.count, Self.doctype.starts(with: rest) || Self.cdata.starts(with: rest) {
            return nil // "<!DOC…" cut by the chunk: wait for the rest to know what it is.
        }
        return tagEnd(after: start + 1)
    }

    private func end(of terminator: String, after start: Int) -> Int? {
        let bytes = Array(terminator.utf8)
        guard pending.count >= bytes.count else { return nil }
        var index = start
        while index + bytes.count <= pending.count {
            guard let next = pending[index...].firstIndex(of: bytes[0]), next + bytes.count <= pending.count else { return nil }
            if pending[next..<next + bytes.count].elementsEqual(bytes) { return next + bytes.count }
            index = next + 1
        }
        return nil
    }

    /// A DOCTYPE ends at `]` and `>` (spaces may come between) when it has an internal subset,
    /// whatever is broken inside it.
    private func doctypeEnd(after start: Int) -> Int? {
        guard let first = pending[start...].firstIndex(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: ">") }) else { return nil }
        if pending[first] == UInt8(ascii: ">") { return first + 1 }
        var index = first + 1
        while let bracket = pending[index...].firstIndex(of: UInt8(ascii: "]")) {
            guard let next = pending[(bracket + 1)...].firstIndex(where: { !Self.isSpace($0) }) else { return nil }
            if pending[next] == UInt8(ascii: ">") { return next + 1 }
            index = bracket + 1
        }
        return nil
    }

    /// A tag ends at the first `>` outside quotes.
    private func tagEnd(after start: Int) -> Int? {
        var quote: UInt8?
        for index in start..<pending.count {
            let byte = pending[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index + 1
            }
        }
        return nil
    }

    // MARK: - Reading a start tag

    private func startTag(_ bytes: ArraySlice<UInt8>) -> XMLTag? {
        var index = bytes.startIndex + 1
        let nameStart = index
        while index < bytes.endIndex, Self.isNameByte(bytes[index]) { index += 1 }
        // Nothing: an end tag, a declaration, or stray text.
        guard index > nameStart, let name = wantedName(bytes[nameStart..<index]) else { return nil }
        if let filter = filters[name] {
            guard let value = Self.value(of: filter.attribute, in: bytes[index...]), filter.values.contains(Array(value)) else { return nil }
        }
        return XMLTag(name: name, attributes: Self.attributes(bytes[index...]))
    }

    /// The name of an end tag of a wanted element.
    private func endTag(_ bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.count > 2, bytes[bytes.startIndex + 1] == UInt8(ascii: "/") else { return nil }
        return wantedName(bytes.dropFirst(2).prefix { Self.isNameByte($0) })
    }

    /// The wanted name these bytes spell, compared without making a String of every tag's name.
    private func wantedName(_ bytes: ArraySlice<UInt8>) -> String? {
        wantedBytes.first { $0.bytes.elementsEqual(bytes) }?.name
    }

    /// The raw value of the attribute `search` (`name=`) in a tag's attribute bytes, in either quote.
    private static func value(of search: [UInt8], in bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var index = bytes.startIndex
        while index + search.count < bytes.endIndex {
            guard let at = bytes[index..<(bytes.endIndex - search.count)].firstIndex(of: search[0]) else { return nil }
            let quote = bytes[at + search.count]
            if at > bytes.startIndex, isSpace(bytes[at - 1]), bytes[at..<at + search.count].elementsEqual(search),
               quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                let start = at + search.count + 1
                guard let end = bytes[start...].firstIndex(of: quote) else { return nil }
                return bytes[start..<end]
            }
            index = at + 1
        }
        return nil
    }

    private static func attributes(_ bytes: ArraySlice<UInt8>) -> [String: String] {
        var attributes: [String: String] = [:]
        var index = bytes.startIndex
        while index < bytes.endIndex {
            while index < bytes.endIndex, !isNameByte(bytes[index]) { index += 1 }
            let nameStart = index
            while index < bytes.endIndex, isNameByte(bytes[index]) { index += 1 }
            let nameEnd = index
            while index < bytes.endIndex, isSpace(bytes[index]) { index += 1 }
            // A word without `=` (part of a name with spaces): pass over it.
            guard nameEnd > nameStart, index < bytes.endIndex, bytes[index] == UInt8(ascii: "=") else { continue }
            index += 1
            while index < bytes.endIndex, isSpace(bytes[index]) { index += 1 }
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { continue }
            let quote = bytes[index]
            let valueStart = index + 1
            guard let valueEnd = bytes[valueStart...].firstIndex(of: quote) else { break }
            let name = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)
            let value = String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)
            // Looking for "&" in the bytes: String.contains goes through Foundation on Linux, and
            // that was a quarter of the time of reading a big export.
            attributes[name] = bytes[valueStart..<valueEnd].contains(UInt8(ascii: "&")) ? decodeEntities(value) : value
            index = valueEnd + 1
        }
        return attributes
    }

    /// The five named entities and numeric character references; anything else is kept as written.
    static func decodeEntities(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].prefix(12).firstIndex(of: ";") else {
                result += rest[ampersand...]
                return result
            }
            let entity = rest[rest.index(after: ampersand)..<semicolon]
            if let decoded = decode(entity) {
                result.append(decoded)
            } else {
                result += rest[ampersand...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    private static func decode(_ entity: Substring) -> Character? {
        switch entity {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard entity.first == "#" else { return nil }
            let digits = entity.dropFirst()
            let code = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return code.flatMap(Unicode.Scalar.init).map(Character.init)
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ":"), 0x80...: true
        default: false
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static let comment = Array("<!--".utf8)
    private static let cdata = Array("<![CDATA[".utf8)
    private static let doctype = Array("<!DOCTYPE".utf8)
    private static let processing = Array("<?".utf8)
}
