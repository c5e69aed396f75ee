import CSV
import Foundation
import TallyCore

/// One bill of an IHateMoney export (S6), as its JSON or CSV file has it.
public struct IHateMoneyBill: Equatable, Sendable {
    public var what: String
    /// "Expense", or "Reimbursement" for a payment from the payer to the ower.
    public var billType: String
    /// The amount as exact decimal text ("12.5", "10000.0"): IHateMoney writes floats rounded to
    /// two places, and the text is read digit for digit.
    public var amount: Decimal
    public var currency: String
    public var date: LocalDate
    public var payerName: String
    public var payerWeight: Decimal
    public var owers: [String]

    public var isReimbursement: Bool { billType.caseInsensitiveCompare("Reimbursement") == .orderedSame }
}

/// Reads IHateMoney's bill exports: `bills.json` (an array of bills) and `bills.csv`
/// (`what,bill_type,amount,currency,date,payer_name,payer_weight,owers`).
public enum IHateMoneyExport {
    public enum Format: String, Sendable, CaseIterable {
        case json, csv
    }

    /// The format by content: JSON starts with "[" (or "{", which is not an export but is JSON).
    public static func format(of data: Data) -> Format {
        let first = data.first { !" \t\r\n".utf8.contains($0) }
        return first == UInt8(ascii: "[") || first == UInt8(ascii: "{") ? .json : .csv
    }

    public static func bills(from data: Data, format: Format? = nil) throws -> [IHateMoneyBill] {
        switch format ?? Self.format(of: data) {
        case .json: try jsonBills(data)
        case .csv: try csvBills(data)
        }
    }

    static let columns = ["what", "bill_type", "amount", "currency", "date", "payer_name", "payer_weight", "owers"]

    private struct JSONBill: Decodable {
        var what: String
        var bill_type: String?
        var amount: Decimal
        var currency: String?
        var date: String
        var payer_name: String
        var payer_weight: Decimal?
        var owers: [String]
    }

    private static func jsonBills(_ data: Data) throws -> [IHateMoneyBill] {
        let rows: [JSONBill]
        do {
            rows = try JSONDecoder().decode([JSONBill].self, from: data)
        } catch let error as DecodingError {
            throw TallyError.invalid("This is not an IHateMoney JSON export: \(describe(error)).")
        }
        var people = PeopleNamed()
        return try rows.enumerated().map { index, row in
            try people.add([row.payer_name] + row.owers)
            return try bill(row: index + 1, what: row.what, billType: row.bill_type ?? "Expense", amount: row.amount,
                     currency: row.currency ?? "XXX", date: row.date, payer: row.payer_name,
                     payerWeight: row.payer_weight ?? 1, owers: row.owers)
        }
    }

    private static func csvBills(_ data: Data) throws -> [IHateMoneyBill] {
        // IHateMoney writes no header at all for a project without bills.
        guard let text = String(data: data, encoding: .utf8) else {
            throw TallyError.invalid("This IHateMoney CSV export is not UTF-8 text.")
        }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return [] }
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: true)
        } catch {
            throw TallyError.invalid("This IHateMoney CSV export cannot be read: \(String(describing: error)).")
        }
        let header = (reader.headerRow ?? []).map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\u{FEFF}")) }
        let missing = columns.filter { !header.contains($0) && $0 != "bill_type" }
        guard missing.isEmpty else {
            throw TallyError.invalid("This is not an IHateMoney CSV export: the header lacks \(missing.joined(separator: ", ")); it needs \(columns.joined(separator: ",")).")
        }
        var bills: [IHateMoneyBill] = []
        var people = PeopleNamed()
        var row = 1
        while let fields = reader.next() {
            row += 1
            if fields.allSatisfy({ $0.isEmpty }) { continue }
            func field(_ name: String) -> String? {
                header.firstIndex(of: name).flatMap { $0 < fields.count ? fields[$0] : nil }
            }
            guard let amount = Decimal(string: field("amount") ?? "", locale: Locale(identifier: "en_US_POSIX")) else {
                throw TallyError.invalid("Row \(row): \"\(field("amount") ?? "")\" is not an amount.")
            }
            guard let weight = Decimal(string: field("payer_weight") ?? "1", locale: Locale(identifier: "en_US_POSIX")) else {
                throw TallyError.invalid("Row \(row): \"\(field("payer_weight") ?? "")\" is not a weight.")
            }
            let owers = (field("owers") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            try people.add([unguarded(field("payer_name") ?? "")] + owers.map(unguarded))
            bills.append(try bill(row: row, what: unguarded(field("what") ?? ""), billType: field("bill_type") ?? "Expense",
                                  amount: amount, currency: field("currency") ?? "XXX", date: field("date") ?? "",
                                  payer: unguarded(field("payer_name") ?? ""), payerWeight: weight, owers: owers.map(unguarded)))
        }
        return bills
    }

    private static func bill(row: Int, what: String, billType: String, amount: Decimal, currency: String, date: String,
                             payer: String, payerWeight: Decimal, owers: [String]) throws -> IHateMoneyBill {
        guard let day = LocalDate(String(date.prefix(10))) else {
            throw TallyError.invalid("Bill \(row): \"\(date)\" is not a date like 2024-02-20.")
        }
        guard !payer.isEmpty else { throw TallyError.invalid("Bill \(row) has no payer.") }
        guard !owers.isEmpty else { throw TallyError.invalid("Bill \(row) (\(what)) is owed by nobody.") }
        // Owers are members: at most a ledger's worth, each once, whatever the file claims.
        guard owers.count <= LedgerRules.maximumMembers, Set(owers.map(UserText.comparisonKey)).count == owers.count else {
            throw TallyError.invalid("Bill \(row) (\(UserText.shown(what))) is owed by \(owers.count) names, but owers are members, each named once, and a ledger has at most \(LedgerRules.maximumMembers).")
        }
        return IHateMoneyBill(what: what, billType: billType, amount: amount, currency: currency, date: day,
                              payerName: payer, payerWeight: payerWeight, owers: owers)
    }

    /// IHateMoney puts a "'" before CSV text that starts with =, +, -, @, tab or a line break, so
    /// that spreadsheets do not run it as a formula; the JSON export has the text as it was.
    static func unguarded(_ text: String) -> String {
        guard text.hasPrefix("'"), let next = text.dropFirst().first, "=+-@\t\r\n".contains(next) else { return text }
        return String(text.dropFirst())
    }

    private static func describe(_ error: DecodingError) -> Phrase {
        switch error {
        case .keyNotFound(let key, let context):
            Phrase("bill \((context.codingPath.first?.intValue ?? 0) + 1) has no \(key.stringValue)")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.isEmpty ? Phrase("it is not a JSON array of bills")
                : Phrase("\(place(context.codingPath)) is not what IHateMoney writes")
        @unknown default:
            .verbatim("\(error)")
        }
    }

    /// Where in the export a value is: "bill 3, amount".
    private static func place(_ path: [any CodingKey]) -> Phrase {
        let parts = path.map { key in key.intValue.map { Phrase("bill \($0 + 1)") } ?? .verbatim(key.stringValue) }
        return Phrase(key: parts.indices.map { "{\($0)}" }.joined(separator: ", "), values: parts.map { .phrase($0) })
    }
}

/// The people an export names, counted as it is read, so that an export naming more people than
/// a ledger may have as members is refused at the first one too many, not after reading (and
/// matching up) all of them.
private struct PeopleNamed {
    private var seen: Set<String> = []

    mutating func add(_ names: [String]) throws {
        for name in names where seen.insert(UserText.comparisonKey(name)).inserted && seen.count > LedgerRules.maximumMembers {
            throw TallyError.invalid("This export names more than \(LedgerRules.maximumMembers) people, and a ledger can have at most \(LedgerRules.maximumMembers) members (the first one too many is \(UserText.quoted(name))).")
        }
    }
}
