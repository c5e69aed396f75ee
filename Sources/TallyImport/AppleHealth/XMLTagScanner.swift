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
    var closed: Set<String> { Set(wantedBytes.indices.filter { closedWanted[$0] }.map { wantedBytes[$0].name }) }
    private var closedWanted: [Bool]
    private var pending: [UInt8] = []
    private var position = 0
    private let wantedBytes: [(name: String, bytes: [UInt8])]
    /// For an element named here (by its index in `wantedBytes`), only tags whose attribute has
    /// one of the values are read.
    private let filters: [(attribute: [UInt8], values: [[UInt8]])?]

    /// `only` narrows an element to the tags whose `attribute` has one of `values` (`Record`
    /// tags of two types among the dozens of an export): the others are passed over without
    /// reading their attributes.
    init(wanted: Set<String>, only: [String: (attribute: String, values: Set<String>)] = [:]) {
        wantedBytes = wanted.map { ($0, Array($0.utf8)) }
        closedWanted = Array(repeating: false, count: wantedBytes.count)
        filters = wantedBytes.map { wanted in
            only[wanted.name].map { (Array("\($0.attribute)=".utf8), $0.values.map { Array($0.utf8) }) }
        }
    }

    // The bytes are read through a pointer: this runs for every byte of files of gigabytes, and
    // the same loops over array slices (bounds checks, retains of the array) were most of the
    // time of an import.
    private typealias Bytes = UnsafeBufferPointer<UInt8>

    /// Reads the tags complete in what has arrived so far, handing each wanted one to `onTag`.
    mutating func feed(_ chunk: some Collection<UInt8>, onTag: (XMLTag) throws -> Void) throws {
        pending.append(contentsOf: chunk)
        var closedNow: [Int] = []
        position = try pending.withUnsafeBufferPointer { bytes in
            var position = self.position
            while true {
                guard let lessThan = Self.index(of: UInt8(ascii: "<"), in: bytes, from: position) else { return bytes.count }
                guard let end = constructEnd(bytes, from: lessThan) else { return lessThan }
                if let tag = startTag(bytes, lessThan..<end) {
                    try onTag(tag)
                } else if let wanted = endTag(bytes, lessThan..<end) {
                    closedNow.append(wanted)
                }
                position = end
            }
        }
        for wanted in closedNow { closedWanted[wanted] = true }
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

    /// The first index of `byte` at or after `start`, and before `end` if given.
    private static func index(of byte: UInt8, in bytes: Bytes, from start: Int, before end: Int? = nil) -> Int? {
        let end = min(end ?? bytes.count, bytes.count)
        guard start < end, let base = bytes.baseAddress,
              let found = memchr(base + start, Int32(byte), end - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Whether `pattern` is written at `start` (all of it).
    private static func matches(_ pattern: [UInt8], in bytes: Bytes, at start: Int) -> Bool {
        guard start + pattern.count <= bytes.count, let base = bytes.baseAddress else { return false }
        return pattern.withUnsafeBufferPointer { memcmp(base + start, $0.baseAddress!, pattern.count) == 0 }
    }

    /// Whether `bytes[range]` are the bytes of `pattern`.
    private static func equal(_ bytes: Bytes, _ range: Range<Int>, _ pattern: [UInt8]) -> Bool {
        range.count == pattern.count && matches(pattern, in: bytes, at: range.lowerBound)
    }

    /// The index just past the construct that starts with `<` at `start`; nil if it has not all arrived.
    private func constructEnd(_ bytes: Bytes, from start: Int) -> Int? {
        if Self.matches(Self.comment, in: bytes, at: start) { return Self.end(of: Self.commentEnd, in: bytes, after: start + 4) }
        if Self.matches(Self.cdata, in: bytes, at: start) { return Self.end(of: Self.cdataEnd, in: bytes, after: start + 9) }
        if Self.matches(Self.doctype, in: bytes, at: start) { return Self.doctypeEnd(bytes, after: start + 9) }
        if Self.matches(Self.processing, in: bytes, at: start) { return Self.end(of: Self.processingEnd, in: bytes, after: start + 2) }
        let rest = bytes.count - start
        if rest < Self.doctype.count, Self.doctype.starts(with: bytes[start...]) || Self.cdata.starts(with: bytes[start...]) {
            return nil // "<!DOC…" cut by the chunk: wait for the rest to know what it is.
        }
        return Self.tagEnd(bytes, after: start + 1)
    }

    private static func end(of terminator: [UInt8], in bytes: Bytes, after start: Int) -> Int? {
        var index = start
        while index + terminator.count <= bytes.count {
            guard let next = Self.index(of: terminator[0], in: bytes, from: index), next + terminator.count <= bytes.count else { return nil }
            if matches(terminator, in: bytes, at: next) { return next + terminator.count }
            index = next + 1
        }
        return nil
    }

    /// A DOCTYPE ends at `]` and `>` (spaces may come between) when it has an internal subset,
    /// whatever is broken inside it.
    private static func doctypeEnd(_ bytes: Bytes, after start: Int) -> Int? {
        guard start < bytes.count,
              let first = bytes[start...].firstIndex(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: ">") }) else { return nil }
        if bytes[first] == UInt8(ascii: ">") { return first + 1 }
        var index = first + 1
        while let bracket = Self.index(of: UInt8(ascii: "]"), in: bytes, from: index) {
            guard bracket + 1 < bytes.count, let next = bytes[(bracket + 1)...].firstIndex(where: { !isSpace($0) }) else { return nil }
            if bytes[next] == UInt8(ascii: ">") { return next + 1 }
            index = bracket + 1
        }
        return nil
    }

    /// A tag ends at the first `>` outside quotes.
    private static func tagEnd(_ bytes: Bytes, after start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") { return index + 1 }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                // Inside a quoted value: straight to its closing quote.
                guard let close = Self.index(of: byte, in: bytes, from: index + 1) else { return nil }
                index = close
            }
            index += 1
        }
        return nil
    }

    // MARK: - Reading a start tag

    private func startTag(_ bytes: Bytes, _ construct: Range<Int>) -> XMLTag? {
        var index = construct.lowerBound + 1
        let nameStart = index
        while index < construct.upperBound, Self.isNameByte(bytes[index]) { index += 1 }
        // Nothing: an end tag, a declaration, or stray text.
        guard index > nameStart, let wanted = wantedIndex(bytes, nameStart..<index) else { return nil }
        if let filter = filters[wanted] {
            guard let value = Self.value(of: filter.attribute, in: bytes, index..<construct.upperBound),
                  filter.values.contains(where: { Self.equal(bytes, value, $0) }) else { return nil }
        }
        return XMLTag(name: wantedBytes[wanted].name, attributes: Self.attributes(ArraySlice(bytes[index..<construct.upperBound])))
    }

    /// The index in `wantedBytes` of the element whose end tag this is.
    private func endTag(_ bytes: Bytes, _ construct: Range<Int>) -> Int? {
        guard construct.count > 2, bytes[construct.lowerBound + 1] == UInt8(ascii: "/") else { return nil }
        var end = construct.lowerBound + 2
        while end < construct.upperBound, Self.isNameByte(bytes[end]) { end += 1 }
        return wantedIndex(bytes, (construct.lowerBound + 2)..<end)
    }

    /// The wanted element these bytes name, compared without making a String of every tag's name.
    private func wantedIndex(_ bytes: Bytes, _ name: Range<Int>) -> Int? {
        wantedBytes.firstIndex { Self.equal(bytes, name, $0.bytes) }
    }

    /// Where the raw value of the attribute `search` (`name=`) is in `bytes[range]`, in either quote.
    private static func value(of search: [UInt8], in bytes: Bytes, _ range: Range<Int>) -> Range<Int>? {
        var index = range.lowerBound
        while index + search.count < range.upperBound {
            guard let at = Self.index(of: search[0], in: bytes, from: index, before: range.upperBound - search.count) else { return nil }
            let quote = bytes[at + search.count]
            if at > range.lowerBound, isSpace(bytes[at - 1]), matches(search, in: bytes, at: at),
               quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                let start = at + search.count + 1
                guard let end = Self.index(of: quote, in: bytes, from: start, before: range.upperBound) else { return nil }
                return start..<end
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
    private static let commentEnd = Array("-->".utf8)
    private static let cdata = Array("<![CDATA[".utf8)
    private static let cdataEnd = Array("]]>".utf8)
    private static let doctype = Array("<!DOCTYPE".utf8)
    private static let processing = Array("<?".utf8)
    private static let processingEnd = Array("?>".utf8)
}
