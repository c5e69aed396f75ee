import Foundation

/// A ledger member's id. Members are numbered in the order they joined, which is also the stable
/// order that breaks ties when cents are shared out.
public typealias MemberID = Int64

/// How an expense is shared (S2).
public enum SplitMethod: String, NamedChoice, Sendable {
    /// Equal parts among the listed members (all members unless a subset is named).
    case equal
    /// In proportion to each member's share count (2 shares pay twice as much as 1).
    case shares
    /// Exact amounts that add up to the expense.
    case exact
    /// Percentages that add up to 100.
    case percent
}

/// One member's part in a split: a share count, an exact amount or a percentage, by the method.
public struct SplitPart: Hashable, Sendable {
    public let member: MemberID
    public let value: Decimal

    public init(member: MemberID, value: Decimal = 1) {
        self.member = member
        self.value = value
    }
}

/// How one expense is divided among members, checked against its amount.
///
/// Shares are worked out in integer minor units by largest remainder: each member gets the floor
/// of their exact share, and the cents left over go one each to the largest remainders, ties to the
/// earlier member. The result depends only on the stored split, so re-computing never moves a cent
/// (S3).
public struct Split: Hashable, Sendable {
    public let method: SplitMethod
    /// Ordered by member, each member once.
    public let parts: [SplitPart]

    public static let maximumShares: Decimal = 1000
    /// Share counts and percentages may have this many decimals (IHateMoney weights such as 1.5).
    static let valueDecimals = 4

    /// An equal split among `members`.
    public static func equal(_ members: [MemberID]) throws -> Split {
        try Split(method: .equal, parts: members.map { SplitPart(member: $0) })
    }

    public init(method: SplitMethod, parts: [SplitPart]) throws {
        guard !parts.isEmpty else {
            throw TallyError.invalid("A split needs at least one member to share the expense.", field: "split")
        }
        let members = parts.map(\.member)
        guard Set(members).count == members.count else {
            throw TallyError.invalid("A split names a member twice: list each member once.", field: "split")
        }
        self.method = method
        self.parts = method == .equal
            ? parts.map { SplitPart(member: $0.member) }.sorted { $0.member < $1.member }
            : parts.sorted { $0.member < $1.member }
        try checkValues()
    }

    public var members: [MemberID] { parts.map(\.member) }

    /// Each member's share of `amount`, in member order; the shares add up to `amount` exactly.
    public func shares(of amount: Money) throws -> [(member: MemberID, share: Money)] {
        let currency = amount.currency
        switch method {
        case .exact:
            let exact = try parts.map { part in
                (member: part.member, share: try Money(exactly: part.value, currency: currency))
            }
            let total = exact.reduce(Int64(0)) { $0 + $1.share.minorUnits }
            guard total == amount.minorUnits else {
                let sum = Money(minorUnits: total, currency: currency)
                throw TallyError.invalid("The exact amounts add up to \(sum.plain), not \(amount.plain): change them by \((amount - sum).plain) so they match the expense.", field: "split")
            }
            return exact
        case .equal, .shares, .percent:
            let weights = parts.map { Self.scaledWeight($0.value) }
            let allocated = Self.largestRemainder(amount.minorUnits, weights: weights)
            return zip(parts, allocated).map { (member: $0.member, share: Money(minorUnits: $1, currency: currency)) }
        }
    }

    /// Each member's share of `amount`, an entry's amount in its ledger's currency, typed as
    /// `typed` (another currency, or the same amount). An exact split, typed in the entry's own
    /// currency, shares the converted amount in proportion to its exact parts.
    public func shares(of amount: Money, typedAs typed: Money) throws -> [(member: MemberID, share: Money)] {
        guard method == .exact, typed.currency != amount.currency else { return try shares(of: amount) }
        let weights = try shares(of: typed).map(\.share.minorUnits)
        return zip(parts, Self.largestRemainder(amount.minorUnits, weights: weights))
            .map { (member: $0.member, share: Money(minorUnits: $1, currency: amount.currency)) }
    }

    /// The weights by which `amount` (typed as `typed`) is shared: share counts and percentages
    /// in 1/10^4, equal parts alike, and an exact split typed in another currency by its parts.
    func weights(of amount: Money, typedAs typed: Money) throws -> [Int64]? {
        switch method {
        case .exact:
            guard typed.currency != amount.currency else { return nil }
            return try shares(of: typed).map(\.share.minorUnits)
        case .equal, .shares, .percent:
            return parts.map { Self.scaledWeight($0.value) }
        }
    }

    /// Splits `total` in proportion to `weights` (all > 0) so that the parts add up to `total`.
    static func largestRemainder(_ total: Int64, weights: [Int64]) -> [Int64] {
        let weightSum = weights.reduce(0, +)
        guard weightSum > 0 else { return weights.map { _ in 0 } }
        var parts = weights.map { total * $0 / weightSum }
        var leftover = total - parts.reduce(0, +)
        // Largest remainder first; ties go to the earlier member (the sort is stable).
        let order = weights.indices.sorted {
            ((total * weights[$0]) % weightSum, $1) > ((total * weights[$1]) % weightSum, $0)
        }
        var index = 0
        while leftover > 0 {
            parts[order[index]] += 1
            leftover -= 1
            index += 1
        }
        return parts
    }

    /// A share count or percentage as an integer in 1/10^4 units.
    static func scaledWeight(_ value: Decimal) -> Int64 {
        var scaled = value * 10_000
        var whole = Decimal()
        NSDecimalRound(&whole, &scaled, 0, .plain)
        // Weights are checked (at most 1000, 4 decimals) before they are scaled.
        return whole.exactInt64 ?? 0
    }

    private func checkValues() throws {
        switch method {
        case .equal, .exact:
            // Exact amounts are checked against the expense and its currency in `shares(of:)`.
            if method == .exact, let negative = parts.first(where: { $0.value < 0 }) {
                throw TallyError.invalid("An exact amount cannot be negative (\(negative.value)).", field: "split")
            }
        case .shares:
            for part in parts {
                guard part.value > 0, part.value <= Self.maximumShares, Self.hasAtMostValueDecimals(part.value) else {
                    throw TallyError.invalid("A share count must be more than 0 and at most \(Self.maximumShares), with at most \(Self.valueDecimals) decimals; \(part.value) is not.", field: "split")
                }
            }
        case .percent:
            for part in parts {
                guard part.value > 0, part.value <= 100, Self.hasAtMostValueDecimals(part.value) else {
                    throw TallyError.invalid("A percentage must be more than 0 and at most 100, with at most \(Self.valueDecimals) decimals; \(part.value) is not.", field: "split")
                }
            }
            let total = parts.reduce(Decimal(0)) { $0 + $1.value }
            guard total == 100 else {
                throw TallyError.invalid("The percentages add up to \(total)%, not 100%: change them by \(100 - total) so they add up.", field: "split")
            }
        }
    }

    private static func hasAtMostValueDecimals(_ value: Decimal) -> Bool {
        var scaled = value * 10_000
        var whole = Decimal()
        NSDecimalRound(&whole, &scaled, 0, .down)
        return whole == scaled
    }
}
