import Foundation

/// A field of a change: left out (unchanged), null (cleared), or a new value. A plain optional
/// cannot tell the first two apart.
public enum Patch<Value: Codable & Sendable>: Sendable {
    case unchanged
    case cleared
    case set(Value)

    /// The change as an optional: nil when unchanged, `.some(nil)` when cleared.
    public var change: Value?? {
        switch self {
        case .unchanged: nil
        case .cleared: .some(nil)
        case .set(let value): .some(value)
        }
    }

    public init(_ change: Value??) {
        switch change {
        case .none: self = .unchanged
        case .some(.none): self = .cleared
        case .some(.some(let value)): self = .set(value)
        }
    }
}

extension Patch: Equatable where Value: Equatable {}

extension KeyedDecodingContainer {
    /// A missing key is `.unchanged`, null is `.cleared`.
    public func decode<Value>(_ type: Patch<Value>.Type, forKey key: Key) throws -> Patch<Value> {
        guard contains(key) else { return .unchanged }
        if try decodeNil(forKey: key) { return .cleared }
        return .set(try decode(Value.self, forKey: key))
    }
}

extension KeyedEncodingContainer {
    /// `.unchanged` leaves the key out, `.cleared` writes null.
    public mutating func encode<Value>(_ value: Patch<Value>, forKey key: Key) throws {
        switch value {
        case .unchanged: break
        case .cleared: try encodeNil(forKey: key)
        case .set(let value): try encode(value, forKey: key)
        }
    }
}

extension Patch: Codable {
    // Used only when a Patch is not a keyed field; as a field, the container methods above apply.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .cleared : .set(try container.decode(Value.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .unchanged, .cleared: try container.encodeNil()
        case .set(let value): try container.encode(value)
        }
    }
}

extension Patch {
    /// The value once the change is made: `current` when unchanged, nil when cleared.
    public func applied(to current: Value?) -> Value? {
        switch self {
        case .unchanged: current
        case .cleared: nil
        case .set(let value): value
        }
    }
}
