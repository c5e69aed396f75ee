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
    public init(currency: Currency, members: [MemberID], entries: [SpendingEntry]) throws {
        self.init(currency: currency, members: members, totals: try LedgerTotals(entries: entries))
    }

    /// The balances of `members` from a ledger's kept totals: the same figures as from its
    /// entries, whatever the number of entries.
    public init(currency: Currency, members memberIDs: [MemberID], totals: LedgerTotals) {
        let kept = Set(memberIDs).union(totals.members.keys).sorted().map(totals.totals(of:))
        let fractions = kept.map { Self.sum($0.shareFractions) }
        let shares = Self.roundOnce(floors: zip(kept, fractions).map { $0.shareUnits + $1.whole },
                                    remainders: fractions.map(\.rest),
                                    total: kept.reduce(0) { $0 + $1.paid })
        self.currency = currency
        self.members = zip(kept, shares).map { kept, share in
            MemberBalance(member: kept.member, paid: kept.paid, share: share, sent: kept.sent, received: kept.received)
        }
    }

    /// Rounds exact shares (floors and the fractions above them) to whole minor units that add
    /// up to `total`: one unit each to the largest remainders, ties to the earlier member.
    static func roundOnce(floors: [Int64], remainders: [Decimal], total: Int64) -> [Int64] {
        var shares = floors
        var leftover = total - floors.reduce(0, +)
        let order = remainders.indices.sorted { (remainders[$0], $1) > (remainders[$1], $0) }
        var index = 0
        while leftover > 0, index < order.count {
            shares[order[index]] += 1
            leftover -= 1
            index += 1
        }
        return shares
    }

    /// Σ numerator/denominator as whole units and the rest (0 ≤ rest < 1): exactly while the
    /// common denominator fits in 64 bits, which it does for every split people make; beyond,
    /// to Decimal's 38 digits. Either way it depends only on the fractions, never on the order
    /// the entries came in.
    static func sum(_ fractions: [Int64: Int64]) -> (whole: Int64, rest: Decimal) {
        var (numerator, denominator): (Int64, Int64) = (0, 1)
        for (nextDenominator, nextNumerator) in fractions.sorted(by: { $0.key < $1.key }) {
            let common = Split.greatestCommonDivisor(denominator, nextDenominator)
            let (lcm, o1) = denominator.multipliedReportingOverflow(by: nextDenominator / common)
            let (left, o2) = numerator.multipliedReportingOverflow(by: nextDenominator / common)
            let (right, o3) = nextNumerator.multipliedReportingOverflow(by: denominator / common)
            let (sum, o4) = left.addingReportingOverflow(right)
            guard !(o1 || o2 || o3 || o4) else { return approximateSum(fractions) }
            let reduce = Split.greatestCommonDivisor(sum, lcm)
            (numerator, denominator) = (sum / reduce, lcm / reduce)
        }
        return (numerator / denominator, Decimal(numerator % denominator) / Decimal(denominator))
    }

    private static func approximateSum(_ fractions: [Int64: Int64]) -> (whole: Int64, rest: Decimal) {
        var total = fractions.sorted { $0.key < $1.key }.reduce(Decimal(0)) { $0 + Decimal($1.value) / Decimal($1.key) }
        var whole = Decimal()
        NSDecimalRound(&whole, &total, 0, .down)
        return (whole.exactInt64 ?? 0, total - whole)
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
