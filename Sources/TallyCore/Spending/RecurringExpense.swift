import Foundation

/// What each occurrence of a recurring expense records: an expense without its day.
public struct ExpenseTemplate: Hashable, Sendable {
    public var amount: Money
    /// Who pays, in member order: one member the whole amount, or several their parts.
    public var payers: [PayerPart]
    public var description: String?
    public var category: String?
    public var split: Split

    /// Checks the template with the very rules of an expense (S2), against `members`.
    public init(amount: Money, payers: [PayerPart], description: String?, category: String?, split: Split, members: [LedgerMember]) throws {
        let checked = try SpendingEntry(id: UUID(), kind: .expense, amount: amount, payers: payers, date: LocalDate(year: 2000, month: 1, day: 1)!,
                                        description: description, category: category, split: split, createdAt: Date(), members: members)
        self.init(checked)
    }

    /// One member pays the whole amount.
    public init(amount: Money, payer: MemberID, description: String?, category: String?, split: Split, members: [LedgerMember]) throws {
        try self.init(amount: amount, payers: [PayerPart(member: payer, amount: amount)], description: description,
                      category: category, split: split, members: members)
    }

    /// The one member who pays, or the first (in member order) of several.
    public var payer: MemberID { payers[0].member }

    /// An expense's template: its amount, payer, description, category and split.
    public init(_ entry: SpendingEntry) {
        amount = entry.amount
        payers = entry.payers
        description = entry.description
        category = entry.category
        // An exact split typed in another currency becomes the shares it came to in the ledger's.
        let converted = entry.original == nil || entry.split.method != .exact ? nil
            : (try? entry.shares).flatMap { shares in try? Split(method: .exact, parts: shares.map { SplitPart(member: $0.member, value: $0.share.decimal) }) }
        split = converted ?? entry.split
    }

    /// As stored, checked when it was written.
    public init(stored amount: Money, payers: [PayerPart], description: String?, category: String?, split: Split) {
        self.amount = amount
        self.payers = payers
        self.description = description
        self.category = category
        self.split = split
    }

    /// The expense of the occurrence on `date`, checked against the ledger's members as they are now.
    public func entry(id: UUID, on date: LocalDate, createdAt: Date, members: [LedgerMember]) throws -> SpendingEntry {
        try SpendingEntry(id: id, kind: .expense, amount: amount, payers: payers, date: date, description: description,
                          category: category, split: split, createdAt: createdAt, members: members)
    }
}

/// An expense that a ledger records by itself on the days of its rule (rent, subscriptions),
/// counted in the time zone it was set up in.
public struct RecurringExpense: Hashable, Sendable, Identifiable {
    public let id: UUID
    public let ledger: UUID
    public var template: ExpenseTemplate
    public var rule: RecurrenceRule
    /// The IANA zone whose days the rule counts: whose "today" decides that an occurrence is due.
    public var timeZone: String
    /// The day of the next occurrence not yet recorded.
    public var nextDate: LocalDate
    /// The last day an occurrence may fall on; nil for no end.
    public var endDate: LocalDate?
    /// When it was paused; nil while it runs. Occurrences that fall while it is paused are skipped.
    public var pausedAt: Date?
    /// The account that set it up: the activity log names it for the entries it records.
    public var createdBy: UUID?
    public var createdAt: Date

    public init(id: UUID, ledger: UUID, template: ExpenseTemplate, rule: RecurrenceRule, timeZone: String, nextDate: LocalDate, endDate: LocalDate?,
                pausedAt: Date?, createdBy: UUID?, createdAt: Date) {
        self.id = id
        self.ledger = ledger
        self.template = template
        self.rule = rule
        self.timeZone = timeZone
        self.nextDate = nextDate
        self.endDate = endDate
        self.pausedAt = pausedAt
        self.createdBy = createdBy
        self.createdAt = createdAt
    }

    public enum Status: String, NamedChoice, Sendable {
        case active, paused, ended
    }

    /// Ended once its next occurrence would fall after its end; paused while paused.
    public var status: Status {
        if let endDate, nextDate > endDate { return .ended }
        return pausedAt == nil ? .active : .paused
    }

    /// The zone of `timeZone` (UTC should the name ever stop being known).
    public var zone: TimeZone { TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")! }

    /// The day it is now where the rule counts its days.
    public func today(at now: Date) -> LocalDate { LocalDate(containing: now, in: zone) }

    /// The day of the occurrence due at `now`, if one is: active, and its day has come.
    public func dueOccurrence(at now: Date) -> LocalDate? {
        status == .active && nextDate <= today(at: now) ? nextDate : nil
    }

    /// Moves the next occurrence past `date`'s; with no later day to come, it ends on `date`.
    public mutating func advance(past date: LocalDate) {
        if let next = rule.occurrence(after: date) {
            nextDate = next
        } else {
            endDate = date
            nextDate = date.adding(days: 1)
        }
    }

    /// "Rent (every month on the 1st)", or the amount for one without a description.
    public var title: String {
        "\(template.description ?? "\(template.amount)") (\(rule.summary))"
    }

    /// The title as a phrase, its schedule written in the reader's language.
    public var titlePhrase: Phrase {
        guard let description = template.description else { return Phrase("\(money: template.amount) (\(rule.summaryPhrase))") }
        return Phrase("\(description) (\(rule.summaryPhrase))")
    }

    /// The most recurring expenses one ledger may have: all of them are read at once.
    public static let maximumPerLedger = 100
}
