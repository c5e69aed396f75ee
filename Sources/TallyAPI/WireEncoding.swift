import Foundation
import TallyCore

/// The `Encoder` that `WireEncoder` hands to each value that is not a scalar.
final class WireEncoding: Encoder {
    let scratch: WireScratch
    /// Where the value lies: its parent's encoding and its key there (none at the top). The coding
    /// path is made from them only when asked for, by an error: not once for every value.
    private let parent: WireEncoding?
    private let key: (any CodingKey)?
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What the value encoded itself as; nil until it asks for a container.
    var value: WireValue?

    init(scratch: WireScratch, parent: WireEncoding? = nil, key: (any CodingKey)? = nil) {
        self.scratch = scratch
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var encoding: WireEncoding? = self
        while let current = encoding, let key = current.key {
            path.append(key)
            encoding = current.parent
        }
        return path.reversed()
    }

    /// An encoding for the value at `key` below this one.
    func child(_ key: any CodingKey) -> WireEncoding { WireEncoding(scratch: scratch, parent: self, key: key) }

    /// What `value` becomes: scalars and ids at once, the types `JSONEncoder` writes in a form of
    /// its own (instants as `InternetTime`, data as Base64, addresses and decimals as text and
    /// numbers), and anything else through its own `encode(to:)`.
    func wrap<Value: Encodable>(_ value: Value, at key: (any CodingKey)? = nil) throws -> WireValue {
        // A value that encodes nothing is an empty object, as in `JSONEncoder`.
        try self.value(of: value, at: key) ?? .object(WireObject())
    }

    /// What `value` becomes, or nil if it encoded nothing.
    func value<Value: Encodable>(of value: Value, at key: (any CodingKey)? = nil) throws -> WireValue? {
        // Comparing types first spares the dynamic cast that `as?` would make for every value.
        if Value.self == String.self { return scratch.string(value as! String) }
        if Value.self == Double.self { return try scratch.number(value as! Double, at: self.path(key)) }
        if Value.self == Int.self { return scratch.integer(value as! Int) }
        if Value.self == Bool.self { return value as! Bool ? scratch.literal("true") : scratch.literal("false") }
        if Value.self == UUID.self { return scratch.scalar { JSONText.appendUUID(value as! UUID, to: &$0) } }
        if Value.self == Date.self { return scratch.string(InternetTime.utcSeconds(value as! Date)) }
        if Value.self == Data.self { return scratch.string((value as! Data).base64EncodedString()) }
        if Value.self == URL.self { return scratch.string((value as! URL).absoluteString) }
        if Value.self == Decimal.self { return scratch.scalar { $0.append(contentsOf: (value as! Decimal).description.utf8) } }
        let inner = key.map(child) ?? WireEncoding(scratch: scratch, parent: parent, key: self.key)
        try value.encode(to: inner)
        return inner.value
    }

    func path(_ key: (any CodingKey)?) -> [any CodingKey] { key.map { codingPath + [$0] } ?? codingPath }

    func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: WireObject
        if case .object(let existing)? = value {
            object = existing
        } else {
            object = WireObject()
            value = .object(object)
        }
        return KeyedEncodingContainer(WireKeyedContainer<Key>(encoding: self, object: object))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: WireArray
        if case .array(let existing)? = value {
            array = existing
        } else {
            array = WireArray()
            value = .array(array)
        }
        return WireUnkeyedContainer(encoding: self, array: array)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }
}

extension WireEncoding: SingleValueEncodingContainer {
    func encodeNil() throws { value = scratch.literal("null") }
    func encode(_ value: Bool) throws { self.value = value ? scratch.literal("true") : scratch.literal("false") }
    func encode(_ value: String) throws { self.value = scratch.string(value) }
    func encode(_ value: Double) throws { self.value = try scratch.number(value, at: self.codingPath) }
    func encode(_ value: Float) throws { self.value = try scratch.number(value, at: self.codingPath) }
    func encode(_ value: Int) throws { self.value = scratch.integer(value) }
    func encode(_ value: Int8) throws { self.value = scratch.integer(value) }
    func encode(_ value: Int16) throws { self.value = scratch.integer(value) }
    func encode(_ value: Int32) throws { self.value = scratch.integer(value) }
    func encode(_ value: Int64) throws { self.value = scratch.integer(value) }
    func encode(_ value: UInt) throws { self.value = scratch.integer(value) }
    func encode(_ value: UInt8) throws { self.value = scratch.integer(value) }
    func encode(_ value: UInt16) throws { self.value = scratch.integer(value) }
    func encode(_ value: UInt32) throws { self.value = scratch.integer(value) }
    func encode(_ value: UInt64) throws { self.value = scratch.integer(value) }
    func encode<Value: Encodable>(_ value: Value) throws { self.value = try wrap(value) }
}

struct WireKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoding: WireEncoding
    let object: WireObject
    var codingPath: [any CodingKey] { encoding.codingPath }
    private var scratch: WireScratch { encoding.scratch }

    init(encoding: WireEncoding, object: WireObject) {
        self.encoding = encoding
        self.object = object
    }

    private func set(_ value: WireValue, _ key: Key) { object.fields.append((key.stringValue, value)) }

    mutating func encodeNil(forKey key: Key) throws { set(scratch.literal("null"), key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(value ? scratch.literal("true") : scratch.literal("false"), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(scratch.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try scratch.number(value, at: encoding.path(key)), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try scratch.number(value, at: encoding.path(key)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(scratch.integer(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(scratch.integer(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(scratch.integer(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(scratch.integer(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(scratch.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(scratch.integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(scratch.integer(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(scratch.integer(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(scratch.integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(scratch.integer(value), key) }
    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws { set(try encoding.wrap(value, at: key), key) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = encoding.child(key)
        let container = nested.container(keyedBy: NestedKey.self)
        set(nested.value!, key)
        return container
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = encoding.child(key)
        let container = nested.unkeyedContainer()
        set(nested.value!, key)
        return container
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    private func superEncoder(named name: String) -> any Encoder {
        let nested = encoding.child(WireIndex(name))
        object.fields.append((name, .pending(nested)))
        return nested
    }
}

struct WireUnkeyedContainer: UnkeyedEncodingContainer {
    let encoding: WireEncoding
    let array: WireArray
    var codingPath: [any CodingKey] { encoding.codingPath }
    var count: Int { array.items.count }
    private var scratch: WireScratch { encoding.scratch }
    private var nextKey: WireIndex { WireIndex(count) }

    private func append(_ value: WireValue) { array.items.append(value) }

    mutating func encodeNil() throws { append(scratch.literal("null")) }
    mutating func encode(_ value: Bool) throws { append(value ? scratch.literal("true") : scratch.literal("false")) }
    mutating func encode(_ value: String) throws { append(scratch.string(value)) }
    mutating func encode(_ value: Double) throws { append(try scratch.number(value, at: encoding.path(nextKey))) }
    mutating func encode(_ value: Float) throws { append(try scratch.number(value, at: encoding.path(nextKey))) }
    mutating func encode(_ value: Int) throws { append(scratch.integer(value)) }
    mutating func encode(_ value: Int8) throws { append(scratch.integer(value)) }
    mutating func encode(_ value: Int16) throws { append(scratch.integer(value)) }
    mutating func encode(_ value: Int32) throws { append(scratch.integer(value)) }
    mutating func encode(_ value: Int64) throws { append(scratch.integer(value)) }
    mutating func encode(_ value: UInt) throws { append(scratch.integer(value)) }
    mutating func encode(_ value: UInt8) throws { append(scratch.integer(value)) }
    mutating func encode(_ value: UInt16) throws { append(scratch.integer(value)) }
    mutating func encode(_ value: UInt32) throws { append(scratch.integer(value)) }
    mutating func encode(_ value: UInt64) throws { append(scratch.integer(value)) }
    mutating func encode<Value: Encodable>(_ value: Value) throws { append(try encoding.wrap(value, at: nextKey)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = encoding.child(nextKey)
        let container = nested.container(keyedBy: NestedKey.self)
        append(nested.value!)
        return container
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = encoding.child(nextKey)
        let container = nested.unkeyedContainer()
        append(nested.value!)
        return container
    }

    mutating func superEncoder() -> any Encoder {
        let nested = encoding.child(nextKey)
        append(.pending(nested))
        return nested
    }
}

/// A position in an array, or a super encoder's key, on a coding path.
struct WireIndex: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ index: Int) { (stringValue, intValue) = ("Index \(index)", index) }
    init(_ name: String) { (stringValue, intValue) = (name, nil) }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(intValue) }
}
