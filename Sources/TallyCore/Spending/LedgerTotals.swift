import Foundation

/// One member's running totals in a ledger, exact, from which the balance is read (S3).
///
/// An uneven split gives a member a fraction of a minor unit (a third of a cent), and the
/// ledger rounds the sum of those fractions once. So that the totals can be kept up to date one
/// entry at a time, and still equal a recomputation from all the entries whatever their order,
/// the share is kept exactly: whole minor units plus one fraction per denominator.
public struct MemberTotals: Hashable, Sendable {
    public let member: MemberID
    /// Expenses this member paid for.
    public var paid: Int64 = 0
    /// Payments this member made to other members.
    public var sent: Int64 = 0
    /// Payments this member received from other members.
    public var received: Int64 = 0
    /// The whole minor units of this member's exact share of all expenses.
    public var shareUnits: Int64 = 0
    /// The rest of the exact share: numerator by denominator, each numerator in 1..<denominator.
    public var shareFractions: [Int64: Int64] = [:]

    public init(member: MemberID, paid: Int64 = 0, sent: Int64 = 0, received: Int64 = 0,
                shareUnits: Int64 = 0, shareFractions: [Int64: Int64] = [:]) {
        self.member = member
        self.paid = paid
        self.sent = sent
        self.received = received
        self.shareUnits = shareUnits
        self.shareFractions = shareFractions
    }

    /// Nothing paid, sent, received or shared.
    public var isZero: Bool { paid == 0 && sent == 0 && received == 0 && shareUnits == 0 && shareFractions.isEmpty }

    /// Adds (`sign` 1) or takes away (`sign` −1) `units` + `numerator`/`denominator` of a share.
    mutating func addShare(units: Int64, numerator: Int64, denominator: Int64, sign: Int64) {
        shareUnits += sign * units
        guard numerator != 0 else { return }
        var rest = (shareFractions[denominator] ?? 0) + sign * numerator
        if rest >= denominator {
            rest -= denominator
            shareUnits += 1
        } else if rest < 0 {
            rest += denominator
            shareUnits -= 1
        }
        shareFractions[denominator] = rest == 0 ? nil : rest
    }
}

/// A ledger's running totals: what the store keeps, in the same transaction as every change,
/// so that a summary costs the same at ten entries or ten thousand (S3).
public struct LedgerTotals: Hashable, Sendable {
    /// By member; a member with nothing recorded may be missing.
    public private(set) var members: [MemberID: MemberTotals]

    public init(_ members: [MemberTotals] = []) {
        self.members = Dictionary(members.map { ($0.member, $0) }, uniquingKeysWith: { $1 })
    }

    /// The totals recomputed from every entry that is not deleted.
    public init(entries: some Sequence<SpendingEntry>) throws {
        self.init()
        for entry in entries where entry.deletedAt == nil { try add(entry) }
    }

    /// Counts `entry` in, unless it is deleted.
    public mutating func add(_ entry: SpendingEntry) throws {
        try apply(entry, sign: 1)
    }

    /// Takes `entry` out again, unless it is deleted (then it was never counted).
    public mutating func remove(_ entry: SpendingEntry) throws {
        try apply(entry, sign: -1)
    }

    /// Replaces `old` by `new` (an edit, a delete or a restore).
    public mutating func replace(_ old: SpendingEntry, with new: SpendingEntry) throws {
        try remove(old)
        try add(new)
    }

    public func totals(of member: MemberID) -> MemberTotals { members[member] ?? MemberTotals(member: member) }

    private mutating func apply(_ entry: SpendingEntry, sign: Int64) throws {
        guard entry.deletedAt == nil else { return }
        func change(_ member: MemberID, _ body: (inout MemberTotals) -> Void) {
            var totals = self.totals(of: member)
            body(&totals)
            members[member] = totals.isZero ? nil : totals
        }
        switch entry.kind {
        case .payment:
            change(entry.payer) { $0.sent += sign * entry.amount.minorUnits }
            for (member, share) in try entry.shares {
                change(member) { $0.received += sign * share.minorUnits }
            }
        case .expense:
            for payer in entry.payers {
                change(payer.member) { $0.paid += sign * payer.amount.minorUnits }
            }
            for part in try entry.split.exactParts(of: entry.amount, typedAs: entry.typedAmount) {
                change(part.member) {
                    $0.addShare(units: part.units, numerator: part.numerator, denominator: part.denominator, sign: sign)
                }
            }
        }
    }
}

extension Split {
    /// One member's exact share of an amount: `units` + `numerator`/`denominator` minor units,
    /// the fraction in lowest terms and less than one.
    public struct ExactPart: Hashable, Sendable {
        public let member: MemberID
        public let units: Int64
        public let numerator: Int64
        public let denominator: Int64
    }

    /// Each member's exact share of `amount`, before any rounding, as whole units and a fraction;
    /// `typed` is the amount as typed, in another currency or the same.
    public func exactParts(of amount: Money, typedAs typed: Money? = nil) throws -> [ExactPart] {
        guard let weights = try weights(of: amount, typedAs: typed ?? amount) else {
            return try shares(of: amount).map { ExactPart(member: $0.member, units: $0.share.minorUnits, numerator: 0, denominator: 1) }
        }
        let weightSum = weights.reduce(0, +)
        return zip(parts, weights).map { part, weight in
            // amount × weight can pass 2⁶³; the quotient never passes the amount.
            let (units, remainder) = weightSum.dividingFullWidth(amount.minorUnits.multipliedFullWidth(by: weight))
            let common = Self.greatestCommonDivisor(remainder, weightSum)
            return remainder == 0
                ? ExactPart(member: part.member, units: units, numerator: 0, denominator: 1)
                : ExactPart(member: part.member, units: units, numerator: remainder / common, denominator: weightSum / common)
        }
    }

    static func greatestCommonDivisor(_ a: Int64, _ b: Int64) -> Int64 {
        var (a, b) = (a.magnitude, b.magnitude)
        while b != 0 { (a, b) = (b, a % b) }
        return Int64(a)
    }
}
