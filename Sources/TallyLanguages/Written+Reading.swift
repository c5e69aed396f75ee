import Foundation

extension Written {
    /// A number as the reader typed it, as the plain digits and decimal point that Tally's
    /// parsers read: "1.234,56" in German and "1,234.56" in English are both "1234.56", "12,50"
    /// and "12.50" stay as they are (a plain number is read in every locale), Arabic-Indic
    /// digits and separators become ASCII. A group separator counts only before exactly three
    /// digits; anything else is left for the parser to refuse, quoting what it read.
    public func plainNumber(_ typed: String) -> String {
        var text = ""
        for scalar in typed.trimmingCharacters(in: .whitespaces).unicodeScalars {
            switch scalar.value {
            case 0x0660...0x0669: text.unicodeScalars.append(Unicode.Scalar(scalar.value - 0x0660 + 0x30)!)
            case 0x06F0...0x06F9: text.unicodeScalars.append(Unicode.Scalar(scalar.value - 0x06F0 + 0x30)!)
            case 0x066B: text += "."   // Arabic decimal separator
            case 0x066C: text += "\u{2019}"   // Arabic thousands separator, taken as a group mark below
            case 0x00A0, 0x202F: text += " "
            default: text.unicodeScalars.append(scalar)
            }
        }
        // Arabic's decimal sign became "." above.
        let decimal = (locale.decimalSeparator ?? ".").replacingOccurrences(of: "\u{066B}", with: ".")
        // The whole part's groups of three, then the fraction after the locale's own decimal sign.
        let characters = Array(text)
        let decimalMark: Character? = decimal.count == 1 ? Character(decimal) : nil
        let fractionStart = decimalMark.flatMap { mark in characters.lastIndex(of: mark) }
        let whole = characters[..<(fractionStart ?? characters.endIndex)]
        let groups = whole.split(omittingEmptySubsequences: false) { groupMarks.contains($0) }
        let grouped = groups.count > 1 && groups.first.map { (1...3).contains($0.count) } == true
            && groups.dropFirst().allSatisfy { $0.count == 3 }
            && groups.allSatisfy { $0.allSatisfy(\.isASCIIDigit) }
        guard grouped else { return text }
        let fraction = fractionStart.map { "." + String(characters[characters.index(after: $0)...]) } ?? ""
        return groups.map { String($0) }.joined() + fraction
    }
}

extension Written {
    /// The marks that group a number's digits in this locale, as `plainNumber` reads them (its
    /// spaces as a plain space, Arabic's as ’), and the spaces and apostrophes any locale may use.
    var groupMarks: Set<Character> {
        var marks: Set<Character> = [" ", "\u{2019}", "'"]
        let local = (locale.groupingSeparator ?? ",").replacingOccurrences(of: "\u{00A0}", with: " ")
            .replacingOccurrences(of: "\u{202F}", with: " ").replacingOccurrences(of: "\u{066C}", with: "\u{2019}")
        if local.count == 1 { marks.insert(Character(local)) }
        return marks
    }

    /// What `plainNumber` reads as a number with at most `decimals` decimals, as a regular
    /// expression for an input's `pattern`: digits grouped as this locale groups them
    /// ("1.234,56" in German, "1,234.56" in English), or plain ("1234.56", "12,50").
    public func numberPattern(decimals: Int) -> String {
        let digit = "[0-9\u{0660}-\u{0669}\u{06F0}-\u{06F9}]"
        // As typed: a space may be a no-break one, and Arabic's group mark is its own.
        var typed = groupMarks
        if typed.contains(" ") { typed.formUnion(["\u{00A0}", "\u{202F}"]) }
        if typed.contains("\u{2019}") { typed.insert("\u{066C}") }
        let group = "[" + typed.sorted().map(String.init).joined() + "]"
        let fraction = decimals == 0 ? "" : "([.,\u{066B}]\(digit){1,\(decimals)})?"
        return "\(digit){1,3}(\(group)\(digit){3})*\(fraction)|\(digit)+\(fraction)"
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
