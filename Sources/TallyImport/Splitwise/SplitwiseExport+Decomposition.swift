extension SplitwiseExport {
    /// Who paid what and whose share was what, in minor units, from a row's cost and its effects
    /// (paid minus share, adding up to 0). The effects alone do not say it; the reading is:
    ///
    /// - The people whose effect is positive paid, and between them the whole cost. What their
    ///   effects leave of the cost (the cost minus their sum) is what they spent on themselves:
    ///   it is shared among them in proportion to their effects (by largest remainder, in exact
    ///   minor units, ties to the earlier column). Each one's share is that part, and each paid
    ///   their effect plus it. One payer with effect e of a cost C paid C and their share is C − e.
    /// - The people whose effect is negative paid nothing; their share is what it takes off.
    /// - The people whose effect is 0 paid nothing and have no share.
    /// - A row whose effects are all 0 (an expense someone paid for themselves alone, or one that
    ///   moves nothing): the export does not say whose it was, so the first person paid all of it
    ///   and owes all of it, and no balance moves.
    ///
    /// A payment comes out as the sender paying the cost and the receiver's share being all of it.
    /// Nil when the positive effects add up to more than the cost: the row says people got back
    /// more than was spent.
    static func decomposition(cost: Int64, effects: [Int64]) -> (paid: [Int64], shares: [Int64])? {
        let credits = effects.map { max($0, 0) }
        let credited = credits.reduce(0, +)
        guard credited <= cost else { return nil }
        guard credited > 0 else {
            let firstOnly = effects.indices.map { $0 == 0 ? cost : 0 }
            return (firstOnly, firstOnly)
        }
        let own = proportional(cost - credited, weights: credits)
        let paid = effects.indices.map { credits[$0] + own[$0] }
        let shares = effects.indices.map { effects[$0] > 0 ? own[$0] : -effects[$0] }
        return (paid, shares)
    }

    /// `total` split in proportion to `weights` (not negative, adding up to more than 0), in
    /// whole units that add up to `total`: each gets the floor of their exact part, and the units
    /// left go one each to the largest remainders, ties to the earlier one. Products are worked
    /// out in 128 bits, so no amount a cost can have overflows.
    static func proportional(_ total: Int64, weights: [Int64]) -> [Int64] {
        let sum = weights.reduce(0, +)
        let exact = weights.map { sum.dividingFullWidth(total.multipliedFullWidth(by: $0)) }
        var parts = exact.map(\.quotient)
        let left = Int(total - parts.reduce(0, +))
        let order = weights.indices.sorted { (exact[$0].remainder, $1) > (exact[$1].remainder, $0) }
        for index in order.prefix(left) { parts[index] += 1 }
        return parts
    }
}
