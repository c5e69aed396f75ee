import Foundation
import TallyLanguages

/// The phrases Tally's source code says, read as the catalogs' keys: the string literal of every
/// `t("…")`, `t(one: "…", other: "…")`, `Phrase("…")`, `HTML.sentence("…")`, TallyError
/// factory (`.invalid("…")`, `.notFound("…")`, `.conflict("…")`, `TallyError(.kind, "…")`) in
/// the Swift sources, and every `tr('…')` / `trCount(n, '…', '…')` in the web app's scripts;
/// each interpolation `\(…)` is `{0}`, `{1}`… as `Phrase` numbers them at run time.
struct PhraseSources {
    /// A key, with its English singular when it has plural forms, and where it was found.
    struct Found: Hashable {
        var key: String
        var singular: String?
        var place: String
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every phrase of the sources, by key.
    static func all() throws -> [String: Found] {
        var found: [String: Found] = [:]
        for (file, text) in try files(under: "Sources", extensions: ["swift"]) {
            for phrase in swiftPhrases(in: text, file: file) where phrase.key.contains(where: \.isLetter) {
                found[phrase.key] = found[phrase.key] ?? phrase
            }
        }
        for (file, text) in try files(under: "Sources/TallyServer/Resources", extensions: ["js"]) {
            for phrase in ScriptPhrases.phrases(in: text) where found[phrase.key] == nil {
                found[phrase.key] = Found(key: phrase.key, singular: phrase.singular, place: file)
            }
        }
        return found
    }

    static func files(under folder: String, extensions: Set<String>) throws -> [(String, String)] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        var result: [(String, String)] = []
        for case let url as URL in walker where extensions.contains(url.pathExtension) {
            result.append((String(url.path.dropFirst(root.path.count + 1)), try String(contentsOf: url, encoding: .utf8)))
        }
        return result.sorted { $0.0 < $1.0 }
    }

    // MARK: Swift

    /// Where a phrase's literal starts: the marker, then the literal's opening quote.
    private static var swiftMarkers: Regex<AnyRegexOutput> { try! Regex(
        #"(?:(?:^|[^A-Za-z0-9_.])t\(|(?:^|[^A-Za-z0-9_])Phrase\(|HTML\.sentence\(|\.invalid\(|\.notFound\(|\.conflict\(|TallyError\(\.[a-zA-Z]+,)\s*(?<one>one:\s*)?""#) }

    static func swiftPhrases(in text: String, file: String) -> [Found] {
        var found: [Found] = []
        for match in text.matches(of: swiftMarkers) {
            let quote = text.index(before: match.range.upperBound)
            guard !text[quote...].hasPrefix("\"\"\""), var literal = swiftLiteral(in: text, at: quote) else { continue }
            let line = text[..<match.range.lowerBound].reduce(1) { $0 + ($1 == "\n" ? 1 : 0) }
            let place = "\(file):\(line)"
            if match.output["one"]?.substring != nil {
                // `one: "…", other: "…"`: the key is the other form.
                let rest = text[literal.end...]
                guard let other = rest.firstMatch(of: #/^\s*,\s*other:\s*"/#) else { continue }
                let singular = literal.key
                guard let plural = swiftLiteral(in: text, at: text.index(before: other.range.upperBound)) else { continue }
                literal = plural
                found.append(Found(key: literal.key, singular: singular, place: place))
            } else {
                found.append(Found(key: literal.key, singular: nil, place: place))
            }
        }
        return found
    }

    /// The key of the Swift string literal whose opening quote is at `quote`, and the index after
    /// its closing quote.
    static func swiftLiteral(in text: String, at quote: String.Index) -> (key: String, end: String.Index)? {
        var key = ""
        var values = 0
        var index = text.index(after: quote)
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" { return (key, text.index(after: index)) }
            if character == "\n" { return nil }
            if character == "\\" {
                let next = text.index(after: index)
                guard next < text.endIndex else { return nil }
                switch text[next] {
                case "(":
                    guard let end = interpolationEnd(in: text, from: text.index(after: next)) else { return nil }
                    key += "{\(values)}"
                    values += 1
                    index = end
                    continue
                case "n": key += "\n"
                case "t": key += "\t"
                case "0": key += "\0"
                case "u":
                    guard let close = text[next...].firstIndex(of: "}"),
                          let scalar = UInt32(text[text.index(next, offsetBy: 2)..<close], radix: 16).flatMap(Unicode.Scalar.init) else { return nil }
                    key.unicodeScalars.append(scalar)
                    index = text.index(after: close)
                    continue
                default: key.append(text[next])
                }
                index = text.index(after: next)
                continue
            }
            key.append(character)
            index = text.index(after: index)
        }
        return nil
    }

    /// The index after the `)` that closes an interpolation opened just before `start`, over
    /// nested parentheses and string literals.
    private static func interpolationEnd(in text: String, from start: String.Index) -> String.Index? {
        var depth = 1
        var index = start
        while index < text.endIndex {
            switch text[index] {
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return text.index(after: index) }
            case "\"":
                guard let literal = swiftLiteral(in: text, at: index) else { return nil }
                index = literal.end
                continue
            default: break
            }
            index = text.index(after: index)
        }
        return nil
    }
}
