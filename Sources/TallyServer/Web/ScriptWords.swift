import Foundation
import NIOCore
import TallyLanguages

/// The translations a page carries for the web app's scripts: the phrases app.js and
/// spending.js say (read from the scripts themselves once), in each language, as JSON.
enum ScriptWords {
    /// The JSON object for a page in `language`; nil in English, which the scripts speak.
    static func json(for language: Language) -> String? {
        language == .english ? nil : written[language.tag]
    }

    private static let keys: [String] = ["app.js", "spending.js"].flatMap { name -> [String] in
        guard let script = StaticAssets.byName[name] else { return [] }
        return ScriptPhrases.phrases(in: String(buffer: script.plain)).map(\.key)
    }

    private static let written: [String: String] = Dictionary(uniqueKeysWithValues: Language.all.map { language in
        (language.tag, ScriptPhrases.words(for: keys, in: language))
    })
}
