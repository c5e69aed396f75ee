import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

// Recurring expenses. Every change, and every occurrence recorded, happens under the ledger's
// lock, so that two instances recording the same occurrence follow one another and the second
// finds it done.

extension PostgresStore: RecurringExpenseRepository {
    public func addRecurringExpense(to ledger: UUID, by user: UUID, at: Date,
                                    _ build: @escaping @Sendable (LedgerDetails, String) throws -> (expense: RecurringExpense, note: ActivityNote)) async throws -> RecurringExpense {
        try await write(locking: .ledger(ledger)) { [self] connection in
            let details = try await details(ledger, of: user, connection)
            let count = try await connection.row("SELECT count(*) FROM recurringExpense WHERE ledgerId = \(ledger)", logger: logger)?
                .decode(Int.self) ?? 0
            guard count < RecurringExpense.maximumPerLedger else { throw tooManyRecurringExpenses }
            let (expense, note) = try build(details, try await settings(user, connection).timeZone)
            try await insert(expense, connection)
            try await log(note, ledger: ledger, user: user, at: at, connection)
            return expense
        }
    }

    public func recurringExpenses(in ledger: UUID, of user: UUID) async throws -> [RecurringExpense] {
        try await read { [self] connection in try await recurringExpenses(of: try await details(ledger, of: user, connection), connection) }
    }

    public func recurringExpense(_ id: UUID, in ledger: UUID, of user: UUID) async throws -> RecurringExpense {
        try await read { [self] connection in try await recurringExpense(id, of: try await details(ledger, of: user, connection), connection) }
    }

    public func changeRecurringExpense(_ id: UUID, in ledger: UUID, by user: UUID, at: Date,
                                       _ change: @escaping @Sendable (inout RecurringExpense?, LedgerDetails) throws -> ActivityNote?) async throws -> RecurringExpense? {
        try await write(locking: .ledger(ledger)) { [self] connection in
            let details = try await details(ledger, of: user, connection)
            var expense: RecurringExpense? = try await recurringExpense(id, of: details, connection)
            let note = try change(&expense, details)
            if let expense {
                try await update(expense, connection)
            } else {
                try await connection.run("DELETE FROM recurringExpense WHERE id = \(id)", logger: logger)
            }
            if let note { try await log(note, ledger: ledger, user: user, at: at, connection) }
            return expense
        }
    }

    public func dueRecurringExpenses(through latest: LocalDate, limit: Int) async throws -> [RecurringExpense] {
        try await read { [self] connection in
            try await connection.rows("""
                SELECT \(unescaped: Self.recurringColumns), ledger.currency FROM recurringExpense JOIN ledger ON ledger.id = recurringExpense.ledgerId
                WHERE recurringExpense.pausedAt IS NULL AND recurringExpense.nextDate <= \(latest)
                    AND (recurringExpense.endDate IS NULL OR recurringExpense.nextDate <= recurringExpense.endDate)
                ORDER BY recurringExpense.nextDate LIMIT \(limit)
                """, logger: logger).map { row in
                try Self.recurringExpense(row, currency: nil)
            }
        }
    }

    public func recordOccurrence(of id: UUID, in ledger: UUID, on date: LocalDate,
                                 _ record: @escaping @Sendable (inout RecurringExpense, LedgerDetails, UUID) throws -> (entry: SpendingEntry, note: ActivityNote)) async throws -> SpendingEntry? {
        try await write(locking: .ledger(ledger)) { [self] connection in
            let details = try await details(ledger, connection)
            // Another instance, or an earlier run, may have recorded it since it was found due.
            guard var expense = try? await recurringExpense(id, of: details, connection), expense.nextDate == date, expense.status == .active
            else { return nil }
            let usual = expense.entryID(on: date)
            let taken = try await connection.row("SELECT 1 FROM spendingEntry WHERE id = \(usual)", logger: logger) != nil
            let (entry, note) = try record(&expense, details, taken ? UUID() : usual)
            try await update(expense, connection)
            guard try await insert(entry, importKey: nil, ledger: ledger, connection) else { return nil }
            try await changeTotals(of: ledger, connection) { try $0.add(entry) }
            try await log(note, ledger: ledger, user: expense.createdBy, at: entry.createdAt, connection)
            return entry
        }
    }

    // MARK: - Inside a transaction

    func recurringExpenses(of details: LedgerDetails, _ connection: PostgresConnection) async throws -> [RecurringExpense] {
        try await connection.rows("""
            SELECT \(unescaped: Self.recurringColumns) FROM recurringExpense WHERE ledgerId = \(details.ledger.id)
            """, logger: logger).map { try Self.recurringExpense($0, currency: details.ledger.currency) }
            .sorted(by: RecurringExpense.soonerFirst)
    }

    private func recurringExpense(_ id: UUID, of details: LedgerDetails, _ connection: PostgresConnection) async throws -> RecurringExpense {
        guard let row = try await connection.row("""
            SELECT \(unescaped: Self.recurringColumns) FROM recurringExpense WHERE id = \(id) AND ledgerId = \(details.ledger.id)
            """, logger: logger) else { throw noRecurringExpense(id) }
        return try Self.recurringExpense(row, currency: details.ledger.currency)
    }

    private static let recurringColumns = """
        recurringExpense.id, recurringExpense.ledgerId, recurringExpense.amount, recurringExpense.payerId, recurringExpense.description,
        recurringExpense.category, recurringExpense.splitMethod, recurringExpense.splitParts, recurringExpense.every,
        recurringExpense.weekday, recurringExpense.day, recurringExpense.month, recurringExpense.timeZone, recurringExpense.nextDate,
        recurringExpense.endDate, recurringExpense.pausedAt, recurringExpense.createdBy, recurringExpense.createdAt,
        recurringExpense.payers
        """

    /// A row of `recurringColumns`, followed by the ledger's currency when `currency` is nil.
    private static func recurringExpense(_ row: PostgresRow, currency: Currency?) throws -> RecurringExpense {
        let (id, ledger, amount, payer, description, category, splitMethod, splitParts, every, weekday, day, month, timeZone,
             nextDate, endDate, pausedAt, createdBy, createdAt, payers) = try row.decode(
                (UUID, UUID, Int64, MemberID, String?, String?, String, String, String, Int?, Int?, Int?, String, LocalDate, LocalDate?,
                 Date?, UUID?, Date, String?).self)
        return try .stored(id: id, ledger: ledger, amount: amount, currency: try currency ?? Currency(code: try row.makeRandomAccess()[19].decode(String.self)),
                           payer: payer, payers: payers, description: description, category: category, splitMethod: splitMethod, splitParts: splitParts,
                           every: every, weekday: weekday, day: day, month: month, timeZone: timeZone, nextDate: nextDate, endDate: endDate,
                           pausedAt: pausedAt, createdBy: createdBy, createdAt: createdAt)
    }

    private func insert(_ expense: RecurringExpense, _ connection: PostgresConnection) async throws {
        let template = expense.template, rule = expense.storedRule
        try await connection.run("""
            INSERT INTO recurringExpense (id, ledgerId, amount, payerId, description, category, splitMethod, splitParts, every, weekday,
                day, month, timeZone, nextDate, endDate, pausedAt, createdBy, createdAt, payers)
            VALUES (\(expense.id), \(expense.ledger), \(template.amount.minorUnits), \(template.payer), \(template.description),
                \(template.category), \(template.split.method.rawValue), \(expense.storedSplitParts), \(rule.every), \(rule.weekday),
                \(rule.day), \(rule.month), \(expense.timeZone), \(expense.nextDate), \(expense.endDate), \(expense.pausedAt),
                \(expense.createdBy), \(expense.createdAt), \(expense.storedPayers))
            """, logger: logger)
    }

    private func update(_ expense: RecurringExpense, _ connection: PostgresConnection) async throws {
        let template = expense.template, rule = expense.storedRule
        try await connection.run("""
            UPDATE recurringExpense SET amount = \(template.amount.minorUnits), payerId = \(template.payer), payers = \(expense.storedPayers),
                description = \(template.description), category = \(template.category), splitMethod = \(template.split.method.rawValue),
                splitParts = \(expense.storedSplitParts), every = \(rule.every), weekday = \(rule.weekday), day = \(rule.day),
                month = \(rule.month), timeZone = \(expense.timeZone), nextDate = \(expense.nextDate), endDate = \(expense.endDate),
                pausedAt = \(expense.pausedAt)
            WHERE id = \(expense.id)
            """, logger: logger)
    }
}
