import Foundation
import GRDB
import TallyCore
import TallyRepositories

extension SQLiteStore: RecurringExpenseRepository {
    public func addRecurringExpense(to ledger: UUID, by user: UUID, at: Date,
                                    _ build: @escaping @Sendable (LedgerDetails, String) throws -> (expense: RecurringExpense, note: ActivityNote)) async throws -> RecurringExpense {
        try await write { db in
            let details = try Self.details(ledger, of: user, db)
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM recurringExpense WHERE ledgerId = ?", arguments: [ledger]) ?? 0
            guard count < RecurringExpense.maximumPerLedger else { throw tooManyRecurringExpenses }
            let (expense, note) = try build(details, try Self.settings(user, db).timeZone)
            try Self.save(expense, db, inserting: true)
            try Self.log(note, ledger: ledger, user: user, at: at, db)
            return expense
        }
    }

    public func recurringExpenses(in ledger: UUID, of user: UUID) async throws -> [RecurringExpense] {
        try await read { db in
            let details = try Self.details(ledger, of: user, db)
            return try Self.recurringExpenses(of: details, db)
        }
    }

    public func recurringExpense(_ id: UUID, in ledger: UUID, of user: UUID) async throws -> RecurringExpense {
        try await read { db in try Self.recurringExpense(id, of: try Self.details(ledger, of: user, db), db) }
    }

    public func changeRecurringExpense(_ id: UUID, in ledger: UUID, by user: UUID, at: Date,
                                       _ change: @escaping @Sendable (inout RecurringExpense?, LedgerDetails) throws -> ActivityNote?) async throws -> RecurringExpense? {
        try await write { db in
            let details = try Self.details(ledger, of: user, db)
            var expense: RecurringExpense? = try Self.recurringExpense(id, of: details, db)
            let note = try change(&expense, details)
            if let expense {
                try Self.save(expense, db, inserting: false)
            } else {
                try db.execute(sql: "DELETE FROM recurringExpense WHERE id = ?", arguments: [id])
            }
            if let note { try Self.log(note, ledger: ledger, user: user, at: at, db) }
            return expense
        }
    }

    public func dueRecurringExpenses(through latest: LocalDate, limit: Int) async throws -> [RecurringExpense] {
        try await read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT recurringExpense.*, ledger.currency AS ledgerCurrency FROM recurringExpense JOIN ledger ON ledger.id = recurringExpense.ledgerId
                WHERE recurringExpense.pausedAt IS NULL AND recurringExpense.nextDate <= ?
                    AND (recurringExpense.endDate IS NULL OR recurringExpense.nextDate <= recurringExpense.endDate)
                ORDER BY recurringExpense.nextDate LIMIT ?
                """, arguments: [latest.number, limit])
            return try rows.map { try Self.recurringExpense($0, currency: try Currency(code: $0["ledgerCurrency"])) }
        }
    }

    public func recordOccurrence(of id: UUID, in ledger: UUID, on date: LocalDate,
                                 _ record: @escaping @Sendable (inout RecurringExpense, LedgerDetails, UUID) throws -> (entry: SpendingEntry, note: ActivityNote)) async throws -> SpendingEntry? {
        try await write { db in
            let details = try Self.details(ledger, db)
            // Another instance, or an earlier run, may have recorded it since it was found due.
            guard var expense = try? Self.recurringExpense(id, of: details, db), expense.nextDate == date, expense.status == .active
            else { return nil }
            let usual = expense.entryID(on: date)
            let taken = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM spendingEntry WHERE id = ?)", arguments: [usual]) ?? false
            let (entry, note) = try record(&expense, details, taken ? UUID() : usual)
            try Self.save(expense, db, inserting: false)
            try Self.insert(entry, importKey: nil, ledger: ledger, db)
            try Self.changeTotals(of: ledger, db) { try $0.add(entry) }
            try Self.log(note, ledger: ledger, user: expense.createdBy, at: entry.createdAt, db)
            return entry
        }
    }

    // MARK: - Inside a transaction

    static func recurringExpenses(of details: LedgerDetails, _ db: Database) throws -> [RecurringExpense] {
        try Row.fetchAll(db, sql: "SELECT * FROM recurringExpense WHERE ledgerId = ?", arguments: [details.ledger.id])
            .map { try recurringExpense($0, currency: details.ledger.currency) }
            .sorted(by: RecurringExpense.soonerFirst)
    }

    private static func recurringExpense(_ id: UUID, of details: LedgerDetails, _ db: Database) throws -> RecurringExpense {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM recurringExpense WHERE id = ? AND ledgerId = ?",
                                         arguments: [id, details.ledger.id]) else { throw noRecurringExpense(id) }
        return try recurringExpense(row, currency: details.ledger.currency)
    }

    private static func recurringExpense(_ row: Row, currency: Currency) throws -> RecurringExpense {
        let endDate: Int? = row["endDate"]
        return try .stored(
            id: row["id"], ledger: row["ledgerId"], amount: row["amount"], currency: currency, payer: row["payerId"], payers: row["payers"],
            description: row["description"], category: row["category"], splitMethod: row["splitMethod"], splitParts: row["splitParts"],
            every: row["every"], weekday: row["weekday"], day: row["day"], month: row["month"], timeZone: row["timeZone"],
            nextDate: LocalDate(number: row["nextDate"]), endDate: endDate.map(LocalDate.init(number:)), pausedAt: row["pausedAt"],
            createdBy: row["createdBy"], createdAt: row["createdAt"])
    }

    private static func save(_ expense: RecurringExpense, _ db: Database, inserting: Bool) throws {
        let template = expense.template, rule = expense.storedRule
        let values: [(String, (any DatabaseValueConvertible)?)] = [
            ("ledgerId", expense.ledger), ("amount", template.amount.minorUnits), ("payerId", template.payer), ("payers", expense.storedPayers),
            ("description", template.description), ("category", template.category), ("splitMethod", template.split.method.rawValue),
            ("splitParts", expense.storedSplitParts), ("every", rule.every), ("weekday", rule.weekday), ("day", rule.day),
            ("month", rule.month), ("timeZone", expense.timeZone), ("nextDate", expense.nextDate.number),
            ("endDate", expense.endDate?.number), ("pausedAt", expense.pausedAt), ("createdBy", expense.createdBy),
            ("createdAt", expense.createdAt),
        ]
        if inserting {
            try db.execute(sql: """
                INSERT INTO recurringExpense (id, \(values.map(\.0).joined(separator: ", "))) VALUES (?\(String(repeating: ", ?", count: values.count)))
                """, arguments: StatementArguments([expense.id as (any DatabaseValueConvertible)?] + values.map(\.1)))
        } else {
            try db.execute(sql: """
                UPDATE recurringExpense SET \(values.map { "\($0.0) = ?" }.joined(separator: ", ")) WHERE id = ?
                """, arguments: StatementArguments(values.map(\.1) + [expense.id as (any DatabaseValueConvertible)?]))
        }
    }
}
