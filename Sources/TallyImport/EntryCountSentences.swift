import Foundation
import TallyCore

/// What bringing drinks in did, in the words every import and restore report uses: "Imported 2
/// drinks and 1 removal.", "3 entries were there already.", "New drink kinds: Kvass.".
enum EntryCountSentences {
    /// How the drinks came in: the first sentence's verb.
    enum Way {
        case imported, restored
    }

    static func phrases(_ way: Way, drinks: Int, removals: Int, alreadyThere: Int, newKinds: [String]) -> [Phrase] {
        let drinkWords = Phrase(one: "\(drinks) drink", other: "\(drinks) drinks")
        let removalWords = Phrase(one: "\(removals) removal", other: "\(removals) removals")
        var sentences = [way == .imported ? Phrase("Imported \(drinkWords) and \(removalWords).")
                                          : Phrase("Restored \(drinkWords) and \(removalWords).")]
        if alreadyThere > 0 {
            sentences.append(Phrase(one: "\(alreadyThere) entry was there already.", other: "\(alreadyThere) entries were there already."))
        }
        if !newKinds.isEmpty { sentences.append(Phrase("New drink kinds: \(newKinds.joined(separator: ", ")).")) }
        return sentences
    }
}
