import Foundation

/// The fewest transfers that bring every balance to zero (S4).
///
/// Members whose balances sum to zero can settle among themselves with one transfer fewer than
/// their number, so the optimum is n − (the largest number of disjoint zero-sum groups). Up to
/// `exactLimit` non-zero balances a dynamic programme over all 2^n subsets finds that number;
/// beyond it, the greedy plan (largest debtor pays largest creditor) is used. Either way there are
/// never more than n − 1 transfers.
public enum SettlementPlan {
    public static let exactLimit = 20

    public struct Step: Hashable, Sendable {
        public let from: MemberID
        public let to: MemberID
        public let amount: Int64
    }

    /// `balances` must sum to zero. Deterministic: the same balances always give the same plan.
    public static func fewestTransfers(_ balances: [(MemberID, Int64)]) -> [Step] {
        let open = balances.filter { $0.1 != 0 }.sorted { $0.0 < $1.0 }
        guard open.count > 1 else { return [] }
        guard open.count <= exactLimit else { return greedy(open) }
        return zeroSumGroups(open).flatMap(greedy)
    }

    /// Largest debtor pays largest creditor until nothing is left: each transfer zeroes at least
    /// one balance and the last zeroes two, so a group of k settles in at most k − 1 transfers.
    static func greedy(_ group: [(MemberID, Int64)]) -> [Step] {
        var creditors = group.filter { $0.1 > 0 }
        var debtors = group.filter { $0.1 < 0 }.map { ($0.0, -$0.1) }
        var steps: [Step] = []
        func largest(_ list: [(MemberID, Int64)]) -> Int? {
            list.indices.max { list[$0].1 < list[$1].1 || (list[$0].1 == list[$1].1 && list[$0].0 > list[$1].0) }
        }
        while let c = largest(creditors), let d = largest(debtors) {
            let amount = min(creditors[c].1, debtors[d].1)
            steps.append(Step(from: debtors[d].0, to: creditors[c].0, amount: amount))
            creditors[c].1 -= amount
            debtors[d].1 -= amount
            if creditors[c].1 == 0 { creditors.remove(at: c) }
            if debtors[d].1 == 0 { debtors.remove(at: d) }
        }
        return steps
    }

    /// Splits the balances into the largest number of disjoint groups that each sum to zero.
    ///
    /// best[mask] is the most zero-sum groups that the members in `mask` can be cut into when
    /// they are taken one at a time; a group ends each time the running sum returns to zero.
    static func zeroSumGroups(_ open: [(MemberID, Int64)]) -> [[(MemberID, Int64)]] {
        let n = open.count
        let full = (1 << n) - 1
        var sum = [Int64](repeating: 0, count: full + 1)
        var best = [UInt8](repeating: 0, count: full + 1)
        for mask in 1...full {
            let low = mask.trailingZeroBitCount
            sum[mask] = sum[mask & (mask - 1)] + open[low].1
            var most: UInt8 = 0
            var rest = mask
            while rest != 0 {
                let bit = rest & -rest
                most = max(most, best[mask ^ bit])
                rest ^= bit
            }
            best[mask] = most + (sum[mask] == 0 ? 1 : 0)
        }
        // Walk back from the full set: peel off members while the count allows, and close a
        // group each time the remaining set sums to zero.
        var groups: [[(MemberID, Int64)]] = []
        var current: [(MemberID, Int64)] = []
        var mask = full
        while mask != 0 {
            let closes: UInt8 = sum[mask] == 0 ? 1 : 0
            var rest = mask
            var chosen = 0
            while rest != 0 {
                let bit = rest & -rest
                if best[mask ^ bit] + closes == best[mask] { chosen = bit; break }
                rest ^= bit
            }
            if closes == 1, !current.isEmpty {
                groups.append(current)
                current = []
            }
            current.append(open[chosen.trailingZeroBitCount])
            mask ^= chosen
        }
        groups.append(current)
        return groups
    }
}
