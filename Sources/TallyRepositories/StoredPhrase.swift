import Foundation
import TallyCore

/// A phrase as a store keeps it (the ledger's activity log): its key, values and singular as a
/// small JSON object, so that a page writes it in each reader's language long after it was said.
/// `{"k": key, "v": [{"t": text} | {"n": count} | {"p": phrase} | {"m": minor units, "c": currency}], "s": singular}`.
extension Phrase {
    public var stored: String {
        let data = (try? JSONSerialization.data(withJSONObject: Self.object(self), options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    public init?(stored: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(stored.utf8)), let phrase = Self.phrase(object) else { return nil }
        self = phrase
    }

    private static func object(_ phrase: Phrase) -> [String: Any] {
        var written: [String: Any] = ["k": phrase.key, "v": phrase.values.map { value -> [String: Any] in
            switch value {
            case .text(let text): ["t": text]
            case .count(let count): ["n": count]
            case .phrase(let inner): ["p": object(inner)]
            case .money(let money): ["m": money.minorUnits, "c": money.currency.code]
            }
        }]
        if let singular = phrase.singular { written["s"] = singular }
        return written
    }

    private static func phrase(_ object: Any) -> Phrase? {
        guard let object = object as? [String: Any], let key = object["k"] as? String, let values = object["v"] as? [[String: Any]] else { return nil }
        var read: [Value] = []
        for value in values {
            if let text = value["t"] as? String {
                read.append(.text(text))
            } else if let count = value["n"] as? Int {
                read.append(.count(count))
            } else if let inner = value["p"].flatMap(phrase) {
                read.append(.phrase(inner))
            } else if let units = (value["m"] as? NSNumber)?.int64Value, let currency = (value["c"] as? String).flatMap({ try? Currency(code: $0) }) {
                read.append(.money(Money(minorUnits: units, currency: currency)))
            } else {
                return nil
            }
        }
        return Phrase(key: key, values: read, singular: object["s"] as? String)
    }
}
