import Foundation

/// A page read the way an HTML parser reads it, code point by code point: its tags with their
/// attributes, and its text, with character references decoded. Enough of the HTML tokenizer for
/// Tally's pages (no inline scripts or styles, whose contents would be raw text), so that a test
/// can tell whether a user's text stayed text.
struct HTMLTokens {
    struct Tag {
        var name: String
        var attributes: [(name: String, value: String)]
    }

    var tags: [Tag] = []
    var texts: [String] = []

    init(_ html: String) {
        let scalars = Array(html.unicodeScalars)
        var i = 0
        var text = String.UnicodeScalarView()

        func flushText() {
            if !text.isEmpty { texts.append(Self.decode(String(text))) }
            text = String.UnicodeScalarView()
        }
        func isLetter(_ scalar: Unicode.Scalar) -> Bool { scalar.isASCII && scalar.properties.isAlphabetic }
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { [" ", "\t", "\n", "\r", "\u{0C}"].contains(scalar) }
        func read(while condition: (Unicode.Scalar) -> Bool) -> String {
            var out = String.UnicodeScalarView()
            while i < scalars.count, condition(scalars[i]) { out.append(scalars[i]); i += 1 }
            return String(out)
        }

        while i < scalars.count {
            let scalar = scalars[i]
            guard scalar == "<", i + 1 < scalars.count else { text.append(scalar); i += 1; continue }
            let next = scalars[i + 1]
            if next == "!" {
                // A comment or the doctype: skipped to its end.
                flushText()
                let closing: [Unicode.Scalar] = i + 3 < scalars.count && scalars[i + 2] == "-" && scalars[i + 3] == "-" ? ["-", "-", ">"] : [">"]
                i += 2
                while i < scalars.count, !scalars[i...].starts(with: closing) { i += 1 }
                i += closing.count
            } else if isLetter(next) || (next == "/" && i + 2 < scalars.count && isLetter(scalars[i + 2])) {
                flushText()
                i += next == "/" ? 2 : 1
                var tag = Tag(name: read { !isSpace($0) && $0 != "/" && $0 != ">" }.lowercased(), attributes: [])
                while i < scalars.count, scalars[i] != ">" {
                    if isSpace(scalars[i]) || scalars[i] == "/" { i += 1; continue }
                    var name = String(scalars[i]); i += 1
                    name += read { !isSpace($0) && $0 != "/" && $0 != ">" && $0 != "=" }
                    _ = read(while: isSpace)
                    var value = ""
                    if i < scalars.count, scalars[i] == "=" {
                        i += 1
                        _ = read(while: isSpace)
                        if i < scalars.count, scalars[i] == "\"" || scalars[i] == "'" {
                            let quote = scalars[i]; i += 1
                            value = read { $0 != quote }
                            i += 1
                        } else {
                            value = read { !isSpace($0) && $0 != ">" }
                        }
                    }
                    tag.attributes.append((name.lowercased(), Self.decode(value)))
                }
                i += 1
                if next != "/" { tags.append(tag) }
            } else {
                text.append(scalar); i += 1
            }
        }
        flushText()
    }

    /// Every attribute value and every run of text: where a user's text may show.
    var strings: [String] { texts + tags.flatMap { $0.attributes.map(\.value) } }

    /// The character references Tally writes, and numeric ones.
    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var i = 0
        let named: [String: Unicode.Scalar] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}"]
        while i < scalars.count {
            if scalars[i] == "&", let end = scalars[i...].prefix(12).firstIndex(of: ";") {
                let name = String(String.UnicodeScalarView(scalars[(i + 1)..<end]))
                var decoded: Unicode.Scalar?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if name.hasPrefix("#") {
                    decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init)
                } else {
                    decoded = named[name]
                }
                if let decoded {
                    out.append(decoded)
                    i = end + 1
                    continue
                }
            }
            out.append(scalars[i]); i += 1
        }
        return String(out)
    }
}

extension String {
    /// Whether `other` occurs in this string code point for code point. Not `contains`, which
    /// compares Characters: a quote followed by a combining mark is not a quote to it.
    func containsScalars(_ other: String) -> Bool {
        let haystack = Array(utf8), needle = Array(other.utf8)
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in haystack[start..<(start + needle.count)].elementsEqual(needle) }
    }

    /// Equality code point for code point (`==` treats canonically equivalent strings as equal).
    func sameScalars(_ other: String) -> Bool { utf8.elementsEqual(other.utf8) }
}
