import Foundation
import TallyCore

/// A group as Splitwise's "Export as spreadsheet" writes it, read and checked: its people, its
/// expenses and payments, and the Total balance row(s) at the end.
///
/// The file is CSV (RFC 4180): a header `Date,Description,Category,Cost,Currency` followed by one
/// column per person, then one row per expense, then usually a blank line and a row whose
/// Description is `Total balance`, one for each currency the file holds. Each person's cell is
/// the row's effect on their balance: what they paid minus their share.
///
/// Reading is liberal with what spreadsheets and platforms add (a UTF-8 byte order mark, CRLF or
/// CR line ends, blank lines, spaces around cells) and strict with everything else: the first
/// thing that is not as Splitwise writes it refuses the whole file with a sentence naming its
/// line. A file without a Total balance row is read all the same (nothing is there to check the
/// rows against), and so is a currency with rows but no Total balance row of its own.
public struct SplitwiseExport: Sendable, Hashable {
    /// The people, in column order: trimmed and in composed form (NFC).
    public let people: [String]
    /// The expenses and payments, in file order.
    public let rows: [Row]
    /// Each Total balance row's figure for each person (in `people` order), by the currency its
    /// Currency cell names; checked against the rows' effects. Empty when the file has none.
    public let totals: [Currency: [Money]]

    /// One expense or payment.
    ///
    /// The effects say how each balance moved, not who paid what; `paid` and `shares` are their
    /// natural reading (see `SplitwiseExport.decomposition`): the people whose balance went up
    /// paid, and between them they paid the whole cost; everyone else's share is what their
    /// balance went down by.
    public struct Row: Sendable, Hashable {
        /// The line of the file the row starts on, counting from 1.
        public let line: Int
        public let date: LocalDate
        /// Trimmed; as the file has it otherwise.
        public let description: String
        /// Splitwise's category ("General", "Groceries", "Payment"); nil when the cell is empty.
        public let category: String?
        /// A payment from one person to another (category `Payment`): `paid` names the sender,
        /// `shares` the receiver, each for the whole cost.
        public let isPayment: Bool
        /// In the row's currency, never negative.
        public let cost: Money
        /// Per person, in `people` order: what they paid minus their share. Adds up to zero.
        public let effects: [Money]
        /// Per person: what they paid, never negative; adds up to `cost`.
        public let paid: [Money]
        /// Per person: their share, never negative; adds up to `cost`. `paid[i] - shares[i]`
        /// is `effects[i]`.
        public let shares: [Money]

        /// The row's currency.
        public var currency: Currency { cost.currency }
    }

    /// The currencies of the rows, in the order they first appear.
    public var currencies: [Currency] {
        var seen: Set<Currency> = []
        return rows.map(\.currency).filter { seen.insert($0).inserted }
    }

    /// The Description of the rows that end the file with each person's balance.
    static let totalBalance = "Total balance"

    /// Reads a whole export, checking every row and the Total balance row(s).
    public init(csv: Data) throws {
        let records = try Self.records(Self.text(csv))
        guard let header = records.first else {
            throw TallyError.invalid("The file is empty: export the group from Splitwise as a spreadsheet and choose that file.")
        }
        people = try Self.people(header)
        var rows: [Row] = []
        var totals: [Currency: [Money]] = [:]
        var totalLines: [Currency: Int] = [:]
        for record in records.dropFirst() {
            guard record.fields.count == header.fields.count else {
                let (count, columns) = (record.fields.count, header.fields.count)
                throw TallyError.invalid(DrinkCSV.LineError(column: nil, Phrase(
                    one: "it has \(count) field where the header names \(columns) (a file cut short, or a comma in an unquoted field)",
                    other: "it has \(count) fields where the header names \(columns) (a file cut short, or a comma in an unquoted field)"))
                    .sentence(line: record.line))
            }
            if Self.isTotalBalance(record) {
                let (currency, figures) = try Self.totalBalance(record, people: people)
                if let first = totalLines[currency] {
                    throw TallyError.invalid("Line \(record.line) is a second Total balance row for \(currency.code); line \(first) is the first.")
                }
                totalLines[currency] = record.line
                totals[currency] = figures
            } else {
                guard totalLines.isEmpty else {
                    throw TallyError.invalid("Line \(record.line) comes after the Total balance row, but the Total balance row ends a Splitwise export.")
                }
                rows.append(try Self.row(record, people: people))
            }
        }
        try Self.check(totals, lines: totalLines, against: rows, people: people)
        self.rows = rows
        self.totals = totals
    }

    /// The file as text: UTF-8, without a byte order mark.
    static func text(_ data: Data) throws -> String {
        guard let text = String(data: data, encoding: .utf8), !text.unicodeScalars.contains("\0") else {
            throw TallyError.invalid("The file is not text (UTF-8): choose the CSV file that Splitwise's Export as spreadsheet writes.")
        }
        return text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
    }

    /// A Total balance row: Description `Total balance` and no cost (an expense that someone
    /// called "Total balance" has one).
    static func isTotalBalance(_ record: Record) -> Bool {
        record.fields[1] == totalBalance && record.fields[3].isEmpty
    }
}
