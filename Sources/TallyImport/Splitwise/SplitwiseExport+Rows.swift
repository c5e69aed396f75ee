import Foundation
import TallyCore

extension SplitwiseExport {
    /// The columns before the people's, as Splitwise names them.
    static let columns = ["Date", "Description", "Category", "Cost", "Currency"]

    /// The category of a payment from one person to another.
    static let payment = "Payment"

    /// The people the header names after its fixed columns, each once.
    static func people(_ header: Record) throws -> [String] {
        guard header.fields.starts(with: columns) else {
            throw TallyError.invalid("Line \(header.line) is not the header of a Splitwise export: it must start with \(columns.joined(separator: ",")) and name one column per person after them.")
        }
        guard header.fields.count > columns.count else {
            throw TallyError.invalid("Line \(header.line) names no people: a Splitwise export has a column for each person after Currency.")
        }
        var people: [String] = []
        // Each name's look-alike keys made once: every name is compared with all before it.
        var keys: [UserText.NameKey] = []
        for (index, text) in header.fields.enumerated().dropFirst(columns.count) {
            let column = index + 1
            guard !text.isEmpty else {
                throw TallyError.invalid("Line \(header.line), column \(column) has no name: every column after Currency names a person.")
            }
            let name: String
            do {
                name = try UserText.name(text, Phrase("A member's name"))
            } catch let error as TallyError {
                throw TallyError.invalid("Line \(header.line), column \(column): \(error.phrase)")
            }
            let key = UserText.NameKey(name)
            if let other = keys.firstIndex(where: { $0.isSame(as: key) }).map({ people[$0] }) {
                throw TallyError.invalid("Line \(header.line) names \(UserText.quoted(other)) and \(UserText.quoted(name)), which are one name to Tally: each person needs a column, and a name, of their own.")
            }
            guard people.count < LedgerRules.maximumMembers else {
                throw TallyError.invalid("This export names more than \(LedgerRules.maximumMembers) people, and a ledger can have at most \(LedgerRules.maximumMembers) members (the first one too many is \(UserText.quoted(name))).")
            }
            people.append(name)
            keys.append(key)
        }
        return people
    }

    /// An expense or payment row, checked, with who paid and whose share it was.
    static func row(_ record: Record, people: [String]) throws -> Row {
        let line = record.line
        let cells = record.fields
        let date = try day(cells[0], line: line)
        let currency = try currency(cells[4], line: line)
        let cost = try amount(cells[3], currency, line: line, column: "Cost")
        guard cost.minorUnits >= 0 else {
            throw refusal(line, "Cost", Phrase("\(UserText.quoted(cells[3])) is negative, and a cost never is"))
        }
        if !cost.isZero {
            do {
                try TransactionAmount.validate(cost)
            } catch let error as TallyError {
                throw refusal(line, "Cost", error.phrase)
            }
        }
        let effects = try zip(people, cells.dropFirst(columns.count)).map { person, cell in
            try amount(cell, currency, line: line, column: person)
        }
        let sum = Money(minorUnits: effects.reduce(0) { $0 + $1.minorUnits }, currency: currency)
        guard sum.isZero else {
            throw refusal(line, nil, Phrase("the people's amounts add up to \(sum), not 0, but each row's amounts cancel out"))
        }
        let category = cells[2].isEmpty ? nil : cells[2]
        let isPayment = category == payment
        if isPayment {
            let moved = effects.filter { !$0.isZero }
            guard moved.count == 2, moved.contains(cost) else {
                throw refusal(line, nil, Phrase("a payment moves its cost from one person to one other, so it needs one amount of \(cost.plain), one of \((-cost).plain) and 0 for everyone else"))
            }
        }
        guard let (paid, shares) = decomposition(cost: cost.minorUnits, effects: effects.map(\.minorUnits)) else {
            let owed = Money(minorUnits: effects.reduce(0) { $0 + max($1.minorUnits, 0) }, currency: currency)
            throw refusal(line, nil, Phrase("the people who paid get back \(owed) in all, more than the cost of \(cost)"))
        }
        let money = { (units: [Int64]) in units.map { Money(minorUnits: $0, currency: currency) } }
        return Row(line: line, date: date, description: cells[1], category: category, isPayment: isPayment, cost: cost,
                   effects: effects, paid: money(paid), shares: money(shares))
    }

    /// A Total balance row's currency and its figure for each person. Its Date cell may be
    /// empty or the day of the export; its Category and Cost cells are empty.
    static func totalBalance(_ record: Record, people: [String]) throws -> (Currency, [Money]) {
        if !record.fields[0].isEmpty { _ = try day(record.fields[0], line: record.line) }
        let currency = try currency(record.fields[4], line: record.line)
        let figures = try zip(people, record.fields.dropFirst(columns.count)).map { person, cell in
            try amount(cell, currency, line: record.line, column: person)
        }
        return (currency, figures)
    }

    /// Checks each person's figure on each Total balance row against what that currency's rows
    /// add up to for them.
    static func check(_ totals: [Currency: [Money]], lines: [Currency: Int], against rows: [Row], people: [String]) throws {
        for (currency, line) in lines.sorted(by: { $0.value < $1.value }) {
            var sums = [Int64](repeating: 0, count: people.count)
            for row in rows where row.currency == currency {
                for index in people.indices { sums[index] += row.effects[index].minorUnits }
            }
            let figures = totals[currency] ?? []
            for (index, figure) in figures.enumerated() where figure.minorUnits != sums[index] {
                let sum = Money(minorUnits: sums[index], currency: currency)
                throw TallyError.invalid("Line \(line): the Total balance row says \(figure) for \(people[index]), but the rows above add up to \(sum) for them.")
            }
        }
    }

    /// A Date cell's day (`2025-03-30`).
    static func day(_ cell: String, line: Int) throws -> LocalDate {
        guard let day = LocalDate(cell) else {
            throw refusal(line, "Date", Phrase("\(UserText.quoted(cell)) is not a day: write it as 2025-03-30"))
        }
        return day
    }

    /// A Currency cell's currency.
    static func currency(_ cell: String, line: Int) throws -> Currency {
        do {
            return try Currency(code: cell)
        } catch let error as TallyError {
            throw refusal(line, "Currency", error.phrase)
        }
    }

    /// An amount as Splitwise writes it: digits, a point and the currency's decimals, with a
    /// minus before a person's amount that took from their balance ("22.50", "-22.50", "0.00",
    /// "1000" in JPY). No plus, no grouping, no decimal comma.
    static func amount(_ cell: String, _ currency: Currency, line: Int, column: String) throws -> Money {
        let negative = cell.hasPrefix("-")
        let magnitude = negative ? String(cell.dropFirst()) : cell
        let parts = magnitude.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else {
            throw refusal(line, column, Phrase("\(UserText.quoted(cell)) is not an amount: Splitwise writes amounts such as 22.50 or -22.50"))
        }
        guard parts.count == 1 || parts[1].count <= currency.minorUnits else {
            throw refusal(line, column, Phrase("\(UserText.quoted(cell)) has more decimals than \(currency.code) has"))
        }
        do {
            let amount = try Money(parsing: magnitude, currency: currency)
            return negative ? -amount : amount
        } catch let error as TallyError {
            throw refusal(line, column, error.phrase)
        }
    }

    /// The refusal of a file for what is wrong on `line`, in `column` when it is one cell.
    static func refusal(_ line: Int, _ column: String?, _ problem: Phrase) -> TallyError {
        TallyError.invalid(DrinkCSV.LineError(column: column.map(UserText.shown), problem).sentence(line: line))
    }
}
