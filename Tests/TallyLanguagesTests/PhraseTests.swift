import Foundation
import Testing
import TallyCore
@testable import TallyLanguages

@Suite struct PhraseTests {
    @Test func aPhraseKeepsItsTemplateAndValues() {
        let id = "abc"
        let phrase: Phrase = "There is no drink with the id \(id)."
        #expect(phrase.key == "There is no drink with the id {0}.")
        #expect(phrase.values == [.text("abc")])
        #expect(phrase.description == "There is no drink with the id abc.")
    }

    @Test func englishPicksItsSingularForOne() {
        for (count, expected) in [(0, "0 drinks"), (1, "1 drink"), (2, "2 drinks"), (1234, "1,234 drinks")] {
            let phrase = Phrase(one: "\(count) drink", other: "\(count) drinks")
            #expect(Written(language: .english).say(phrase) == expected)
        }
    }

    @Test func arabicHasSixPluralCategoriesFromCLDR() {
        let rules = PluralRules(locale: "ar")
        #expect(rules.categories == ["zero", "one", "two", "few", "many", "other"])
        #expect([0, 1, 2, 3, 10, 11, 99, 100, 102].map(rules.category) == ["zero", "one", "two", "few", "few", "many", "many", "other", "other"])
    }

    @Test func polishHasFewAndMany() {
        let rules = PluralRules(locale: "pl")
        #expect([1, 2, 4, 5, 12, 22, 25].map(rules.category) == ["one", "few", "few", "many", "many", "few", "many"])
    }

    @Test func aTranslationPutsTheValuesBackInItsOwnOrder() {
        let catalog = Catalog(language: Language.matching("de")!, entries: [
            "{0} paid {1}.": .sentence("{1} bezahlte {0}."),
            "{0} drinks": .plural(["one": "{0} Getränk", "other": "{0} Getränke"]),
        ])
        let payer = "Ana", amount = "12,50 €"
        #expect(catalog.template(for: "\(payer) paid \(amount).") == "{1} bezahlte {0}.")
        #expect(catalog.template(for: Phrase(one: "\(1) drink", other: "\(1) drinks")) == "{0} Getränk")
        #expect(catalog.template(for: Phrase(one: "\(7) drink", other: "\(7) drinks")) == "{0} Getränke")
        // A phrase the catalog lacks is English.
        #expect(catalog.template(for: "Unknown.") == "Unknown.")
    }

    @Test func countsAreWrittenInTheReadersDigits() {
        let german = Written(language: Language.matching("de")!)
        let said = german.say("History covers 1 to 366 days; \(1500) is out of range.")
        #expect(said.contains("1.500") && !said.contains("History"), "\(said)")
    }

    @Test func theLanguageComesFromTheAccountThenTheBrowser() {
        #expect(Written(acceptLanguage: "de-AT,de;q=0.9,en;q=0.5").language.tag == "de")
        #expect(Written(acceptLanguage: "de-AT,de;q=0.9").locale.identifier == "de_AT")
        #expect(Written(acceptLanguage: "pt-BR").language.tag == "pt-BR")
        #expect(Written(acceptLanguage: "ja-JP, fr;q=0.8").language.tag == "fr")
        #expect(Written(acceptLanguage: "ja-JP").language == .english)
        #expect(Written(acceptLanguage: nil).locale.identifier == "en_US")
        #expect(Written(chosen: Language.matching("ar"), acceptLanguage: "de-DE").language.tag == "ar")
        #expect(Written(chosen: Language.matching("ar"), acceptLanguage: "de-DE").language.rightToLeft)
    }

    @Test("A browser's weights count: the most wanted first, q=0 is not wanted, and a weight out of range is no weight")
    func weights() {
        #expect(Written(acceptLanguage: "de;q=-1").language == .english)
        #expect(Written(acceptLanguage: "de;q=2, fr;q=0.5").language.tag == "fr")
        #expect(Written(acceptLanguage: "de;q=0").language == .english)
        #expect(Written(acceptLanguage: "de;q=nan, es;q=0.1").language.tag == "es")
        #expect(Written(acceptLanguage: "de;q=0.2, fr;q=0.9").language.tag == "fr")
        #expect(Written(acceptLanguage: "fr;q=0.5, de;q=0.5").language.tag == "fr", "equal weights keep their order")
        #expect(Written.acceptedTags("en-GB, de;q=0.8, fr;Q=0.9") == ["en-GB", "fr", "de"])
    }
}

@Suite struct ReadingNumbersTests {
    func reading(_ typed: String, in tag: String) -> String {
        Written(language: Language.matching(tag)!, locale: Locale(identifier: tag.replacingOccurrences(of: "-", with: "_"))).plainNumber(typed)
    }

    @Test func eachLocaleReadsWhatItWritesAndAPlainNumber() {
        #expect(reading("1.234,56", in: "de-DE") == "1234.56")
        #expect(reading("12,50", in: "de-DE") == "12,50")
        #expect(reading("12.50", in: "de-DE") == "12.50")
        #expect(reading("1,234.56", in: "en-US") == "1234.56")
        #expect(reading("12.50", in: "en-US") == "12.50")
        #expect(reading("1\u{202F}234,56", in: "fr-FR") == "1234.56")
        #expect(reading("1 234,56", in: "fr-FR") == "1234.56")
        #expect(reading("١٢٫٥٠", in: "ar") == "12.50")
        #expect(reading("١٬٢٣٤٫٥٠", in: "ar") == "1234.50")
    }

    @Test func anInputsPatternTakesWhatTheLocaleReads() throws {
        func matches(_ typed: String, in tag: String) throws -> Bool {
            let written = Written(language: Language.matching(tag)!, locale: Locale(identifier: tag.replacingOccurrences(of: "-", with: "_")))
            let pattern = try NSRegularExpression(pattern: "^(?:" + written.numberPattern(decimals: 2) + ")$")
            return pattern.firstMatch(in: typed, range: NSRange(typed.startIndex..., in: typed)) != nil
        }
        #expect(try matches("1.234,56", in: "de-DE") && matches("12.345", in: "de-DE") && matches("12,50", in: "de-DE"))
        #expect(try matches("1,234.56", in: "en-US") && matches("12.50", in: "en-US") && matches("12,50", in: "en-US"))
        #expect(try !matches("12.345", in: "en-US"), "three decimals in English are refused before they are sent")
        #expect(try matches("1\u{202F}234,56", in: "fr-FR") && matches("١٢٫٥٠", in: "ar"))
        #expect(try !matches("12.5.0", in: "de-DE") && !matches("abc", in: "en-US"))
    }

    @Test func whatIsNotANumberOfTheLocaleIsLeftForTheParserToRefuse() {
        #expect(reading("1.234,56", in: "en-US") == "1.234,56")
        #expect(reading("12.34.5", in: "de-DE") == "12.34.5")
        #expect(reading("abc", in: "de-DE") == "abc")
        #expect(reading("1.23,4", in: "de-DE") == "1.23,4")
    }
}

@Suite struct TerminalLanguageTests {
    @Test func theTerminalsLocaleChoosesTheLanguage() {
        #expect(Written(environment: ["LANG": "de_DE.UTF-8"]).language.tag == "de")
        #expect(Written(environment: ["LANG": "de_DE.UTF-8"]).locale.identifier == "de_DE")
        #expect(Written(environment: ["LANG": "de_DE.UTF-8", "LC_ALL": "fr_FR.UTF-8"]).language.tag == "fr")
        #expect(Written(environment: ["LANG": "pt_BR.UTF-8"]).language.tag == "pt-BR")
        #expect(Written(environment: ["LANG": "C.UTF-8"]).language == .english)
        #expect(Written(environment: ["LANG": "POSIX"]).language == .english)
        #expect(Written(environment: [:]).language == .english)
        #expect(Written(environment: ["LANG": "ja_JP.UTF-8"]).language == .english)
    }

    /// The command line asks `language(environment:)` first and builds a `Written` only when it
    /// is not English: both must read the environment alike.
    @Test(arguments: [["LANG": "de_DE.UTF-8"], ["LANG": "de_DE.UTF-8", "LC_ALL": "fr_FR.UTF-8"],
                      ["LANG": "en_GB.UTF-8", "LC_MESSAGES": "ar"], ["LANG": "pt_BR.UTF-8@x"], ["LANG": "en_GB.UTF-8"],
                      ["LANG": "C.UTF-8"], ["LANG": "POSIX"], [:], ["LANG": "ja_JP.UTF-8"], ["LC_ALL": "", "LANG": "es_ES"]])
    func theLanguageAloneIsTheInitializersLanguage(environment: [String: String]) {
        let written = Written(environment: environment)
        #expect(Written.language(environment: environment) == (written.language == .english ? nil : written.language))
    }

    @Test func anEnglishTerminalKeepsItsRegion() {
        #expect(Written(environment: ["LANG": "en_GB.UTF-8"]).locale.identifier == "en_GB")
        #expect(Written.language(environment: ["LANG": "en_GB.UTF-8"]) == nil)
    }
}
