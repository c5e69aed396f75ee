import Foundation
import TallyCore
import TallyLanguages
import TallyRepositories
import Testing

/// The activity log keeps phrases as small JSON objects: each value comes back as it went in,
/// an amount of money too, so that a page writes it as its reader's locale writes money.
@Suite("Phrases as a store keeps them")
struct StoredPhraseTests {
    @Test("Text, counts, inner phrases and money come back whole; money is written in the reader's locale")
    func roundTrip() throws {
        let euros = Money(minorUnits: 123_450, currency: try Currency(code: "EUR"))
        let phrase = Phrase("Added \(money: euros) for \("Dinner"), \(Phrase(one: "\(2) drink", other: "\(2) drinks"))")
        let stored = try #require(Phrase(stored: phrase.stored))
        #expect(stored == phrase)
        #expect(stored.description == "Added 1234.50 EUR for Dinner, 2 drinks", "English's plain description, as the log's text")
        #expect(Written(language: try #require(Language.all.first { $0.tag == "de" })).say(stored).contains("1.234,50\u{A0}€"))
        #expect(Phrase(stored: #"{"k": "{0}", "v": [{"m": 5, "c": "no such"}]}"#) == nil, "an unknown currency is no phrase")
    }
}
