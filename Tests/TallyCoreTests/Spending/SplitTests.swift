import Foundation
import Testing
@testable import TallyCore

/// S2, S3: every split adds up to its amount to the cent, leftover cents by largest remainder.
@Suite("Splits (S2, S3)")
struct SplitTests {
    let eur = Currency.euro

    func cents(_ split: Split, _ amount: Int64) throws -> [Int64] {
        try split.shares(of: Money(minorUnits: amount, currency: eur)).map(\.share.minorUnits)
    }

    @Test("S3: an even split is exact")
    func even() throws {
        #expect(try cents(.equal([1, 2]), 1000) == [500, 500])
        #expect(try cents(.equal([1, 2, 3, 4]), 1000) == [250, 250, 250, 250])
    }

    @Test("S3: leftover cents go to the earliest members on a tie, never lost")
    func leftoverCents() throws {
        #expect(try cents(.equal([1, 2, 3]), 1000) == [334, 333, 333])
        #expect(try cents(.equal([1, 2, 3]), 1001) == [334, 334, 333])
        #expect(try cents(.equal([1, 2]), 1) == [1, 0])
        // The order members are given in does not matter: the split is kept in member order.
        #expect(try cents(.equal([3, 1, 2]), 1000) == [334, 333, 333])
    }

    @Test("S3: largest remainder, not first come")
    func largestRemainder() throws {
        // 10.00 by shares 1:1:2 → 2.50, 2.50, 5.00 exactly; 10.01 → 2.5025, 2.5025, 5.005:
        // the largest remainder (0.5 of a cent) is the third member's.
        let split = try Split(method: .shares, parts: [SplitPart(member: 1, value: 1), SplitPart(member: 2, value: 1), SplitPart(member: 3, value: 2)])
        #expect(try cents(split, 1000) == [250, 250, 500])
        #expect(try cents(split, 1001) == [250, 250, 501])
        #expect(try cents(split, 1003) == [251, 251, 501])
    }

    @Test("S3: recomputing never moves a cent")
    func stable() throws {
        let split = try Split(method: .percent, parts: [SplitPart(member: 4, value: Decimal(string: "33.33")!), SplitPart(member: 9, value: Decimal(string: "33.33")!), SplitPart(member: 2, value: Decimal(string: "33.34")!)])
        let first = try cents(split, 99_999)
        for _ in 0..<10 { #expect(try cents(split, 99_999) == first) }
        #expect(first.reduce(0, +) == 99_999)
    }

    @Test("S2: percentages must add up to 100")
    func percentTotal() {
        #expect(throws: TallyError.invalid("The percentages add up to 90%, not 100%: change them by 10 so they add up.", field: "split")) {
            try Split(method: .percent, parts: [SplitPart(member: 1, value: 50), SplitPart(member: 2, value: 40)])
        }
        #expect(throws: TallyError.self) {
            try Split(method: .percent, parts: [SplitPart(member: 1, value: 150), SplitPart(member: 2, value: -50)])
        }
    }

    @Test("S2: exact amounts must add up to the expense")
    func exactTotal() throws {
        let split = try Split(method: .exact, parts: [SplitPart(member: 1, value: Decimal(string: "7.50")!), SplitPart(member: 2, value: Decimal(string: "2.50")!)])
        #expect(try cents(split, 1000) == [750, 250])
        #expect(throws: TallyError.invalid("The exact amounts add up to 10.00, not 12.00: change them by 2.00 so they match the expense.", field: "split")) {
            try cents(split, 1200)
        }
        let fractional = try Split(method: .exact, parts: [SplitPart(member: 1, value: Decimal(string: "3.333")!), SplitPart(member: 2, value: Decimal(string: "6.667")!)])
        #expect(throws: TallyError.self) { try cents(fractional, 1000) }
    }

    @Test("S2: shares are positive and bounded")
    func sharesRange() {
        for bad in [Decimal(0), -1, 1001, Decimal(string: "0.00001")!] {
            #expect(throws: TallyError.self) {
                try Split(method: .shares, parts: [SplitPart(member: 1, value: bad), SplitPart(member: 2, value: 1)])
            }
        }
    }

    @Test("S2: each member once, at least one")
    func members() {
        #expect(throws: TallyError.self) { try Split.equal([]) }
        #expect(throws: TallyError.invalid("A split names a member twice: list each member once.", field: "split")) { try Split.equal([1, 1]) }
    }

    @Test("S2: the payer and everyone sharing must be members")
    func strangers() throws {
        let members = [LedgerMember(id: 1, name: "Alex", userID: nil), LedgerMember(id: 2, name: "Sam", userID: nil)]
        let amount = try Money(parsing: "10", currency: eur)
        #expect(throws: TallyError.self) {
            try SpendingEntry(id: UUID(), kind: .expense, amount: amount, payer: 3, date: LocalDate(year: 2026, month: 1, day: 1)!,
                              description: nil, category: nil, split: .equal([1, 2]), createdAt: Date(), members: members)
        }
        #expect(throws: TallyError.self) {
            try SpendingEntry(id: UUID(), kind: .expense, amount: amount, payer: 1, date: LocalDate(year: 2026, month: 1, day: 1)!,
                              description: nil, category: nil, split: .equal([1, 7]), createdAt: Date(), members: members)
        }
        #expect(throws: TallyError.self) {
            try SpendingEntry.payment(id: UUID(), from: 1, to: 1, amount: amount, date: LocalDate(year: 2026, month: 1, day: 1)!,
                                      note: nil, createdAt: Date(), members: members)
        }
        let long = String(repeating: "x", count: 201)
        #expect(throws: TallyError.invalid("A description can be at most 200 characters long (and 800 bytes of UTF-8); this one has 201 characters in 201 bytes.", field: "description")) {
            try SpendingEntry(id: UUID(), kind: .expense, amount: amount, payer: 1, date: LocalDate(year: 2026, month: 1, day: 1)!,
                              description: long, category: nil, split: .equal([1, 2]), createdAt: Date(), members: members)
        }
    }
}
