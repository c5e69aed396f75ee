import Foundation
import Testing
@testable import TallyCore

/// S3 balances and S4 the settle-up plan with the fewest transfers.
@Suite("Balances and settling up (S3, S4)")
struct SettlementTests {
    let eur = Currency.euro

    func balances(_ values: [Int64]) -> [(MemberID, Int64)] {
        values.enumerated().map { (MemberID($0.offset + 1), $0.element) }
    }

    /// Applies the plan's transfers to the balances: a transfer from a debtor raises their balance.
    func settled(_ start: [(MemberID, Int64)], _ plan: [SettlementPlan.Step]) -> [MemberID: Int64] {
        var result = Dictionary(uniqueKeysWithValues: start)
        for step in plan {
            result[step.from, default: 0] += step.amount
            result[step.to, default: 0] -= step.amount
        }
        return result
    }

    @Test("S4: +10 +3 +3 −6 −5 −5 needs 4 transfers, not the greedy 5")
    func greedyIsNotEnough() {
        let start = balances([1000, 300, 300, -600, -500, -500])
        #expect(SettlementPlan.greedy(start).count == 5)
        let plan = SettlementPlan.fewestTransfers(start)
        #expect(plan.count == 4)
        #expect(settled(start, plan).values.allSatisfy { $0 == 0 })
        #expect(plan.allSatisfy { $0.amount > 0 })
    }

    @Test("S4: nothing to settle, and two members need one transfer")
    func smallCases() {
        #expect(SettlementPlan.fewestTransfers([]).isEmpty)
        #expect(SettlementPlan.fewestTransfers(balances([0, 0, 0])).isEmpty)
        #expect(SettlementPlan.fewestTransfers(balances([-250, 250])) == [.init(from: 1, to: 2, amount: 250)])
    }

    @Test("S4: the same balances give the same plan")
    func deterministic() {
        let start = balances([700, -300, 200, -600, 500, -500])
        let first = SettlementPlan.fewestTransfers(start)
        #expect(SettlementPlan.fewestTransfers(start.reversed()) == first)
    }

    @Test("S4: 20 balances in pairs settle in 10 transfers")
    func twentyPairs() {
        // Ten debtor–creditor pairs; the last pair absorbs the odd cents of the others.
        var values: [Int64] = []
        for pair in 1...10 {
            let amount = Int64(pair * 100)
            values += [amount, -amount - 1]
        }
        values[19] += 10
        let start = balances(values)
        // Nine exact pairs and one group of two that absorbs the odd cents: 10 groups, 10 transfers.
        #expect(values.reduce(0, +) == 0)
        let plan = SettlementPlan.fewestTransfers(start)
        #expect(settled(start, plan).values.allSatisfy { $0 == 0 })
        #expect(plan.count <= 19)
    }

    @Test("S4: beyond 20 balances the greedy plan, still at most n − 1")
    func beyondExact() {
        let values: [Int64] = (1...30).map { Int64($0 * 37 % 101) - 50 }
        let start = balances(values + [-values.reduce(0, +)])
        let plan = SettlementPlan.fewestTransfers(start)
        #expect(settled(start, plan).values.allSatisfy { $0 == 0 })
        #expect(plan.count <= start.filter { $0.1 != 0 }.count - 1)
    }

    static let day = LocalDate(year: 2026, month: 11, day: 21)!
    static let people = (1...3).map { LedgerMember(id: MemberID($0), name: "Person \($0)", userID: nil) }

    func expense(_ payer: MemberID, _ amount: String, among members: [MemberID] = [1, 2]) throws -> SpendingEntry {
        try SpendingEntry(id: UUID(), kind: .expense, amount: try Money(parsing: amount, currency: eur), payer: payer, date: Self.day,
                          description: nil, category: nil, split: .equal(members), createdAt: Date(), members: Self.people)
    }

    func payment(_ from: MemberID, _ to: MemberID, _ amount: String) throws -> SpendingEntry {
        try .payment(id: UUID(), from: from, to: to, amount: try Money(parsing: amount, currency: eur), date: Self.day,
                     note: nil, createdAt: Date(), members: Self.people)
    }

    @Test("S3: paid − share + sent − received, summing to zero; deleted entries do not count")
    func memberBalances() throws {
        var deleted = try expense(2, "99.00")
        deleted.deletedAt = Date()
        let ledger = try LedgerBalances(currency: eur, members: [2, 1, 3], entries: [
            try expense(1, "30.00", among: [1, 2, 3]), try payment(2, 1, "10.00"), deleted,
        ])
        #expect(ledger.members.map(\.member) == [1, 2, 3])
        #expect(ledger.members.map(\.paid) == [3000, 0, 0])
        #expect(ledger.members.map(\.share) == [1000, 1000, 1000])
        #expect(ledger.members.map(\.sent) == [0, 1000, 0])
        #expect(ledger.members.map(\.received) == [1000, 0, 0])
        #expect(ledger.members.map(\.balance) == [1000, 0, -1000])
        #expect(ledger.total == 0)
        #expect(ledger.balance(of: 3).plain == "-10.00")
        #expect(ledger.plan == [Transfer(from: 3, to: 1, amount: Money(minorUnits: 1000, currency: eur))])
    }

    @Test("S3: two members, equal splits: one owes the other |paid₁ − paid₂| ÷ 2 to the cent")
    func twoPeople() throws {
        // Every one of these has an odd cent; rounded one by one, the cents would pile up on
        // Person 1 (owed 0.86 instead of 0.875).
        let entries = try [(1, "12.51"), (2, "3.00"), (1, "0.01"), (2, "7.77"), (1, "0.03"), (2, "0.05")]
            .map { try expense(MemberID($0.0), $0.1) }
        let ledger = try LedgerBalances(currency: eur, members: [1, 2], entries: entries)
        #expect(ledger.total == 0)
        // Paid 12.55 and 10.82: 1.73 apart, 0.865 owed: 0.86 or 0.87, nothing further off.
        #expect(ledger.plan.count == 1 && ledger.plan[0].from == 2)
        #expect([86, 87].contains(ledger.plan[0].amount.minorUnits))
        #expect(try LedgerBalances(currency: eur, members: [1, 2], entries: entries.reversed()).plan == ledger.plan)
    }

    @Test("S3: many thirds do not drift")
    func thirds() throws {
        let entries = try (0..<300).map { _ in try expense(1, "1.00", among: [1, 2, 3]) }
        let ledger = try LedgerBalances(currency: eur, members: [1, 2, 3], entries: entries)
        // 300.00 shared by three: exactly 100.00 each; per-expense rounding would have given
        // Person 1 a share of 102.00 (34 cents × 300) and the others 99.00.
        #expect(ledger.members.map(\.share) == [10000, 10000, 10000])
    }
}
