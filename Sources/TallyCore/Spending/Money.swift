import Foundation

/// An exact amount of money in a currency's minor units (cents for EUR, yen for JPY).
///
/// Money never passes through a floating-point number (S2): it is read from text or a `Decimal`,
/// kept as an integer, and written back as text with exactly the currency's decimals.
public struct Money: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var minorUnits: Int64
    public let currency: Currency

    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    public static func zero(_ currency: Currency) -> Money { Money(minorUnits: 0, currency: currency) }

    /// Reads "12.50", "12,50", "12" or "0.5". Refuses signs, exponents, thousands separators and
    /// more decimals than the currency has, each with a sentence that says what to type instead.
    public init(parsing text: String, currency: Currency) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let separators = trimmed.filter { $0 == "." || $0 == "," }
        let parts = trimmed.split(separator: separators.first ?? ".", omittingEmptySubsequences: false)
        guard !trimmed.isEmpty, separators.count <= 1, parts.count <= 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              !(parts[0].isEmpty && (parts.count == 1 || parts[1].isEmpty))
        else {
            if trimmed.hasPrefix("-") {
                throw TallyError.invalid("An amount must be more than 0; \"\(text)\" is negative.")
            }
            throw TallyError.invalid("\"\(text)\" is not an amount: write digits with at most one decimal point, such as 12.50.")
        }
        let fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= currency.minorUnits else {
            throw Self.tooManyDecimals(text, currency)
        }
        let whole = String(parts[0]).drop { $0 == "0" }
        // Anything beyond 12 digits is far over every limit: refuse it before it can overflow,
        // even in a currency with 4 decimals.
        guard whole.count <= 12 else { throw Self.tooLarge(text) }
        let padded = fraction + String(repeating: "0", count: currency.minorUnits - fraction.count)
        self.init(minorUnits: (Int64(whole) ?? 0) * currency.scale + (Int64(padded) ?? 0), currency: currency)
    }

    /// An exact decimal (from JSON, which is decoded digit for digit) in this currency.
    public init(exactly decimal: Decimal, currency: Currency) throws {
        guard decimal.isFinite else { throw TallyError.invalid("An amount must be a number.") }
        guard decimal >= 0 else {
            throw TallyError.invalid("An amount must be more than 0; \(decimal) is negative.")
        }
        guard decimal < 1_000_000_000_000 else { throw Self.tooLarge("\(decimal)") }
        var scaled = decimal * Decimal(currency.scale)
        var whole = Decimal()
        NSDecimalRound(&whole, &scaled, 0, .down)
        guard whole == scaled else { throw Self.tooManyDecimals("\(decimal)", currency) }
        guard let units = whole.exactInt64 else { throw Self.tooLarge("\(decimal)") }
        self.init(minorUnits: units, currency: currency)
    }

    /// The amount as a decimal number: the minor units with the currency's decimals, made
    /// without dividing (Decimal's division was a tenth of a ledger page's CPU: perf), and with
    /// trailing zeros taken off as division leaves them (12.50 is 125 × 10^-1).
    public var decimal: Decimal {
        var significand = minorUnits.magnitude
        var exponent = -currency.minorUnits
        while significand != 0, significand % 10 == 0 {
            significand /= 10
            exponent += 1
        }
        return Decimal(sign: minorUnits < 0 ? .minus : .plus, exponent: significand == 0 ? 0 : exponent,
                       significand: Decimal(significand))
    }

    /// "12.50", "-3.01", "1000" for JPY: exactly the currency's decimals, no grouping. The form
    /// the API and exports use.
    public var plain: String {
        let scale = currency.scale
        let magnitude = minorUnits.magnitude
        let sign = minorUnits < 0 ? "-" : ""
        guard currency.minorUnits > 0 else { return sign + String(magnitude) }
        let fraction = String(magnitude % UInt64(scale))
        return sign + String(magnitude / UInt64(scale)) + "."
            + String(repeating: "0", count: currency.minorUnits - fraction.count) + fraction
    }

    /// "12.50 EUR": the form people read.
    public var description: String { "\(plain) \(currency.code)" }

    public var isZero: Bool { minorUnits == 0 }

    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.minorUnits < rhs.minorUnits }

    public static func + (lhs: Money, rhs: Money) -> Money {
        Money(minorUnits: lhs.minorUnits + rhs.minorUnits, currency: lhs.currency)
    }

    public static func - (lhs: Money, rhs: Money) -> Money {
        Money(minorUnits: lhs.minorUnits - rhs.minorUnits, currency: lhs.currency)
    }

    public static prefix func - (value: Money) -> Money {
        Money(minorUnits: -value.minorUnits, currency: value.currency)
    }

    private static func tooManyDecimals(_ text: String, _ currency: Currency) -> TallyError {
        guard currency.minorUnits > 0 else {
            return TallyError.invalid("\"\(text)\" has more decimals than \(currency.code) has: write it with no decimals.")
        }
        return TallyError.invalid(Phrase(one: "\"\(text)\" has more decimals than \(currency.code) has: write it with \(currency.minorUnits) decimal.",
                                         other: "\"\(text)\" has more decimals than \(currency.code) has: write it with \(currency.minorUnits) decimals."))
    }

    private static func tooLarge(_ text: String) -> TallyError {
        TallyError.invalid("\"\(text)\" is too large: an amount can be at most \(TransactionAmount.maximumUnits).")
    }
}

extension Decimal {
    /// The value as an Int64 when it is a whole number in range, read from its digits:
    /// Foundation's own conversion goes through Double on Linux.
    var exactInt64: Int64? {
        var copy = self
        var rounded = Decimal()
        NSDecimalRound(&rounded, &copy, 0, .plain)
        guard rounded == self else { return nil }
        return Int64(rounded.description)
    }
}

/// The range an expense or a payment may have (S2): more than 0, at most 1,000,000 of the
/// currency's units.
public enum TransactionAmount {
    public static let maximumUnits: Int64 = 1_000_000

    /// Checks an amount of the field `field` (an expense's `amount`, or a payer's part in `payers`).
    public static func validate(_ amount: Money, what: Phrase = Phrase("An amount"), field: String = "amount") throws {
        guard amount.minorUnits > 0 else {
            throw TallyError.invalid("\(what) must be more than 0.", field: field)
        }
        guard amount.minorUnits <= maximumUnits * amount.currency.scale else {
            throw TallyError.invalid("\(what) can be at most \(Money(minorUnits: maximumUnits * amount.currency.scale, currency: amount.currency)); \(amount) is more.", field: field)
        }
    }

    /// Parses and checks in one step: what every interface does with a typed amount.
    public static func parse(_ text: String, currency: Currency, what: Phrase = Phrase("An amount"), field: String = "amount") throws -> Money {
        let amount = try TallyError.about(field) { try Money(parsing: text, currency: currency) }
        try validate(amount, what: what, field: field)
        return amount
    }
}
