import Foundation

/// A ledger's currency (S2): an ISO 4217 code and how many decimals its amounts may have.
public struct Currency: Hashable, Sendable, Codable, CustomStringConvertible {
    public let code: String
    /// ISO 4217 minor units: 2 for EUR (cents), 0 for JPY, 3 for KWD.
    public let minorUnits: Int

    /// The currency for a code such as "EUR" or "jpy"; refuses codes ISO 4217 does not list.
    public init(code text: String) throws {
        // A stored code is already three capitals: every entry read carries one, and Foundation's
        // trimming cost a ledger page a few per cent of its CPU (perf).
        let code = text.utf8.count == 3 && text.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) })
            ? text : text.trimmingCharacters(in: .whitespaces).uppercased()
        guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }),
              Self.knownCodes.contains(code) || Self.minorUnitExceptions[code] != nil
        else {
            throw TallyError.invalid("\(UserText.quoted(text)) is not a currency: use an ISO 4217 code such as EUR, USD, GBP or JPY.", field: "currency")
        }
        self.code = code
        self.minorUnits = Self.minorUnitExceptions[code] ?? 2
    }

    public static let euro = try! Currency(code: "EUR")

    /// 10^minorUnits: how many minor units make one unit of the currency.
    public var scale: Int64 {
        var result: Int64 = 1
        for _ in 0..<minorUnits { result *= 10 }
        return result
    }

    public var description: String { code }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(code: text)
        } catch let error as TallyError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }

    /// The codes whose minor units are not 2 (ISO 4217, amendment 179). Foundation on Linux says
    /// 2 for every currency, so the table is kept here.
    private static let minorUnitExceptions: [String: Int] = [
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0,
        "PYG": 0, "RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
        "CLF": 4, "UYW": 4,
    ]

    private static let knownCodes = Set(Locale.commonISOCurrencyCodes)
}
