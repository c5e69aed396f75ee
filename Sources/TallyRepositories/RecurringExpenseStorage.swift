import Foundation
import TallyCore

// A recurring expense as both stores keep it: the template's split as JSON text (each member
// with the exact decimal text of its value), several payers as JSON text (each member with what
// they pay in minor units; none when one member pays it all), the rule as its frequency and days.

extension RecurringExpense {
    /// From the stored columns, in either store.
    package static func stored(id: UUID, ledger: UUID, amount: Int64, currency: Currency, payer: MemberID, payers: String?,
                               description: String?,
                               category: String?, splitMethod: String, splitParts: String, every: String, weekday: Int?, day: Int?,
                               month: Int?, timeZone: String, nextDate: LocalDate, endDate: LocalDate?, pausedAt: Date?,
                               createdBy: UUID?, createdAt: Date) throws -> RecurringExpense {
        let parts = try JSONDecoder().decode([StoredPart].self, from: Data(splitParts.utf8))
            .map { SplitPart(member: $0.member, value: Decimal(string: $0.value) ?? 0) }
        let split = try Split(method: SplitMethod(rawValue: splitMethod) ?? .equal, parts: parts)
        let amount = Money(minorUnits: amount, currency: currency)
        let payers = try payers.map { text in
            try JSONDecoder().decode([StoredPayer].self, from: Data(text.utf8))
                .map { PayerPart(member: $0.member, amount: Money(minorUnits: $0.paid, currency: currency)) }
        } ?? [PayerPart(member: payer, amount: amount)]
        let rule = try RecurrenceRule(every: RecurrenceRule.Frequency(rawValue: every) ?? .month, weekday: weekday, day: day, month: month)
        return RecurringExpense(
            id: id, ledger: ledger,
            template: ExpenseTemplate(stored: amount, payers: payers, description: description,
                                      category: category, split: split),
            rule: rule, timeZone: timeZone, nextDate: nextDate, endDate: endDate, pausedAt: pausedAt, createdBy: createdBy, createdAt: createdAt)
    }

    /// The split's members and values as stored.
    package var storedSplitParts: String {
        let parts = template.split.parts.map { StoredPart(member: $0.member, value: $0.storedValue) }
        return String(decoding: (try? JSONEncoder().encode(parts)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// Several payers as stored; nil when one member pays it all.
    package var storedPayers: String? {
        guard template.payers.count > 1 else { return nil }
        let payers = template.payers.map { StoredPayer(member: $0.member, paid: $0.amount.minorUnits) }
        return (try? JSONEncoder().encode(payers)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The rule as stored: its frequency and the days that go with it.
    package var storedRule: (every: String, weekday: Int?, day: Int?, month: Int?) {
        switch rule {
        case .weekly(let weekday): ("week", weekday, nil, nil)
        case .monthly(let day): ("month", nil, day, nil)
        case .yearly(let month, let day): ("year", nil, day, month)
        }
    }

    /// The order a ledger lists them in: the running and paused by their next day, the ended last.
    package static func soonerFirst(_ a: RecurringExpense, _ b: RecurringExpense) -> Bool {
        ((a.status == .ended ? 1 : 0), a.nextDate, a.createdAt) < ((b.status == .ended ? 1 : 0), b.nextDate, b.createdAt)
    }

    /// Whether `member` pays for or shares in it: such a member cannot leave the ledger.
    package func involves(_ member: MemberID) -> Bool {
        template.payers.contains { $0.member == member } || template.split.members.contains(member)
    }
}

extension SplitPart {
    /// The share count, percentage or exact amount as both stores keep it: exact decimal text,
    /// never a float.
    package var storedValue: String { "\(value)" }
}

private struct StoredPayer: Codable {
    var member: MemberID
    var paid: Int64
}

private struct StoredPart: Codable {
    var member: MemberID
    var value: String
}
