import Foundation
import Testing
import TallyCore
@testable import TallyLanguages

/// Every catalog against the phrases the code says. To see what a catalog lacks as a file to
/// translate: `TALLY_PHRASES_OUT=phrases.json swift test --filter CatalogTests`.
@Suite struct CatalogTests {
    static let phrases = (try? PhraseSources.all()) ?? [:]
    static let translated = Language.all.filter { $0 != .english }

    @Test func theSourcesSayPhrases() throws {
        // The reader of the sources works: it finds phrases of every kind of call.
        #expect(Self.phrases.count > 300)
        #expect(Self.phrases["Today"] != nil)
        #expect(Self.phrases["There is no drink with the id {0}."] != nil)
        let literal = #"t(one: "\(count) drink", other: "\(count) drinks (\("x"))")"#
        let found = PhraseSources.swiftPhrases(in: literal, file: "f")
        #expect(found == [.init(key: "{0} drinks ({1})", singular: "{0} drink", place: "f:1")])
        if let out = ProcessInfo.processInfo.environment["TALLY_PHRASES_OUT"] {
            let listed = Dictionary(uniqueKeysWithValues: Self.phrases.values.map { ($0.key, $0.singular ?? "") })
            try JSONSerialization.data(withJSONObject: listed, options: [.prettyPrinted, .sortedKeys]).write(to: URL(fileURLWithPath: out))
        }
    }

    @Test(arguments: translated)
    func everyPhraseIsTranslated(_ language: Language) throws {
        let entries = try Self.catalog(language)
        let missing = Self.phrases.keys.filter { entries[$0] == nil }.sorted()
        #expect(missing.count == 0, "\(language.tag) lacks \(missing.count): \(missing.prefix(15).map { "\($0) (\(Self.phrases[$0]!.place))" })")
    }

    @Test(arguments: translated)
    func noTranslationIsOfAPhraseNoCodeSays(_ language: Language) throws {
        let unused = try Self.catalog(language).keys.filter { Self.phrases[$0] == nil }.sorted()
        #expect(unused.count == 0, "\(language.tag) has \(unused.count) phrases no code says: \(unused.prefix(15))")
    }

    @Test(arguments: translated)
    func translationsKeepThePlaceholders(_ language: Language) throws {
        for (key, entry) in try Self.catalog(language) {
            let wanted = Self.placeholders(key)
            switch entry {
            case .sentence(let sentence):
                #expect(Self.placeholders(sentence) == wanted, "\(language.tag): \(key) → \(sentence)")
            case .plural(let forms):
                for (category, form) in forms {
                    // A form for one number ("one", "zero", "two") may say it in words.
                    let count = Self.phrases[key].flatMap { _ in Self.countPlaceholder(key) }
                    let given = Self.placeholders(form)
                    let allowed = category == "other" || category == "many" || category == "few" ? wanted : wanted.subtracting(count.map { [$0] } ?? [])
                    #expect(given == wanted || given == allowed, "\(language.tag) \(category): \(key) → \(form)")
                }
            }
        }
    }

    @Test(arguments: translated)
    func pluralsGiveEveryFormOfTheLanguage(_ language: Language) throws {
        let categories = Catalog.of(language).pluralCategories
        for (key, entry) in try Self.catalog(language) {
            let plural = Self.phrases[key]?.singular != nil
            switch entry {
            case .sentence:
                #expect(!plural, "\(language.tag): \(key) has plural forms in the code, one sentence in the catalog")
            case .plural(let forms):
                #expect(plural, "\(language.tag): \(key) has plural forms in the catalog, one sentence in the code")
                #expect(Set(forms.keys) == categories, "\(language.tag): \(key) gives \(forms.keys.sorted()), the language has \(categories.sorted())")
            }
        }
    }

    @Test func everyLanguageHasACatalogFileAndOneEntry() throws {
        for language in Self.translated {
            #expect(throws: Never.self) { try Self.catalog(language) }
            #expect(try Catalog.read(language).count == (try Self.catalog(language)).count, "the build carries \(language.tag) as the sources hold it")
        }
        #expect(Set(Language.all.map(\.tag)).count == Language.all.count)
    }

    /// The catalog file as the sources hold it (which the build copies into the bundle).
    static func catalog(_ language: Language) throws -> [String: Catalog.Entry] {
        try Catalog.entries(of: Data(contentsOf: PhraseSources.root.appendingPathComponent("Sources/TallyLanguages/Catalogs/\(language.tag).json")))
    }

    static func placeholders(_ text: String) -> Set<String> {
        Set(text.matches(of: #/\{[0-9]+\}/#).map { String($0.output) })
    }

    /// The placeholder of a plural phrase's count: its first.
    static func countPlaceholder(_ key: String) -> String? {
        key.firstMatch(of: #/\{[0-9]+\}/#).map { String($0.output) }
    }
}
