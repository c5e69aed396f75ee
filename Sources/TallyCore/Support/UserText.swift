import CUnicodeSecurity
import Foundation

/// Text a person types that others read back: names, notes, descriptions. The one place that
/// says what such text may hold.
public enum UserText {
    /// A name (a ledger's, a member's, a drink kind's, a category): trimmed, in Unicode's
    /// composed form (NFC), refused when it holds a control character or an invisible format
    /// character. Names are what people pick each other by, so nothing in them may hide.
    public static func name(_ text: String, _ what: Phrase) throws -> String {
        let name = normalized(text)
        try refuseControlCharacters(in: name, what, allowing: [])
        if name.unicodeScalars.indices.contains(where: { !isAllowedInName(name.unicodeScalars, at: $0) }) {
            throw TallyError.invalid("\(what) cannot hold invisible formatting characters such as zero-width spaces or direction marks; remove them and try again.")
        }
        return name
    }

    /// Free text (a note, a description): trimmed, in composed form (NFC), and with tabs and line
    /// breaks allowed. Other format characters are kept, since Persian and Indic writing needs
    /// the zero-width joiners and right-to-left text its marks, but not the bidi embeddings,
    /// overrides and isolates: they reorder the text after them, so what others read is not
    /// what it says (and one left open would spill into the page around it).
    public static func freeText(_ text: String, _ what: Phrase) throws -> String {
        let text = normalized(text)
        try refuseControlCharacters(in: text, what, allowing: ["\t", "\n", "\r"])
        if text.unicodeScalars.contains(where: bidiControls.contains) {
            throw TallyError.invalid("\(what) cannot hold bidirectional override characters, which reorder the text others read; remove them and try again.")
        }
        return text
    }

    /// A name, or with `allowingLineBreaks` free text.
    public static func trimmed(_ text: String, _ what: Phrase, allowingLineBreaks: Bool = false) throws -> String {
        allowingLineBreaks ? try freeText(text, what) : try name(text, what)
    }

    /// The most bytes of UTF-8 a text of `maximumLength` characters may take: four a character,
    /// enough for any letter or emoji, while one character carrying thousands of combining marks
    /// (a screenful of "Zalgo" text, or megabytes) is refused.
    public static func maximumBytes(forLength maximumLength: Int) -> Int { 4 * maximumLength }

    /// Whether `text` fits the length rule: at most `maximumLength` characters and
    /// `maximumBytes(forLength:)` bytes.
    public static func fits(_ text: String, maximumLength: Int) -> Bool {
        text.count <= maximumLength && text.utf8.count <= maximumBytes(forLength: maximumLength)
    }

    /// What two names are compared by: composed, case-folded and without the characters that
    /// show nothing, so that "Zoë" typed on two keyboards, "ZOË" and "Zo\u{00EB}" are one name.
    public static func comparisonKey(_ name: String) -> String {
        let folded = name.precomposedStringWithCanonicalMapping
            .folding(options: .caseInsensitive, locale: nil)
            .precomposedStringWithCanonicalMapping
        return String(String.UnicodeScalarView(folded.unicodeScalars.filter { !$0.properties.isDefaultIgnorableCodePoint }))
    }

    /// What a search compares, and what it looks for: the comparison key without accents and
    /// widths, so that "cafe" finds "Café" and "ＣＡＦＥ".
    public static func searchKey(_ text: String) -> String {
        comparisonKey(text).folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Whether two names are the same name to a reader: the same letters whatever their case or
    /// composition, or letters that look alike ("Alice" with a Cyrillic А).
    public static func sameName(_ a: String, _ b: String) -> Bool {
        NameKey(a).isSame(as: NameKey(b))
    }

    /// What `sameName` compares of a name, made once: for a name compared with many others.
    public struct NameKey: Sendable {
        let folded: String
        // The skeleton keeps case ("I" and "l" look alike, "i" and "l" do not): compared as
        // written, and folded, so that neither a capital nor a look-alike letter tells them apart.
        let skeleton: String
        let foldedSkeleton: String

        public init(_ name: String) {
            folded = comparisonKey(name)
            skeleton = confusableSkeleton(name)
            foldedSkeleton = confusableSkeleton(folded)
        }

        public func isSame(as other: NameKey) -> Bool {
            folded == other.folded || skeleton == other.skeleton || foldedSkeleton == other.foldedSkeleton
        }
    }

    /// The confusable skeleton of Unicode Technical Standard #39: two texts a reader can mistake
    /// for each other have the same one ("paypal" and "paypa1", "Alice" and "Аlice"). The text
    /// itself if the system's Unicode library cannot make one.
    public static func confusableSkeleton(_ text: String) -> String {
        let units = Array(text.utf16)
        var capacity = max(16, units.count * 2)
        while true {
            var skeleton = [UInt16](repeating: 0, count: capacity)
            let length = Int(tally_confusable_skeleton(units, Int32(units.count), &skeleton, Int32(capacity)))
            guard length >= 0 else { return text }
            if length <= capacity { return String(decoding: skeleton[..<length], as: UTF16.self) }
            capacity = length
        }
    }

    /// Text someone sent, quoted back in a message: in quotes, its control and format
    /// characters (a bidi override would turn the rest of the message around) written as their
    /// code points, and cut at 60 characters.
    public static func quoted(_ text: String) -> String { "\"" + shown(text) + "\"" }

    /// Text someone sent, shown in a message as `quoted` shows it, without the quotes.
    public static func shown(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars.prefix(60) {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                shown += "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
            default:
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown + (text.unicodeScalars.count > 60 ? "…" : "")
    }

    // MARK: - The rules

    private static func normalized(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
    }

    /// A NUL would cut the stored text short; the other control characters (escape, bell,
    /// backspace) only hide or garble what other people see.
    private static func refuseControlCharacters(in text: String, _ what: Phrase, allowing allowed: Set<Unicode.Scalar>) throws {
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && !allowed.contains($0) }) {
            throw TallyError.invalid("\(what) cannot hold control characters such as NUL or escape; remove them and try again.")
        }
    }

    /// U+202A–202E (embeddings and overrides) and U+2066–2069 (isolates).
    private static let bidiControls: Set<Unicode.Scalar> = Set((0x202A...0x202E).compactMap(Unicode.Scalar.init)
        + (0x2066...0x2069).compactMap(Unicode.Scalar.init))

    /// Format characters (general category Cf) are refused in names, with one exception: the
    /// joiners (U+200C, U+200D) and the emoji tag characters (U+E0020–E007F) right after a
    /// character that is not ASCII. There they join something visible: the members of an emoji
    /// sequence such as 👩‍👩‍👧 or 🏴󠁧󠁢󠁳󠁣󠁴󠁿, or the letters of Persian and Indic names. After ASCII, at
    /// the start, or after another format character they only make a name look like another
    /// (and `comparisonKey` ignores them anyway). U+FE0F, the emoji presentation selector, is a
    /// mark, not a format character, and needs no exception.
    private static func isAllowedInName(_ scalars: String.UnicodeScalarView, at index: String.UnicodeScalarView.Index) -> Bool {
        let scalar = scalars[index]
        guard scalar.properties.generalCategory == .format else { return true }
        let joins = scalar == "\u{200C}" || scalar == "\u{200D}" || (0xE0020...0xE007F).contains(scalar.value)
        guard joins, index > scalars.startIndex else { return false }
        let previous = scalars[scalars.index(before: index)]
        return !previous.isASCII && (previous.properties.generalCategory != .format || (0xE0020...0xE007F).contains(previous.value))
    }
}

private extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
