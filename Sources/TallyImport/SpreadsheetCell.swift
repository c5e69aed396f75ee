/// A cell of text in a CSV that Tally writes, safe to open in a spreadsheet: text that a
/// spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a line break)
/// gets a leading `'`, as IHateMoney does. Every column of text a person typed goes through it.
/// Text that starts with `'` gets one more, so that reading the cell back (`typed`) gives
/// exactly what was typed.
enum SpreadsheetCell {
    private static let escapedStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r", "\n", "'"]

    /// By its first code point, not its first character: a spreadsheet reads the "=" of "=\u{301}…"
    /// (an equals sign with a combining accent) as a formula's start all the same.
    static func safe(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, escapedStarts.contains(first) else { return text }
        return "'" + text
    }

    /// The text a person typed, from a cell that `safe` wrote.
    static func typed(_ cell: String) -> String {
        cell.unicodeScalars.first == "'" ? String(cell.unicodeScalars.dropFirst()) : cell
    }
}
