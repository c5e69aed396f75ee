import Foundation

/// How many units of a ledger's currency one unit of another currency is worth (S2): 0.92 when a
/// US dollar is worth 92 euro cents in a euro ledger. Typed by a person, so kept as they typed it,
/// exactly (a `Decimal`, never a `Double`).
public struct ExchangeRate: Hashable, Sendable, CustomStringConvertible {
    public let value: Decimal

    /// A rate outside these bounds is a typing mistake: no two currencies differ by more.
    public static let smallest: Decimal = Decimal(string: "0.000001")!
    public static let largest: Decimal = 1_000_000
    public static let maximumDecimals = 10

    /// Reads "0.92" or "0,92". Refuses text that is not a number, zero, a negative rate, and a
    /// rate beyond the bounds, each with a sentence that says what to type.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let plain = trimmed.replacingOccurrences(of: ",", with: ".")
        let digits = plain.split(separator: ".", omittingEmptySubsequences: false)
        guard !trimmed.hasPrefix("-") else {
            throw TallyError.invalid("A rate must be more than 0; \(UserText.quoted(text)) is negative.", field: "rate")
        }
        guard !plain.isEmpty, digits.count <= 2, digits.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              digits.contains(where: { !$0.isEmpty }), let value = Decimal(string: plain, locale: Locale(identifier: "en_US_POSIX"))
        else {
            throw TallyError.invalid("\(UserText.quoted(text)) is not a rate: write how many of the ledger's currency one unit is worth, such as 0.92.", field: "rate")
        }
        try self.init(exactly: value)
    }

    /// A rate from an exact decimal, checked as a typed one is.
    public init(exactly value: Decimal) throws {
        guard value.isFinite, value > 0 else {
            throw TallyError.invalid("A rate must be more than 0.", field: "rate")
        }
        guard value >= Self.smallest, value <= Self.largest else {
            throw TallyError.invalid("A rate must be between \(Self.smallest) and \(Self.largest); \(value) is not: check that it is how many of the ledger's currency one unit is worth.", field: "rate")
        }
        var scaled = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, Self.maximumDecimals, .plain)
        guard rounded == value else {
            throw TallyError.invalid("A rate can have at most \(Self.maximumDecimals) decimals; \(value) has more.", field: "rate")
        }
        self.value = value
    }

    /// "0.92": the form the API, the exports and the database hold.
    public var plain: String { value.description }
    public var description: String { plain }

    /// `amount` in `currency`: amount × rate, rounded once to `currency`'s minor units, half up
    /// (a half cent goes up, as on a bank's statement).
    public func convert(_ amount: Money, to currency: Currency) -> Money {
        var exact = amount.decimal * value * Decimal(currency.scale)
        var rounded = Decimal()
        NSDecimalRound(&rounded, &exact, 0, .plain)
        return Money(minorUnits: rounded.exactInt64 ?? Int64.max, currency: currency)
    }
}

/// An entry typed in another currency than its ledger's: the amount as typed, and the rate that
/// turned it into the ledger's currency.
public struct ForeignAmount: Hashable, Sendable {
    public let amount: Money
    public let rate: ExchangeRate

    public init(amount: Money, rate: ExchangeRate) {
        self.amount = amount
        self.rate = rate
    }
}
