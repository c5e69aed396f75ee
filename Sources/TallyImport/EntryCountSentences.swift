import Foundation
import TallyAPI

/// What bringing drinks in did, in the words every import and restore report uses: "Imported 2
/// drinks and 1 removal.", "3 entries were there already.", "New drink kinds: Kvass.".
enum EntryCountSentences {
    static func sentences(_ verb: String, drinks: Int, removals: Int, alreadyThere: Int, newKinds: [String]) -> [String] {
        var sentences = ["\(verb) \(AppleHealthImportReport.counted(drinks, "drink")) and \(AppleHealthImportReport.counted(removals, "removal"))."]
        if alreadyThere > 0 {
            sentences.append("\(AppleHealthImportReport.counted(alreadyThere, "entry", plural: "entries")) \(alreadyThere == 1 ? "was" : "were") there already.")
        }
        if !newKinds.isEmpty { sentences.append("New drink kinds: \(newKinds.joined(separator: ", ")).") }
        return sentences
    }
}
