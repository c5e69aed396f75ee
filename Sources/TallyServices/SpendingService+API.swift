import Foundation
import TallyAPI
import TallyCore
import TallyRepositories

// The service's values as the API's views: one translation, for the server and for the command
// line's local database alike.

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
