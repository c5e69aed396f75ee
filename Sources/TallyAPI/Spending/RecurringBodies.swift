import Foundation
import TallyCore

// The bodies and views of recurring expenses: an expense's fields, the rule it repeats by, and
// when it starts and ends.

/// When an expense repeats: every `week` on a `weekday` (1 Monday … 7 Sunday), every `month` on
/// a `day` (1–31), or every `year` on a `month` and `day`.
public struct RepeatBody: Codable, Sendable, Equatable {
    public var every: RecurrenceRule.Frequency
    public var weekday: Int?
    public var day: Int?
    public var month: Int?

    public init(every: RecurrenceRule.Frequency, weekday: Int? = nil, day: Int? = nil, month: Int? = nil) {
        self.every = every
        self.weekday = weekday
        self.day = day
        self.month = month
    }

    public init(_ rule: RecurrenceRule) {
        switch rule {
        case .weekly(let weekday): self.init(every: .week, weekday: weekday)
        case .monthly(let day): self.init(every: .month, day: day)
        case .yearly(let month, let day): self.init(every: .year, day: day, month: month)
        }
    }

    /// The rule, refusing days that never come.
    public func rule() throws -> RecurrenceRule {
        try RecurrenceRule(every: every, weekday: weekday, day: day, month: month)
    }
}

public struct NewRecurringExpense: Codable, Sendable {
    public var amount: AmountValue
    /// The member who pays; you when absent, and `payers` too.
    public var payer: MemberID?
    /// Several members who pay, each their part, adding up to the amount; instead of `payer`.
    public var payers: [PayerBody]?
    public var description: String?
    public var category: String?
    public var split: SplitBody?
    public var `repeat`: RepeatBody
    /// The first day it may fall on; today when absent.
    public var startDate: LocalDate?
    /// The last day it may fall on; none when absent.
    public var endDate: LocalDate?
    /// The IANA zone whose days count; yours when absent.
    public var timeZone: String?

    public init(amount: AmountValue, payer: MemberID? = nil, payers: [PayerBody]? = nil, description: String? = nil, category: String? = nil,
                split: SplitBody? = nil, repeat: RepeatBody, startDate: LocalDate? = nil, endDate: LocalDate? = nil, timeZone: String? = nil) {
        self.amount = amount
        self.payer = payer
        self.payers = payers
        self.description = description
        self.category = category
        self.split = split
        self.repeat = `repeat`
        self.startDate = startDate
        self.endDate = endDate
        self.timeZone = timeZone
    }
}

/// A change: fields left out stay as they are.
public struct RecurringExpenseChange: Codable, Sendable {
    public var amount: AmountValue?
    public var payer: MemberID?
    /// Several members who pay, each their part; instead of `payer`.
    public var payers: [PayerBody]?
    /// null or "": cleared.
    public var description: Patch<String>
    public var category: Patch<String>
    public var split: SplitBody?
    public var `repeat`: RepeatBody?
    public var startDate: LocalDate?
    /// null: no end.
    public var endDate: Patch<LocalDate>
    public var paused: Bool?

    public init(amount: AmountValue? = nil, payer: MemberID? = nil, payers: [PayerBody]? = nil, description: Patch<String> = .unchanged,
                category: Patch<String> = .unchanged, split: SplitBody? = nil, repeat: RepeatBody? = nil, startDate: LocalDate? = nil,
                endDate: Patch<LocalDate> = .unchanged, paused: Bool? = nil) {
        self.amount = amount
        self.payer = payer
        self.payers = payers
        self.description = description
        self.category = category
        self.split = split
        self.repeat = `repeat`
        self.startDate = startDate
        self.endDate = endDate
        self.paused = paused
    }
}

public struct RecurringExpenseJSON: Codable, Sendable {
    public var id: UUID
    public var amount: String
    public var currency: String
    /// Who pays it all, or the first (in member order) of several.
    public var payer: MemberID
    /// Everyone who pays and how much, in member order.
    public var payers: [PayerJSON]
    @ExplicitNull public var description: String?
    @ExplicitNull public var category: String?
    public var split: SplitMethod
    public var parts: [SplitPartJSON]
    public var `repeat`: RepeatBody
    /// The rule in words: "every month on the 1st".
    public var schedule: String
    public var timeZone: String
    /// The day of the next occurrence to be recorded (past `endDate` once it has ended).
    public var nextDate: LocalDate
    @ExplicitNull public var endDate: LocalDate?
    public var status: RecurringExpense.Status
    @ExplicitNull public var pausedAt: Date?
    public var createdAt: Date

    public init(_ expense: RecurringExpense) throws {
        let template = expense.template
        id = expense.id
        amount = template.amount.plain
        currency = template.amount.currency.code
        payer = template.payer
        payers = template.payers.map { PayerJSON(member: $0.member, paid: $0.amount.plain) }
        description = template.description
        category = template.category
        split = template.split.method
        parts = try SplitPartJSON.parts(of: template.split, amount: template.amount)
        self.repeat = RepeatBody(expense.rule)
        schedule = expense.rule.summary
        timeZone = expense.timeZone
        nextDate = expense.nextDate
        endDate = expense.endDate
        status = expense.status
        pausedAt = expense.pausedAt
        createdAt = expense.createdAt
    }
}

extension KeyedDecodingContainer {
    /// A ledger export written before recurring expenses were part of it has no `recurring`:
    /// read as none.
    public func decode(_ type: [RecurringExpenseJSON].Type, forKey key: Key) throws -> [RecurringExpenseJSON] {
        try decodeIfPresent(type, forKey: key) ?? []
    }
}

public struct RecurringExpenseList: Codable, Sendable {
    /// All of the ledger's (at most 100): the soonest first, the ended last.
    public var items: [RecurringExpenseJSON]

    public init(items: [RecurringExpenseJSON]) {
        self.items = items
    }
}
