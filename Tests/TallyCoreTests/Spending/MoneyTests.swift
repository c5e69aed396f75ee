import Foundation
import Testing
@testable import TallyCore

/// S2: money is exact, in the currency's minor units, never a float.
@Suite("Money and currencies (S2)")
struct MoneyTests {
    let eur = Currency.euro
    let jpy = try! Currency(code: "JPY")
    let kwd = try! Currency(code: "kwd")

    @Test("S2: an amount's decimal is its minor units over the currency's scale, to the digit, for any amount")
    func decimalIsExact() throws {
        var generator = SystemRandomNumberGenerator()
        let currencies = [eur, try Currency(code: "JPY"), try Currency(code: "KWD")]
        var amounts: [Int64] = [0, 1, -1, 10, -10, 100, 1250, -1250, 1000, 123_456_789, Int64.max, Int64.min, Int64.min + 1]
        for _ in 0..<3000 { amounts.append(Int64.random(in: Int64.min...Int64.max, using: &generator) >> Int64.random(in: 0...60, using: &generator)) }
        for currency in currencies {
            for units in amounts {
                let money = Money(minorUnits: units, currency: currency)
                let divided = Decimal(units) / Decimal(currency.scale)
                #expect(money.decimal == divided, "\(units) \(currency.code)")
                #expect(money.decimal.description == divided.description, "\(units) \(currency.code)")
            }
        }
    }

    @Test("S2: ISO 4217 minor units")
    func minorUnits() throws {
        #expect(eur.minorUnits == 2)
        #expect(jpy.minorUnits == 0)
        #expect(kwd.minorUnits == 3)
        #expect(kwd.code == "KWD")
        #expect(try Currency(code: "usd").minorUnits == 2)
        #expect(try Currency(code: "ISK").minorUnits == 0)
    }

    @Test("S2: a code ISO 4217 does not list is refused", arguments: ["", "EU", "EURO", "XYZ", "€", "12A"])
    func unknownCurrency(_ code: String) {
        #expect(throws: TallyError.self) { try Currency(code: code) }
    }

    @Test("S2: amounts are read exactly", arguments: [
        ("12.50", 1250), ("12,50", 1250), ("12", 1200), ("0.5", 50), (".5", 50), ("7.", 700),
        ("1000000.00", 100_000_000), ("0001.01", 101), (" 3.33 ", 333),
    ] as [(String, Int64)])
    func parse(_ text: String, _ cents: Int64) throws {
        #expect(try Money(parsing: text, currency: eur).minorUnits == cents)
    }

    @Test("S2: text that is not an amount is refused with a reason", arguments: [
        "", ".", "abc", "1.2.3", "1,000.50", "1e3", "+5", "12 EUR", "½", "١٢",
    ])
    func malformed(_ text: String) {
        #expect(throws: TallyError.invalid("\"\(text)\" is not an amount: write digits with at most one decimal point, such as 12.50.")) {
            try Money(parsing: text, currency: eur)
        }
    }

    @Test("S2: a negative amount says so")
    func negative() {
        #expect(throws: TallyError.invalid("An amount must be more than 0; \"-5\" is negative.")) {
            try Money(parsing: "-5", currency: eur)
        }
    }

    @Test("S2: no more decimals than the currency has")
    func tooManyDecimals() throws {
        #expect(throws: TallyError.invalid("\"12.505\" has more decimals than EUR has: write it with 2 decimals.")) {
            try Money(parsing: "12.505", currency: eur)
        }
        #expect(throws: TallyError.invalid("\"100.5\" has more decimals than JPY has: write it with no decimals.")) {
            try Money(parsing: "100.5", currency: jpy)
        }
        #expect(try Money(parsing: "1.234", currency: kwd).minorUnits == 1234)
        // Trailing zeros are still decimals the currency does not have: refused rather than guessed.
        #expect(throws: TallyError.self) { try Money(parsing: "12.500", currency: eur) }
    }

    @Test("S2: a JSON number is taken digit for digit, and a float-rounded one is refused")
    func exactDecimal() throws {
        #expect(try Money(exactly: Decimal(string: "33.33")!, currency: eur).minorUnits == 3333)
        #expect(try Money(exactly: Decimal(string: "12.50")!, currency: eur).minorUnits == 1250)
        #expect(try Money(exactly: 1000, currency: jpy).minorUnits == 1000)
        #expect(throws: TallyError.self) { try Money(exactly: Decimal(string: "12.499999999999998")!, currency: eur) }
        #expect(throws: TallyError.self) { try Money(exactly: Decimal(string: "0.30000000000000004")!, currency: eur) }
        #expect(throws: TallyError.self) { try Money(exactly: -1, currency: eur) }
    }

    @Test("S2: more than 0, at most 1,000,000.00")
    func range() throws {
        #expect(try TransactionAmount.parse("1000000.00", currency: eur).minorUnits == 100_000_000)
        #expect(try TransactionAmount.parse("0.01", currency: eur).minorUnits == 1)
        #expect(throws: TallyError.invalid("An amount can be at most 1000000.00 EUR; 1000000.01 EUR is more.", field: "amount")) {
            try TransactionAmount.parse("1000000.01", currency: eur)
        }
        #expect(throws: TallyError.invalid("An amount must be more than 0.", field: "amount")) {
            try TransactionAmount.parse("0.00", currency: eur)
        }
        #expect(throws: TallyError.self) { try TransactionAmount.parse("99999999999999999999", currency: eur) }
        #expect(try TransactionAmount.parse("1000000", currency: jpy).minorUnits == 1_000_000)
        // Four decimals (CLF): the largest numbers that can be typed are refused, not overflowed.
        let clf = try Currency(code: "CLF")
        #expect(clf.minorUnits == 4)
        #expect(throws: TallyError.self) { try Money(parsing: "999999999999999", currency: clf) }
        #expect(throws: TallyError.self) { try TransactionAmount.parse("999999999999.9999", currency: clf) }
        #expect(throws: TallyError.self) { try Money(exactly: Decimal(string: "9999999999999.9999")!, currency: clf) }
        #expect(throws: TallyError.self) { try TransactionAmount.parse("1000000.0001", currency: clf) }
    }

    @Test("S2: written back with exactly the currency's decimals")
    func plain() {
        #expect(Money(minorUnits: 1250, currency: eur).plain == "12.50")
        #expect(Money(minorUnits: 5, currency: eur).plain == "0.05")
        #expect(Money(minorUnits: -301, currency: eur).plain == "-3.01")
        #expect(Money(minorUnits: 0, currency: eur).plain == "0.00")
        #expect(Money(minorUnits: 1000, currency: jpy).plain == "1000")
        #expect(Money(minorUnits: 1, currency: kwd).plain == "0.001")
        #expect(Money(minorUnits: 1250, currency: eur).description == "12.50 EUR")
        #expect(Money(minorUnits: 1234, currency: eur).decimal == Decimal(string: "12.34"))
    }
}
