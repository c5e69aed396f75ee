import Foundation

/// The phrases the web app's scripts say, and their translations for a page to carry: the
/// scripts write every word through `tr('…')` and `trCount(n, '…one…', '…other…')` (app.js),
/// keyed by the English phrase as the catalogs are.
public enum ScriptPhrases {
    private static var scriptCalls: Regex<AnyRegexOutput> { try! Regex(#"(?:^|[^A-Za-z0-9_$.])(?<call>tr|trCount)\("#) }

    /// `tr('…')` and `trCount(n, '…one…', '…other…')`: plain JavaScript literals in single or
    /// double quotes, whose placeholders are written `{0}` as they are.
    public static func phrases(in text: String) -> [(key: String, singular: String?)] {
        var found: [(key: String, singular: String?)] = []
        for match in text.matches(of: scriptCalls) {
            var literals: [String] = []
            var depth = 0
            var index = match.range.upperBound
            while index < text.endIndex, literals.count < 2 {
                let character = text[index]
                if character == "'" || character == "\"" {
                    guard let (literal, end) = scriptLiteral(in: text, at: index) else { break }
                    literals.append(literal)
                    index = end
                    continue
                }
                if character == "(" { depth += 1 }
                if character == ")" { if depth == 0 { break } else { depth -= 1 } }
                if character == ";" { break }
                index = text.index(after: index)
            }
            if match.output["call"]?.substring == "tr", let key = literals.first {
                found.append((key, nil))
            } else if literals.count == 2 {
                found.append((literals[1], literals[0]))
            }
        }
        return found
    }

    private static func scriptLiteral(in text: String, at quote: String.Index) -> (String, String.Index)? {
        let delimiter = text[quote]
        var literal = ""
        var index = text.index(after: quote)
        while index < text.endIndex {
            let character = text[index]
            if character == delimiter { return (literal, text.index(after: index)) }
            if character == "\\" {
                index = text.index(after: index)
                guard index < text.endIndex else { return nil }
            }
            literal.append(text[index])
            index = text.index(after: index)
        }
        return nil
    }

    /// The translations of `keys` in `language`, as the JSON object a page carries for its
    /// scripts: a phrase's sentence, or its plural forms by CLDR category; phrases the catalog
    /// lacks are left out (the scripts say them in English).
    public static func words(for keys: [String], in language: Language) -> String {
        let entries = Catalog.of(language).entries
        var object: [String: Any] = [:]
        for key in keys {
            switch entries[key] {
            case .sentence(let sentence)?: object[key] = sentence
            case .plural(let forms)?: object[key] = forms
            case nil: continue
            }
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        // In a <script> element, "</" would end it: JSON allows "<\/".
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "</", with: "<\\/")
    }
}
