import Foundation
import TallyAPI
import TallyCore
import TallyRepositories

// The spending API's bodies as the service's inputs, and the service's values as the API's
// views: one translation, for the server and for the command line's local database alike.

extension AmountValue {
    var input: SpendingService.AmountInput {
        switch self {
        case .text(let text): .text(text)
        case .decimal(let number): .decimal(number)
        }
    }
}

extension SplitBody {
    public var input: SpendingService.SplitInput {
        .init(method: method, parts: (parts ?? []).map { .init(member: .id($0.member), value: $0.value?.input) })
    }
}

extension PayerBody {
    var input: SpendingService.PayerInput { .init(member: .id(member), paid: paid.input) }
}

extension NewExpense {
    public var input: SpendingService.ExpenseInput {
        .init(amount: amount.input, payer: payer.map { .id($0) }, payers: payers?.map(\.input), date: date,
              description: description, category: category, split: split?.input ?? .init(), id: id)
    }
}

extension EntryChangeBody {
    public var change: SpendingService.EntryChange {
        .init(amount: amount?.input, payer: payer.map { .id($0) }, payers: payers?.map(\.input), date: date,
              description: description.change.map { $0 ?? "" }, category: category.change.map { $0 ?? "" }, split: split?.input)
    }
}

extension SpendingService {
    /// A payment from its body; `from` is the user's member when the body leaves it out.
    public func recordPayment(in ledger: UUID, _ body: NewPayment) async throws -> (entry: SpendingEntry, created: Bool) {
        try await recordPayment(in: ledger, from: body.from.map { .id($0) }, to: .id(body.to), amount: body.amount.input,
                                date: body.date, note: body.note, id: body.id)
    }
}

extension LedgerJSON {
    public init(_ details: LedgerDetails, user: UUID) {
        self.init(id: details.ledger.id, name: details.ledger.name, currency: details.ledger.currency.code,
                  createdAt: details.ledger.createdAt,
                  members: details.members.map { MemberJSON(id: $0.id, name: $0.name, linked: $0.userID != nil, isYou: $0.userID == user) },
                  owner: details.owner?.id, invite: details.invite.map(InviteJSON.init), inviteCode: details.newInviteCode)
    }
}

extension InviteJSON {
    /// What anyone in the ledger may know of its invite: not its code.
    public init(_ invite: LedgerInvite) {
        self.init(createdAt: invite.createdAt, expiresAt: invite.expiresAt, usesLeft: invite.usesLeft)
    }
}

extension SummaryJSON {
    public init(_ summary: SpendingService.Summary) {
        let currency = summary.balances.currency
        func money(_ units: Int64) -> String { Money(minorUnits: units, currency: currency).plain }
        let name = summary.name
        self.init(
            currency: currency.code,
            members: summary.balances.members.map {
                BalanceJSON(member: $0.member, name: name($0.member), paid: money($0.paid), share: money($0.share),
                            sent: money($0.sent), received: money($0.received), balance: money($0.balance))
            },
            plan: summary.plan.map {
                TransferJSON(from: $0.from, fromName: name($0.from), to: $0.to, toName: name($0.to), amount: $0.amount.plain)
            },
            sentences: summary.sentences)
    }
}

extension ActivityJSON {
    public init(_ activity: LedgerActivity) {
        self.init(at: activity.at, actor: activity.actor, entryId: activity.entryID, text: activity.text)
    }
}

extension NewRecurringExpense {
    public func input() throws -> SpendingService.RecurringInput {
        .init(amount: amount.input, payer: payer.map { .id($0) }, payers: payers?.map(\.input), description: description,
              category: category, split: split?.input ?? .init(), rule: try self.repeat.rule(), startDate: startDate, endDate: endDate, timeZone: timeZone)
    }
}

extension RecurringExpenseChange {
    public func change() throws -> SpendingService.RecurringChange {
        .init(amount: amount?.input, payer: payer.map { .id($0) }, payers: payers?.map(\.input),
              description: description.change.map { $0 ?? "" },
              category: category.change.map { $0 ?? "" }, split: split?.input, rule: try self.repeat?.rule(), startDate: startDate,
              endDate: endDate.change, paused: paused)
    }
}
