import Foundation
import TallyCore

/// One language's translations, keyed by the English phrase (`Catalogs/<tag>.json`): a key's
/// value is its sentence, or, for a phrase with plural forms, one sentence per CLDR category of
/// the language ("one", "few", "many", "other"…). English has no catalog: its sentences are the
/// keys, and its singulars are in the code.
public struct Catalog: Sendable {
    public enum Entry: Sendable, Equatable, Decodable {
        case sentence(String)
        case plural([String: String])

        public init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let sentence = try? container.decode(String.self) {
                self = .sentence(sentence)
            } else {
                self = .plural(try container.decode([String: String].self))
            }
        }
    }

    public let language: Language
    public let entries: [String: Entry]
    let plurals: PluralRules

    init(language: Language, entries: [String: Entry]) {
        self.language = language
        self.entries = entries
        plurals = PluralRules(locale: language.locale)
    }

    /// The catalog shipped for `language`; an empty one if its file is missing or unreadable
    /// (the catalog tests make sure neither happens).
    /// Each is read once, when a reader of its language first needs it: English needs none, so
    /// an English command reads no catalog.
    public static func of(_ language: Language) -> Catalog {
        shelf.lock.withLock {
            if let catalog = shelf.catalogs[language.tag] { return catalog }
            let catalog = Catalog(language: language, entries: (try? read(language)) ?? [:])
            shelf.catalogs[language.tag] = catalog
            return catalog
        }
    }

    /// The catalogs read so far, by tag, behind their lock.
    private final class Shelf: @unchecked Sendable {
        let lock = NSLock()
        var catalogs: [String: Catalog] = [:]
    }

    private static let shelf = Shelf()

    /// The entries of a language's catalog file, as they are written.
    public static func read(_ language: Language) throws -> [String: Entry] {
        guard language != .english else { return [:] }
        guard let url = Bundle.module.url(forResource: language.tag, withExtension: "json", subdirectory: "Catalogs") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try entries(of: Data(contentsOf: url))
    }

    /// The entries of a catalog file's contents.
    public static func entries(of file: Data) throws -> [String: Entry] {
        try JSONDecoder().decode([String: Entry].self, from: file)
    }

    /// The CLDR plural categories of the language: the forms a plural entry must give.
    public var pluralCategories: Set<String> { plurals.categories }

    /// The template for `phrase` in this language: its translation (the plural form its count
    /// asks for), else its English.
    func template(for phrase: Phrase) -> String {
        let category = phrase.singular == nil ? nil : plurals.category(phrase.count ?? 0)
        switch entries[phrase.key] {
        case .sentence(let sentence)?:
            return sentence
        case .plural(let forms)?:
            return category.flatMap { forms[$0] } ?? forms["other"] ?? phrase.key
        case nil:
            return category == "one" ? phrase.singular ?? phrase.key : phrase.key
        }
    }
}
