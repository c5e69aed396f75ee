import Foundation
import PropertyBased
import Testing
@testable import TallyCore

/// S3, S4 over random ledgers: every split adds up, balances sum to zero, the plan settles
/// everything in at most n − 1 transfers, and is as short as a brute-force optimum.
@Suite("Spending properties (S3, S4)")
struct SpendingPropertyTests {
    static let eur = Currency.euro

    /// A split of one random kind, derived from one random number so that failures shrink.
    static func split(from seed: Int, members: Int, amount: Int64) throws -> Split {
        var bits = UInt64(seed)
        func next(_ bound: Int) -> Int {
            defer { bits /= UInt64(bound) }
            return Int(bits % UInt64(bound))
        }
        let subsetMask = max(1, next(1 << members))
        let subset = (0..<members).filter { subsetMask & (1 << $0) != 0 }.map { MemberID($0 + 1) }
        switch next(4) {
        case 0:
            return try .equal(subset)
        case 1:
            return try Split(method: .shares, parts: subset.map { SplitPart(member: $0, value: Decimal(next(5) + 1) / 2) })
        case 2:
            var left = 100
            let parts = subset.enumerated().map { index, member -> SplitPart in
                let take = index == subset.count - 1 ? left : min(left - (subset.count - 1 - index), next(left) + 1)
                left -= take
                return SplitPart(member: member, value: Decimal(take))
            }
            return try Split(method: .percent, parts: parts.filter { $0.value > 0 })
        default:
            var left = amount
            let parts = subset.enumerated().map { index, member -> SplitPart in
                let take = index == subset.count - 1 ? left : Int64(next(Int(left) + 1))
                left -= take
                return SplitPart(member: member, value: Money(minorUnits: take, currency: eur).decimal)
            }
            return try Split(method: .exact, parts: parts)
        }
    }

    /// Who paid `amount`, derived from one random number: one member, or up to four with random
    /// parts (every part at least one cent) that add up to it.
    static func payers(from seed: Int, members: Int, amount: Int64) -> [PayerPart] {
        var bits = UInt64(seed)
        func next(_ bound: Int) -> Int {
            defer { bits /= UInt64(bound) }
            return Int(bits % UInt64(bound))
        }
        let first = next(members)
        let count = next(2) == 0 ? 1 : Int(min(Int64(next(min(members, 4)) + 1), amount))
        var left = amount
        return (0..<count).map { index in
            let paid = index == count - 1 ? left : 1 + Int64(next(Int(left - Int64(count - 1 - index))))
            left -= paid
            return PayerPart(member: MemberID((first + index) % members + 1), amount: Money(minorUnits: paid, currency: eur))
        }
    }

    @Test("S3, S4: random ledgers balance to zero and settle in at most n − 1 transfers")
    func randomLedgers() async {
        await propertyCheck(count: 300, input: Gen.int(in: 2...9), Gen.int(in: 0...Int.max / 2).array(of: 1...40)) { memberCount, seeds in
            Self.checkLedger(memberCount: memberCount, seeds: seeds)
        }
    }

    /// Builds a ledger from the seeds and checks its splits, balances and plan.
    static func checkLedger(memberCount: Int, seeds: [Int]) {
        let people = (1...memberCount).map { LedgerMember(id: MemberID($0), name: "Member \($0)", userID: nil) }
        var entries: [SpendingEntry] = []
        var exactShares: [MemberID: Decimal] = [:]
        for seed in seeds {
            let amount = Int64(seed % 100_000_000) + 1
            let payers = Self.payers(from: seed / 3, members: memberCount, amount: amount)
            #expect(payers.reduce(0) { $0 + $1.amount.minorUnits } == amount)
            let split = try! Self.split(from: seed / 7, members: memberCount, amount: amount)
            let parts = try! split.shares(of: Money(minorUnits: amount, currency: eur))
            #expect(parts.reduce(0) { $0 + $1.share.minorUnits } == amount, "a split must add up to its amount")
            #expect(parts.allSatisfy { $0.share.minorUnits >= 0 })
            for part in try! split.exactParts(of: Money(minorUnits: amount, currency: eur)) {
                #expect(part.numerator >= 0 && part.numerator < part.denominator)
                exactShares[part.member, default: 0] += Decimal(part.units) + Decimal(part.numerator) / Decimal(part.denominator)
            }
            entries.append(try! SpendingEntry(id: UUID(), kind: .expense, amount: Money(minorUnits: amount, currency: eur), payers: payers,
                                              date: LocalDate(year: 2026, month: 1, day: 1)!, description: nil, category: nil,
                                              split: split, createdAt: Date(), members: people))
        }
        let ledger = try! LedgerBalances(currency: eur, members: people.map(\.id), entries: entries)
        #expect(ledger.total == 0)
        for member in ledger.members {
            let paid = entries.reduce(Int64(0)) { $0 + $1.paid(by: member.member).minorUnits }
            #expect(member.paid == paid, "a member has paid what they paid of every expense, alone or with others")
        }
        for member in ledger.members {
            let exact = exactShares[member.member] ?? 0
            #expect(abs(Decimal(member.share) - exact) < 1, "a member's share is within a cent of the exact share")
        }
        var after = Dictionary(uniqueKeysWithValues: ledger.members.map { ($0.member, $0.balance) })
        for transfer in ledger.plan {
            #expect(transfer.amount.minorUnits > 0)
            after[transfer.from, default: 0] += transfer.amount.minorUnits
            after[transfer.to, default: 0] -= transfer.amount.minorUnits
        }
        #expect(after.values.allSatisfy { $0 == 0 })
        let open = ledger.members.filter { $0.balance != 0 }.count
        #expect(ledger.plan.count <= max(0, open - 1))
    }

    @Test("S4: the exact plan is as short as a brute-force optimum")
    func optimal() async {
        await propertyCheck(count: 400, input: Gen.int64(in: -12...12).array(of: 1...7)) { values in
            let start = values.enumerated().map { (MemberID($0.offset + 1), $0.element) } + [(MemberID(99), -values.reduce(0, +))]
            let plan = SettlementPlan.fewestTransfers(start)
            #expect(plan.count == Self.bruteForceFewest(start.map(\.1).filter { $0 != 0 }))
        }
    }

    @Test("S4: many balances (greedy) still settle in at most n − 1 transfers")
    func greedyBeyondTwenty() async {
        await propertyCheck(count: 50, input: Gen.int64(in: -100_000...100_000).array(of: 21...60)) { values in
            let start = values.enumerated().map { (MemberID($0.offset + 1), $0.element) } + [(MemberID(1000), -values.reduce(0, +))]
            let plan = SettlementPlan.fewestTransfers(start)
            var after = Dictionary(uniqueKeysWithValues: start)
            for step in plan {
                after[step.from, default: 0] += step.amount
                after[step.to, default: 0] -= step.amount
            }
            #expect(after.values.allSatisfy { $0 == 0 })
            #expect(plan.count <= start.filter { $0.1 != 0 }.count - 1)
        }
    }

    /// The fewest transfers by trying every partition into zero-sum groups (n − most groups):
    /// a different method from the subset programme, and only fast for a handful of balances.
    static func bruteForceFewest(_ values: [Int64]) -> Int {
        guard !values.isEmpty else { return 0 }
        func mostGroups(_ rest: [Int64]) -> Int {
            guard let first = rest.first else { return 0 }
            let others = Array(rest.dropFirst())
            var best = Int.min
            // The group holding `first`: every subset of the others joined to it that sums to zero.
            for mask in 0..<(1 << others.count) {
                let chosen = others.indices.filter { mask & (1 << $0) != 0 }
                guard first + chosen.reduce(0, { $0 + others[$1] }) == 0 else { continue }
                let remaining = others.indices.filter { mask & (1 << $0) == 0 }.map { others[$0] }
                let groups = mostGroups(remaining)
                if groups >= 0 { best = max(best, 1 + groups) }
            }
            return best == Int.min ? -1 : best
        }
        return values.count - mostGroups(values)
    }
}
