import Foundation
import TallyCore

/// The ECB's euro foreign exchange reference rates (`eurofxref-daily.xml`), read: the day's
/// `<Cube time="…">` and each `<Cube currency="USD" rate="1.0512"/>` in it. Any source that
/// writes the same format will do.
enum ECBRates {
    /// The most a rates file may be: the ECB's is about 2 kB.
    static let maximumBytes = 256 * 1024

    static func parse(_ data: Data) throws -> ReferenceRates {
        let text = String(decoding: data.prefix(maximumBytes), as: UTF8.self)
        guard let day = firstMatch(#"time\s*=\s*['"](\d{4}-\d{2}-\d{2})['"]"#, in: text).first,
              let date = try? LocalDate.parse(day)
        else {
            throw TallyError.invalid("The rates source gave no day (a Cube with a time such as 2026-11-26).")
        }
        var perEuro: [String: String] = [:]
        for match in allMatches(#"currency\s*=\s*['"]([A-Za-z]{3})['"]\s+rate\s*=\s*['"]([0-9]+(?:\.[0-9]+)?)['"]"#, in: text) {
            guard let currency = try? Currency(code: match[0]), let rate = Decimal(string: match[1], locale: Locale(identifier: "en_US_POSIX")),
                  rate > 0 else { continue }
            perEuro[currency.code] = match[1]
        }
        guard !perEuro.isEmpty else { throw TallyError.invalid("The rates source gave no rates (Cubes with a currency and a rate).") }
        return ReferenceRates(date: date, perEuro: perEuro)
    }

    private static func firstMatch(_ pattern: String, in text: String) -> [String] {
        allMatches(pattern, in: text).first ?? []
    }

    /// The capture groups of each match of `pattern`.
    private static func allMatches(_ pattern: String, in text: String) -> [[String]] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).map { match in
            (1..<match.numberOfRanges).compactMap { Range(match.range(at: $0), in: text).map { String(text[$0]) } }
        }
    }
}
