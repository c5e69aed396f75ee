import Foundation

/// What one member has paid and owes in a ledger (S3).
public struct MemberBalance: Hashable, Sendable {
    public let member: MemberID
    /// Expenses this member paid for.
    public var paid: Int64
    /// This member's share of all expenses.
    public var share: Int64
    /// Payments this member made to other members.
    public var sent: Int64
    /// Payments this member received from other members.
    public var received: Int64

    public init(member: MemberID, paid: Int64 = 0, share: Int64 = 0, sent: Int64 = 0, received: Int64 = 0) {
        self.member = member
        self.paid = paid
        self.share = share
        self.sent = sent
        self.received = received
    }

    /// Positive: the others owe this member; negative: this member owes the others.
    ///
    /// A payment sent counts like money paid for the group and a payment received like a share
    /// taken, so recording the settle-up plan's transfers brings every balance to zero. (SPEC S3
    /// writes "+ received − sent"; with that sign a payment would double a debt instead of
    /// settling it.)
    public var balance: Int64 { paid - share + sent - received }
}

/// The balances of a ledger's members (S3).
///
/// Shares are added up exactly across all expenses and rounded once, for the ledger, by largest
/// remainder (ties to the earlier member). Rounding each expense and adding the rounded cents
/// would let the odd cents of many uneven splits pile up on one member; rounding once keeps every
/// member within a cent of their exact share, so two people splitting equally owe
/// |paid₁ − paid₂| ÷ 2 to the cent, and the balances still sum to exactly zero.
public struct LedgerBalances: Sendable {
    public let currency: Currency
    /// One per member, in member order, members with no activity included.
    public let members: [MemberBalance]

    /// The balances of `members` from the entries that are not deleted.
    public init(currency: Currency, members memberIDs: [MemberID], entries: [SpendingEntry]) throws {
        var balances = Dictionary(uniqueKeysWithValues: memberIDs.map { ($0, MemberBalance(member: $0)) })
        var exactShares: [MemberID: Decimal] = [:]
        var expenseTotal: Int64 = 0
        for entry in entries where entry.deletedAt == nil {
            switch entry.kind {
            case .payment:
                balances[entry.payer, default: MemberBalance(member: entry.payer)].sent += entry.amount.minorUnits
                for (member, share) in try entry.shares {
                    balances[member, default: MemberBalance(member: member)].received += share.minorUnits
                }
            case .expense:
                balances[entry.payer, default: MemberBalance(member: entry.payer)].paid += entry.amount.minorUnits
                expenseTotal += entry.amount.minorUnits
                for (member, share) in try entry.split.exactShares(of: entry.amount) {
                    exactShares[member, default: 0] += share
                }
            }
        }
        let order = balances.keys.sorted()
        let rounded = Self.roundOnce(order.map { exactShares[$0] ?? 0 }, total: expenseTotal)
        for (member, share) in zip(order, rounded) { balances[member]!.share = share }
        self.currency = currency
        self.members = order.map { balances[$0]! }
    }

    /// Rounds exact shares to whole minor units that add up to `total`: floors, then one unit
    /// each to the largest remainders, ties to the earlier member.
    static func roundOnce(_ exact: [Decimal], total: Int64) -> [Int64] {
        var floors: [Int64] = []
        var remainders: [Decimal] = []
        for value in exact {
            var copy = value
            var floor = Decimal()
            NSDecimalRound(&floor, &copy, 0, .down)
            floors.append(floor.exactInt64 ?? 0)
            remainders.append(value - floor)
        }
        var leftover = total - floors.reduce(0, +)
        let order = remainders.indices.sorted { (remainders[$0], $1) > (remainders[$1], $0) }
        var index = 0
        while leftover > 0, index < order.count {
            floors[order[index]] += 1
            leftover -= 1
            index += 1
        }
        return floors
    }

    /// Always zero: checked by the tests over random ledgers.
    public var total: Int64 { members.reduce(0) { $0 + $1.balance } }

    public func balance(of member: MemberID) -> Money {
        Money(minorUnits: members.first { $0.member == member }?.balance ?? 0, currency: currency)
    }

    /// Who pays whom to settle everything, with the fewest transfers (S4).
    public var plan: [Transfer] {
        SettlementPlan.fewestTransfers(members.map { ($0.member, $0.balance) })
            .map { Transfer(from: $0.from, to: $0.to, amount: Money(minorUnits: $0.amount, currency: currency)) }
    }
}

/// One payment of a settle-up plan.
public struct Transfer: Hashable, Sendable {
    public let from: MemberID
    public let to: MemberID
    public let amount: Money

    public init(from: MemberID, to: MemberID, amount: Money) {
        self.from = from
        self.to = to
        self.amount = amount
    }
}
