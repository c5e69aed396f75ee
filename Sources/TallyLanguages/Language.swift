import Foundation

/// A language Tally speaks: its catalog (`Catalogs/<tag>.json`), its own name, the locale its
/// numbers and dates are written in when the reader's browser names no region, and its direction.
public struct Language: Sendable, Hashable, Identifiable {
    /// The BCP 47 tag: "de", "pt-BR".
    public let tag: String
    /// The language's name in itself: "Deutsch".
    public let name: String
    /// The locale for a reader who names only the language ("de" is written as in Germany).
    public let locale: String
    public let rightToLeft: Bool

    public var id: String { tag }

    init(_ tag: String, _ name: String, locale: String, rightToLeft: Bool = false) {
        self.tag = tag
        self.name = name
        self.locale = locale
        self.rightToLeft = rightToLeft
    }

    public static let english = Language("en", "English", locale: "en_US")

    /// Every language Tally speaks. To add one: its catalog `Catalogs/<tag>.json`, and a line here.
    public static let all: [Language] = [
        english,
        Language("de", "Deutsch", locale: "de_DE"),
        Language("fr", "Français", locale: "fr_FR"),
        Language("es", "Español", locale: "es_ES"),
        Language("pt-BR", "Português (Brasil)", locale: "pt_BR"),
        Language("ar", "العربية", locale: "ar", rightToLeft: true),
    ]

    /// The language Tally speaks for a BCP 47 tag: the same tag, else the same language in
    /// another region ("de-AT" is German, "pt-PT" Brazilian Portuguese); nil for one it does not speak.
    public static func matching(_ tag: String) -> Language? {
        let wanted = tag.replacingOccurrences(of: "_", with: "-").lowercased()
        if let exact = all.first(where: { $0.tag.lowercased() == wanted }) { return exact }
        let base = wanted.prefix { $0 != "-" }
        return all.first { $0.tag.lowercased().prefix { $0 != "-" } == base }
    }

    /// "rtl" or "ltr", for `<html dir>`.
    public var direction: String { rightToLeft ? "rtl" : "ltr" }
}
