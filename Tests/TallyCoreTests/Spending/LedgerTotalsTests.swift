import Foundation
import PropertyBased
import Testing
@testable import TallyCore

/// S3 kept up to date one change at a time: the running totals a store keeps must always be
/// the totals recomputed from the entries, whatever the order of the changes.
@Suite("Ledger totals (S3)")
struct LedgerTotalsTests {
    static let eur = Currency.euro
    static let people = (1...5).map { LedgerMember(id: MemberID($0), name: "Member \($0)", userID: nil) }

    static func entry(seed: Int, members: Int) -> SpendingEntry {
        let amount = Int64(seed % 10_000_000) + 1
        let payer = MemberID(seed % members + 1)
        if seed % 5 == 0 {
            let to = payer % MemberID(members) + 1
            return try! .payment(id: UUID(), from: payer, to: to, amount: Money(minorUnits: amount, currency: eur),
                                 date: LocalDate(year: 2026, month: 1, day: 1)!, note: nil, createdAt: Date(), members: people)
        }
        let split = try! SpendingPropertyTests.split(from: seed / 7, members: members, amount: amount)
        let payers = SpendingPropertyTests.payers(from: seed / 3, members: members, amount: amount)
        return try! SpendingEntry(id: UUID(), kind: .expense, amount: Money(minorUnits: amount, currency: eur), payers: payers,
                                  date: LocalDate(year: 2026, month: 1, day: 1)!, description: nil, category: nil,
                                  split: split, createdAt: Date(), members: people)
    }

    @Test("S3: totals kept through random adds, edits, deletes and restores (one payer or several, every split) equal a recomputation, and balance to zero")
    func keptEqualsRecomputed() async {
        await propertyCheck(count: 200, input: Gen.int(in: 2...5), Gen.int(in: 0...Int.max / 2).array(of: 1...60)) { members, steps in
            var entries: [SpendingEntry] = []
            var kept = LedgerTotals()
            for step in steps {
                switch entries.isEmpty ? 0 : step % 4 {
                case 0:
                    let new = Self.entry(seed: step / 4, members: members)
                    try! kept.add(new)
                    entries.append(new)
                case 1:
                    // An edit: the same entry with another amount, payer and split.
                    let index = step / 4 % entries.count
                    let edited = Self.entry(seed: step / 8, members: members)
                    var replacement = edited
                    replacement.deletedAt = entries[index].deletedAt
                    try! kept.replace(entries[index], with: replacement)
                    entries[index] = replacement
                default:
                    // A delete, or a restore of a deleted one.
                    let index = step / 4 % entries.count
                    var toggled = entries[index]
                    toggled.deletedAt = toggled.deletedAt == nil ? Date() : nil
                    try! kept.replace(entries[index], with: toggled)
                    entries[index] = toggled
                }
                let recomputed = try! LedgerTotals(entries: entries)
                #expect(kept == recomputed)
                let balances = LedgerBalances(currency: Self.eur, members: Self.people.prefix(members).map(\.id), totals: kept)
                #expect(balances.total == 0)
                #expect(balances.members == LedgerBalances(currency: Self.eur, members: Self.people.prefix(members).map(\.id),
                                                           totals: recomputed).members)
            }
        }
    }

    @Test("S3: the fractions of a share add up exactly: a half, a third and a sixth make one cent")
    func fractionsAddUpExactly() {
        let sum = LedgerBalances.sum([2: 1, 3: 1, 6: 1])
        #expect(sum.whole == 1 && sum.rest == 0)
        #expect(LedgerBalances.sum([3: 2, 7: 3]).whole == 1)
        #expect(LedgerBalances.sum([:]) == (0, 0))
    }

    @Test("S3: fractions whose common denominator passes 64 bits still give a whole part and a rest below one")
    func fractionsBeyondSixtyFourBits() {
        let primes: [Int64] = [499_999_993, 499_999_999, 500_000_003, 499_999_991]
        let sum = LedgerBalances.sum(Dictionary(uniqueKeysWithValues: primes.map { ($0, $0 - 1) }))
        #expect(sum.whole == 3)
        #expect(sum.rest > 0 && sum.rest < 1)
    }

    @Test("S3: undoing every change leaves nothing behind")
    func undoingLeavesNothing() throws {
        var kept = LedgerTotals()
        let entries = (0..<50).map { Self.entry(seed: $0 * 7919 + 3, members: 3) }
        for entry in entries { try kept.add(entry) }
        for entry in entries.reversed() { try kept.remove(entry) }
        #expect(kept == LedgerTotals())
        #expect(kept.members.isEmpty)
    }
}
