import Foundation
import TallyCore
import TallyRepositories
import TallyServices

/// Drinks and removals as CSV (A2): one row per entry, RFC 4180, safe to open in a spreadsheet.
/// Tally writes `columns`; it reads them back, and the plain files other apps write (a date, a
/// time and an amount).
public enum DrinkCSV {
    /// Tally's columns, in the order it writes them.
    public static let columns = ["time", "day", "type", "volume_ml", "kind", "factor", "effective_ml", "note", "source", "id"]

    /// What a row is: a drink, or water taken off the day's total (H3).
    public enum EntryType: String, Codable, Sendable {
        case drink, removal
    }

    /// The media type, for downloads.
    public static let mediaType = "text/csv; charset=utf-8"

    /// The header line.
    public static func header() -> Data {
        Data((columns.joined(separator: ",") + "\r\n").utf8)
    }

    /// The rows of `entries`, each ended by CRLF; times with the offset `zone` has at them.
    public static func rows(_ entries: [DayEntry], zone: TimeZone) -> Data {
        var text = ""
        for entry in entries {
            text += row(entry, zone: zone).map(quoted).joined(separator: ",") + "\r\n"
        }
        return Data(text.utf8)
    }

    /// Days of entries read at once: a few weeks of a person's drinks.
    static let daysPerRead = 31

    /// Writes the person's drinks and removals as CSV, oldest first: the header, then a few
    /// weeks of days at a time, so that years of them are never in memory at once.
    public static func export(_ hydration: HydrationService, write: (Data) async throws -> Void) async throws {
        let zone = try await hydration.settings().zone
        try await write(header())
        let days = try await hydration.store.dailyTotals(of: hydration.user, from: nil, through: nil).keys.sorted()
        for start in stride(from: 0, to: days.count, by: daysPerRead) {
            let window = days[start..<min(start + daysPerRead, days.count)]
            let entries = try await hydration.store.entries(from: window.first!, through: window.last!, of: hydration.user)
            try await write(rows(entries, zone: zone))
        }
    }

    /// The name a download of the person's drinks gets.
    public static func fileName(on day: LocalDate) -> String { "tally-drinks-\(day).csv" }

    static func row(_ entry: DayEntry, zone: TimeZone) -> [String] {
        switch entry {
        case .intake(let intake):
            [InternetTime.text(intake.at, in: zone), intake.day.description, EntryType.drink.rawValue, number(intake.volumeMl),
             SpreadsheetCell.safe(intake.kindName), number(intake.factor), number(intake.effectiveMl),
             SpreadsheetCell.safe(intake.note ?? ""), intake.source.rawValue, intake.id.uuidString.lowercased()]
        case .removal(let removal):
            [InternetTime.text(removal.at, in: zone), removal.day.description, EntryType.removal.rawValue, number(removal.volumeMl),
             "", "", number(-removal.volumeMl), "", "", removal.id.uuidString.lowercased()]
        }
    }

    /// A number as short as it can be written and read back the same (250, 0.85, 212.5).
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }

    /// RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled.
    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
