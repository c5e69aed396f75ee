import Foundation
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// The members of a ledger being restored, found by the names the backup gives its members'
/// ids: what the backup's entries and recurring expenses say of them, among the ledger's members.
struct RestoredMembers {
    let names: [MemberID: String]
    let details: LedgerDetails
    private let found: MemberNames

    init(names: [MemberID: String], details: LedgerDetails) {
        self.names = names
        self.details = details
        found = MemberNames(details.members)
    }

    func member(_ id: MemberID) throws -> MemberID {
        guard let name = names[id] else { throw TallyError.invalid("it names member \(id), whom the ledger does not have") }
        return try found.member(named: name).id
    }

    func split(_ method: SplitMethod, _ parts: [SplitPartJSON]) throws -> Split {
        try Split(method: method, parts: parts.map { part in
            guard let value = Decimal(string: part.value, locale: Locale(identifier: "en_US_POSIX")) else {
                throw TallyError.invalid("\(UserText.quoted(part.value)) is not a share")
            }
            return SplitPart(member: try member(part.member), value: value)
        })
    }

    /// Each of `payers` their part when several paid; otherwise `payer` paid all of `amount` (a
    /// backup from before several payers lists none).
    func payers(_ payers: [PayerJSON], payer: MemberID, amount: Money) throws -> [PayerPart] {
        guard payers.count > 1 else { return [PayerPart(member: try member(payer), amount: amount)] }
        return try payers.map { PayerPart(member: try member($0.member), amount: try Money(parsing: $0.paid, currency: amount.currency)) }
    }
}

extension RecurringExpenseJSON {
    /// How far back a restore records what fell due: a year of missed rent, not decades.
    static let restoredDays = 366

    /// The recurring expense this export line describes, in the restored ledger under `id`, as
    /// it was: its rule, zone, end and pause. Its next day moves to within `restoredDays` of
    /// `now`, then past the last occurrence due by now that the backup holds already (`recorded`
    /// entry ids, deleted ones too), so that none is recorded twice.
    func recurringExpense(id: UUID, members: RestoredMembers, recorded: Set<UUID>, by user: UUID, now: Date) throws -> RecurringExpense {
        let details = members.details
        let amount = try TransactionAmount.parse(self.amount, currency: details.ledger.currency)
        let template = try ExpenseTemplate(amount: amount, payers: try members.payers(payers, payer: payer, amount: amount),
                                           description: description, category: category,
                                           split: try members.split(split, parts), members: details.members)
        let rule = try self.repeat.rule()
        let backup = RecurringExpense(id: self.id, ledger: details.ledger.id, template: template, rule: rule,
                                      timeZone: try UserTimeZone.validated(timeZone), nextDate: nextDate, endDate: endDate,
                                      pausedAt: pausedAt, createdBy: user, createdAt: createdAt)
        let today = backup.today(at: now)
        let earliest = max(nextDate, today.adding(days: -Self.restoredDays))
        var restored = backup
        restored.nextDate = rule.occurrence(onOrAfter: earliest) ?? earliest
        var probe = restored
        while probe.status != .ended, probe.nextDate <= today {
            let date = probe.nextDate
            probe.advance(past: date)
            if recorded.contains(backup.entryID(on: date)) { restored = probe }
        }
        return RecurringExpense(id: id, ledger: restored.ledger, template: template, rule: rule, timeZone: restored.timeZone,
                                nextDate: restored.nextDate, endDate: restored.endDate, pausedAt: pausedAt, createdBy: user, createdAt: createdAt)
    }
}
