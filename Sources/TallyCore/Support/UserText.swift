import Foundation

/// Text a person types that others read back: names, notes, descriptions. The one place that
/// says what such text may hold.
public enum UserText {
    /// The text without surrounding white space, refused when it holds a control character.
    /// A NUL would cut the stored text short; the others (escape, bell, backspace) only hide or
    /// garble what other people see. Notes and descriptions may keep tabs and line breaks.
    public static func trimmed(_ text: String, _ what: String, allowingLineBreaks: Bool = false) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let allowed: Set<Unicode.Scalar> = allowingLineBreaks ? ["\t", "\n", "\r"] : []
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && !allowed.contains($0) }) {
            throw TallyError.invalid("\(what) cannot hold control characters such as NUL or escape; remove them and try again.")
        }
        return trimmed
    }
}
