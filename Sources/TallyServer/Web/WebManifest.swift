import Foundation
import TallyLanguages

/// The web app's manifest (A3) in a language: its description and home-screen shortcuts in the
/// reader's words, with `lang` and `dir`. Pages link the one of their language
/// (`/manifest.webmanifest?lang=de`; English without the query).
enum WebManifest {
    /// The manifest's bytes for `language`, written once per language.
    static func bytes(for language: Language) -> [UInt8] {
        written[language.tag] ?? written[Language.english.tag] ?? []
    }

    /// The address a page in `language` links.
    static func link(for language: Language) -> String {
        language == .english ? SitePath.manifest.link : SitePath.manifest.link + "?lang=" + language.tag
    }

    private static let written: [String: [UInt8]] = Dictionary(uniqueKeysWithValues: Language.all.map { language in
        (language.tag, Written.$current.withValue(Written(language: language)) { json(language) })
    })

    private static func json(_ language: Language) -> [UInt8] {
        let icon192: [String: Any] = ["src": "/static/icon-192.png", "sizes": "192x192", "type": "image/png"]
        func quickAdd(_ place: Int, name: String, shortName: String) -> [String: Any] {
            ["name": name, "short_name": shortName, "description": t("Logs the amount of this quick-add button, once."),
             "url": SitePath.quickAdd.link(place), "icons": [icon192]]
        }
        let manifest: [String: Any] = [
            "name": "Tally",
            "short_name": "Tally",
            "description": t("How much water you drank, and who paid for what."),
            "lang": language.tag,
            "dir": language.direction,
            "id": "/",
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "background_color": "#ffffff",
            "theme_color": "#0a5bb5",
            "icons": [
                icon192,
                ["src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png"],
                ["src": "/static/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"],
                ["src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml"],
            ],
            "shortcuts": [
                quickAdd(1, name: t("Log your first quick-add amount"), shortName: t("Quick add 1")),
                quickAdd(2, name: t("Log your second quick-add amount"), shortName: t("Quick add 2")),
                quickAdd(3, name: t("Log your third quick-add amount"), shortName: t("Quick add 3")),
                ["name": t("Bottle"), "url": SitePath.bottle.link],
                ["name": t("Spending"), "url": SitePath.spending.link],
            ],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return Array(data)
    }
}
