import Foundation
import Testing
@testable import TallyCore

/// S2: an expense or a payment typed in another currency than its ledger's, with its rate.
@Suite("Entries in another currency (S2)")
struct ForeignAmountTests {
    static let eur = Currency.euro
    static let usd = try! Currency(code: "USD")
    static let jpy = try! Currency(code: "JPY")
    static let kwd = try! Currency(code: "KWD")
    static let people = (1...3).map { LedgerMember(id: MemberID($0), name: "Member \($0)", userID: nil) }

    static func rate(_ text: String) throws -> ExchangeRate { try ExchangeRate(parsing: text) }

    static func entry(_ amount: Money, rate: String, payers: [PayerPart]? = nil, split: Split? = nil,
                      ledger: Currency = eur) throws -> SpendingEntry {
        try SpendingEntry(id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, kind: .expense, amount: amount,
                          payers: payers ?? [PayerPart(member: 1, amount: amount)], date: LocalDate(year: 2026, month: 7, day: 1)!,
                          description: "Dinner", category: nil, split: try split ?? .equal([1, 2, 3]),
                          createdAt: Date(timeIntervalSince1970: 0), convertedTo: LedgerCurrency(ledger, rate: try Self.rate(rate)),
                          members: people)
    }

    @Test("The ledger's amount is the amount times the rate, rounded once to its minor units, half up")
    func conversion() throws {
        let hundred = Money(minorUnits: 10_000, currency: Self.usd)
        let entry = try Self.entry(hundred, rate: "0.9234")
        #expect(entry.amount == Money(minorUnits: 9234, currency: Self.eur))
        #expect(entry.original == ForeignAmount(amount: hundred, rate: try Self.rate("0.9234")))
        #expect(entry.typedAmount == hundred)
        // 0.05 USD × 0.9 = 0.045 EUR: half a cent goes up; 0.05 × 0.89 = 0.0445 goes down.
        #expect(try Self.entry(Money(minorUnits: 5, currency: Self.usd), rate: "0.9").amount.minorUnits == 5)
        #expect(try Self.entry(Money(minorUnits: 5, currency: Self.usd), rate: "0.89").amount.minorUnits == 4)
        // Between currencies of different decimals: 1,000 JPY at 0.0062 EUR is 6.20 EUR; 1.234 KWD at 3 is 3.70 EUR.
        #expect(try Self.entry(Money(minorUnits: 1000, currency: Self.jpy), rate: "0.0062").amount.minorUnits == 620)
        #expect(try Self.entry(Money(minorUnits: 1234, currency: Self.kwd), rate: "3").amount.minorUnits == 370)
        // And into a ledger without decimals: 10.00 EUR at 161.5 is 1,615 JPY.
        #expect(try Self.entry(Money(minorUnits: 1000, currency: Self.eur), rate: "161.5", ledger: Self.jpy).amount
                == Money(minorUnits: 1615, currency: Self.jpy))
    }

    @Test("The converted amount is shared as an amount in the ledger's currency is; an exact split and several payers by their parts")
    func shares() throws {
        let amount = Money(minorUnits: 10_000, currency: Self.usd)
        // Equal among three: 92.34 EUR → 30.78 each.
        let equal = try Self.entry(amount, rate: "0.9234")
        #expect(try equal.shares.map(\.share.minorUnits) == [3078, 3078, 3078])
        // Exact parts typed in dollars (50, 30, 20) share 92.35 EUR as 46.18, 27.70, 18.47: whole
        // cents, adding up, the leftover cent to the largest remainder.
        let exact = try Self.entry(amount, rate: "0.9235", split: Split(method: .exact, parts: [
            SplitPart(member: 1, value: 50), SplitPart(member: 2, value: 30), SplitPart(member: 3, value: 20)]))
        #expect(try exact.shares.map(\.share.minorUnits) == [4618, 2770, 1847])
        #expect(try exact.shares.reduce(0) { $0 + $1.share.minorUnits } == exact.amount.minorUnits)
        // Several payers' dollar parts become euro parts that add up to the converted amount.
        let several = try Self.entry(amount, rate: "0.9235", payers: [
            PayerPart(member: 1, amount: Money(minorUnits: 3333, currency: Self.usd)),
            PayerPart(member: 2, amount: Money(minorUnits: 6667, currency: Self.usd))])
        #expect(several.payers.map(\.amount.minorUnits) == [3078, 6157])
        #expect(several.typedPayers.map(\.amount.currency) == [Self.usd, Self.usd])
        // The totals kept one entry at a time are the balances read from every entry.
        var totals = LedgerTotals()
        for entry in [equal, exact, several] { try totals.add(entry) }
        let kept = LedgerBalances(currency: Self.eur, members: [1, 2, 3], totals: totals)
        let recomputed = try LedgerBalances(currency: Self.eur, members: [1, 2, 3], entries: [equal, exact, several])
        #expect(kept.members == recomputed.members)
        #expect(kept.members.reduce(0) { $0 + $1.balance } == 0)
    }

    @Test("A payment in another currency moves the converted amount from one member to another")
    func payment() throws {
        let payment = try SpendingEntry.payment(id: UUID(), from: 2, to: 1, amount: Money(minorUnits: 5000, currency: Self.usd),
                                                date: LocalDate(year: 2026, month: 7, day: 2)!, note: nil, createdAt: Date(),
                                                convertedTo: LedgerCurrency(Self.eur, rate: try Self.rate("0.9")), members: Self.people)
        #expect(payment.amount.minorUnits == 4500 && payment.recipient == 1)
        #expect(try payment.shares.map(\.share.minorUnits) == [4500])
        let balances = try LedgerBalances(currency: Self.eur, members: [1, 2, 3], entries: [payment])
        #expect(balances.members.map(\.balance) == [-4500, 4500, 0])
    }

    @Test("Refused: a rate that is not a number, zero, negative, beyond the bounds or too precise; a rate that makes nothing or too much")
    func refusals() throws {
        #expect(throws: TallyError.invalid("\"abc\" is not a rate: write how many of the ledger's currency one unit is worth, such as 0.92.", field: "rate")) {
            try Self.rate("abc")
        }
        #expect(throws: TallyError.invalid("\"\" is not a rate: write how many of the ledger's currency one unit is worth, such as 0.92.", field: "rate")) {
            try Self.rate("")
        }
        #expect(throws: TallyError.invalid("A rate must be more than 0; \"-0.5\" is negative.", field: "rate")) { try Self.rate("-0.5") }
        #expect(throws: TallyError.invalid("A rate must be more than 0.", field: "rate")) { try Self.rate("0") }
        #expect(throws: TallyError.invalid("A rate must be between 0.000001 and 1000000; 2000000 is not: check that it is how many of the ledger's currency one unit is worth.", field: "rate")) {
            try Self.rate("2000000")
        }
        #expect(throws: TallyError.self) { try Self.rate("0.0000001") }
        #expect(throws: TallyError.invalid("A rate can have at most 10 decimals; 0.12345678901 has more.", field: "rate")) {
            try Self.rate("0.12345678901")
        }
        #expect(try Self.rate("0,92").plain == "0.92")
        #expect(try Self.rate("1000000").value == 1_000_000)
        // One yen at a millionth of a euro is less than a cent.
        #expect(throws: TallyError.invalid("1 JPY at a rate of 0.000001 is less than 0.01 EUR: check the rate.", field: "rate")) {
            try Self.entry(Money(minorUnits: 1, currency: Self.jpy), rate: "0.000001")
        }
        #expect(throws: TallyError.invalid("An expense can be at most 1000000.00 EUR; 1000000.00 USD at a rate of 2 is 2000000.00 EUR.", field: "rate")) {
            try Self.entry(Money(minorUnits: 100_000_000, currency: Self.usd), rate: "2")
        }
        // Exact parts are checked in the currency they are typed in.
        #expect(throws: TallyError.self) {
            try Self.entry(Money(minorUnits: 10_000, currency: Self.usd), rate: "0.9",
                           split: Split(method: .exact, parts: [SplitPart(member: 1, value: 50), SplitPart(member: 2, value: 40)]))
        }
    }

    @Test("An entry in the ledger's own currency keeps the fingerprint it had; another currency or rate changes it")
    func fingerprints() throws {
        let local = try SpendingEntry(id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, kind: .expense,
                                      amount: Money(minorUnits: 9234, currency: Self.eur), payer: 1,
                                      date: LocalDate(year: 2026, month: 7, day: 1)!, description: "Dinner", category: nil,
                                      split: try .equal([1, 2, 3]), createdAt: Date(timeIntervalSince1970: 0), members: Self.people)
        let foreign = try Self.entry(Money(minorUnits: 10_000, currency: Self.usd), rate: "0.9234")
        let other = try Self.entry(Money(minorUnits: 10_000, currency: Self.usd), rate: "0.9235")
        #expect(Set([local.fingerprint, foreign.fingerprint, other.fingerprint]).count == 3)
        #expect(local.original == nil && local.typedPayers == local.payers)
    }
}
