import Foundation
import Testing
@testable import TallyCore

/// S2: who paid an expense, one member or several with their parts.
@Suite("Several payers (S2)")
struct PayersTests {
    static let eur = Currency.euro
    static let people = (1...3).map { LedgerMember(id: MemberID($0), name: "Member \($0)", userID: nil) }

    static func euros(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: eur) }

    static func dinner(_ payers: [PayerPart], amount: Int64 = 5000) throws -> SpendingEntry {
        try SpendingEntry(id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, kind: .expense, amount: euros(amount),
                          payers: payers, date: LocalDate(year: 2026, month: 1, day: 1)!, description: "Dinner", category: nil,
                          split: try .equal([1, 2]), createdAt: Date(timeIntervalSince1970: 0), members: people)
    }

    @Test("The parts are kept in member order and credit each payer; the first is the entry's payer")
    func memberOrder() throws {
        let entry = try Self.dinner([PayerPart(member: 3, amount: Self.euros(1000)), PayerPart(member: 1, amount: Self.euros(4000))])
        #expect(entry.payers.map(\.member) == [1, 3] && entry.payer == 1 && entry.hasSeveralPayers)
        #expect(entry.paid(by: 3) == Self.euros(1000) && entry.paid(by: 2) == Self.euros(0))
        let balances = try LedgerBalances(currency: Self.eur, members: [1, 2, 3], entries: [entry])
        #expect(balances.members.map(\.paid) == [4000, 0, 1000])
        #expect(balances.members.map(\.balance) == [1500, -2500, 1000])
    }

    @Test("Refused: parts that do not add up, a member twice, a part of nothing, a stranger, several payers of a payment")
    func refusals() throws {
        #expect(throws: TallyError.invalid("What the payers paid adds up to 49.99, not 50.00: change it by 0.01 so it matches the expense.", field: "payers")) {
            try Self.dinner([PayerPart(member: 1, amount: Self.euros(2500)), PayerPart(member: 2, amount: Self.euros(2499))])
        }
        #expect(throws: TallyError.invalid("What the payers paid adds up to 50.01, not 50.00: change it by -0.01 so it matches the expense.", field: "payers")) {
            try Self.dinner([PayerPart(member: 1, amount: Self.euros(2500)), PayerPart(member: 2, amount: Self.euros(2501))])
        }
        #expect(throws: TallyError.invalid("The payers name a member twice: list each member once.", field: "payers")) {
            try Self.dinner([PayerPart(member: 1, amount: Self.euros(2500)), PayerPart(member: 1, amount: Self.euros(2500))])
        }
        #expect(throws: TallyError.self) {
            try Self.dinner([PayerPart(member: 1, amount: Self.euros(5000)), PayerPart(member: 2, amount: Self.euros(0))])
        }
        #expect(throws: TallyError.self) {
            try Self.dinner([PayerPart(member: 1, amount: Self.euros(2500)), PayerPart(member: 9, amount: Self.euros(2500))])
        }
        #expect(throws: TallyError.self) {
            try Self.dinner([PayerPart(member: 1, amount: Money(minorUnits: 5000, currency: try Currency(code: "USD")))])
        }
        #expect(throws: TallyError.invalid("Say who paid: at least one member.", field: "payers")) { try Self.dinner([]) }
        #expect(throws: TallyError.invalid("A payment is made by one member; record one payment for each member who pays.", field: "payers")) {
            try SpendingEntry(id: UUID(), kind: .payment, amount: Self.euros(100),
                              payers: [PayerPart(member: 1, amount: Self.euros(50)), PayerPart(member: 2, amount: Self.euros(50))],
                              date: LocalDate(year: 2026, month: 1, day: 1)!, description: nil, category: nil,
                              split: try Split(method: .exact, parts: [SplitPart(member: 3, value: 1)]), createdAt: Date(), members: Self.people)
        }
    }

    @Test("The fingerprint of an entry one member paid is what it was before several payers; the parts of several change it")
    func fingerprint() throws {
        let one = try Self.dinner([PayerPart(member: 1, amount: Self.euros(5000))])
        // What pages held before several payers existed: FNV-1a of what the entry said then.
        let before = ["expense", "5000", "EUR", "1", "2026-01-01", "Dinner", "", "equal", "1=1", "2=1"].joined(separator: "\u{1F}")
        let hash = before.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
        #expect(one.fingerprint == String(format: "%016llx", hash))
        let split = try Self.dinner([PayerPart(member: 1, amount: Self.euros(3000)), PayerPart(member: 2, amount: Self.euros(2000))])
        let other = try Self.dinner([PayerPart(member: 1, amount: Self.euros(2000)), PayerPart(member: 2, amount: Self.euros(3000))])
        #expect(Set([one.fingerprint, split.fingerprint, other.fingerprint]).count == 3)
    }
}
