import Foundation
import TallyCore

// A request's body may only have the fields its type reads: a field the server does not know is
// refused with a 400 that names it, instead of being dropped without a word (a client sending
// "currency" to a version that has none would believe it was kept). Which fields a type knows is
// what its init(from:) asks for (decode, decodeIfPresent, contains), so that a field added to a
// type's CodingKeys is known at once, and answers stay free to grow: only requests are read so.

extension APICoding {
    /// A request's body as `T`, refusing a field of any of its objects that `T` does not read,
    /// with the field's path (`split.parts[0].weight`) and the fields it has instead. Errors of
    /// the values themselves stay DecodingErrors, as `decoder` throws them.
    public static func decodeRequest<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let reading = FieldReading()
        let decoder = makeDecoder()
        decoder.userInfo[FieldReading.key] = reading
        let value = try decoder.decode(FieldsRead<T>.self, from: data).value
        try reading.refuseUnknownFields()
        return value
    }

    /// A field's name from its coding path: split.parts[0].member (an index follows its array
    /// without a dot).
    public static func fieldName(_ path: [any CodingKey]) -> String {
        path.reduce(into: "") { name, key in
            if let index = key.intValue { name += "[\(index)]" } else { name += (name.isEmpty ? "" : ".") + key.stringValue }
        }
    }
}

/// The keys of a body's objects and the ones its types asked for, as one decoding goes (a
/// reading belongs to one call of `decodeRequest`, on one thread).
final class FieldReading: @unchecked Sendable {
    static let key = CodingUserInfoKey(rawValue: "TallyAPI.FieldReading")!

    /// One JSON object as a container of a type saw it.
    final class Object {
        let path: [any CodingKey]
        let keys: [String]
        /// In the order they were first asked for: a type's CodingKeys in order, for synthesized ones.
        var asked: [String] = []

        init(path: [any CodingKey], keys: [String]) {
            self.path = path
            self.keys = keys
        }

        func ask(_ key: some CodingKey) {
            if !asked.contains(key.stringValue) { asked.append(key.stringValue) }
        }
    }

    private var objects: [Object] = []

    /// `T` from `decoder` with its reads seen. A value that fails to decode leaves no objects
    /// behind, so that a type trying one shape and then another (`try?`) is judged by the one it took.
    func read<T: Decodable>(_ type: T.Type, from decoder: any Decoder) throws -> T {
        // The JSON decoder reads these by its own strategies, not by their init(from:).
        if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self {
            return try decoder.singleValueContainer().decode(T.self)
        }
        let mark = objects.count
        do {
            return try T(from: FieldReadingDecoder(base: decoder, reading: self))
        } catch {
            objects.removeSubrange(mark...)
            throw error
        }
    }

    /// A keyed container over `base`, whose object has `keys`.
    func container<Key>(_ base: KeyedDecodingContainer<Key>, keys: [String]) -> KeyedDecodingContainer<Key> {
        let object = Object(path: base.codingPath, keys: keys)
        objects.append(object)
        return KeyedDecodingContainer(FieldReadingKeyedContainer(base: base, object: object, reading: self))
    }

    /// Throws for the first field no type asked for: the outermost object first, and within one
    /// the names in order. An object several containers read (a type that reads a key and hands
    /// the value on) knows what all of them asked.
    func refuseUnknownFields() throws {
        var order: [String] = []
        var read: [String: (object: Object, asked: [String])] = [:]
        for object in objects {
            let name = APICoding.fieldName(object.path)
            if read[name] == nil { order.append(name) }
            var entry = read[name] ?? (object, [])
            entry.asked += object.asked.filter { !entry.asked.contains($0) }
            read[name] = entry
        }
        for name in order {
            guard let (object, asked) = read[name], let unknown = object.keys.filter({ !asked.contains($0) }).sorted().first else { continue }
            let field = APICoding.fieldName(object.path + [FieldKey(stringValue: unknown)])
            // A problem's field is never empty: a key "" at the top is named in the sentence only.
            let named = field.isEmpty ? nil : field
            if asked.isEmpty {
                throw TallyError.invalid("\"\(field)\" is not a field of this request: leave it out.", field: named)
            }
            throw TallyError.invalid("\"\(field)\" is not a field of this request: leave it out, or use one of \(asked.joined(separator: ", ")).",
                                     field: named)
        }
    }
}

/// Any key of a JSON object, to see all of them (a type's own keys leave out those it does not know).
struct FieldKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// A value decoded with its reads seen: what the containers below hand to the JSON decoder, so
/// that it decodes each value as it always does (nulls, missing keys, dates by its strategy) and
/// the value's type gets the reading decoder.
struct FieldsRead<T: Decodable>: Decodable {
    let value: T

    init(from decoder: any Decoder) throws {
        guard let reading = decoder.userInfo[FieldReading.key] as? FieldReading else {
            value = try T(from: decoder)
            return
        }
        value = try reading.read(T.self, from: decoder)
    }
}

struct FieldReadingDecoder: Decoder {
    let base: any Decoder
    let reading: FieldReading

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let container = try base.container(keyedBy: type)
        return reading.container(container, keys: try base.container(keyedBy: FieldKey.self).allKeys.map(\.stringValue))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        FieldReadingUnkeyedContainer(base: try base.unkeyedContainer(), reading: reading)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        FieldReadingSingleValueContainer(base: try base.singleValueContainer())
    }
}

struct FieldReadingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<Key>
    let object: FieldReading.Object
    let reading: FieldReading

    var codingPath: [any CodingKey] { base.codingPath }
    var allKeys: [Key] { base.allKeys }

    func contains(_ key: Key) -> Bool {
        object.ask(key)
        return base.contains(key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        object.ask(key)
        return try base.decodeNil(forKey: key)
    }

    private func asked<Value>(_ key: Key, _ read: () throws -> Value) rethrows -> Value {
        object.ask(key)
        return try read()
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try asked(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try asked(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try asked(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try asked(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try asked(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try asked(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try asked(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try asked(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try asked(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try asked(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try asked(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try asked(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try asked(key) { try base.decode(type, forKey: key) } }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try asked(key) { try base.decode(type, forKey: key) } }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try asked(key) { try base.decode(FieldsRead<T>.self, forKey: key).value }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try asked(key) { try base.decodeIfPresent(FieldsRead<T>.self, forKey: key)?.value }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try asked(key) {
            reading.container(try base.nestedContainer(keyedBy: type, forKey: key),
                              keys: try base.nestedContainer(keyedBy: FieldKey.self, forKey: key).allKeys.map(\.stringValue))
        }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try asked(key) { FieldReadingUnkeyedContainer(base: try base.nestedUnkeyedContainer(forKey: key), reading: reading) }
    }

    func superDecoder() throws -> any Decoder {
        object.ask(FieldKey(stringValue: "super"))
        return FieldReadingDecoder(base: try base.superDecoder(), reading: reading)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try asked(key) { FieldReadingDecoder(base: try base.superDecoder(forKey: key), reading: reading) }
    }
}

struct FieldReadingUnkeyedContainer: UnkeyedDecodingContainer {
    var base: any UnkeyedDecodingContainer
    let reading: FieldReading

    var codingPath: [any CodingKey] { base.codingPath }
    var count: Int? { base.count }
    var isAtEnd: Bool { base.isAtEnd }
    var currentIndex: Int { base.currentIndex }

    mutating func decodeNil() throws -> Bool { try base.decodeNil() }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try base.decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try base.decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try base.decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try base.decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try base.decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try base.decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try base.decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try base.decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try base.decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try base.decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try base.decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try base.decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try base.decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try base.decode(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try base.decode(FieldsRead<T>.self).value }
    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? { try base.decodeIfPresent(FieldsRead<T>.self)?.value }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        // One element, read twice: through its own decoder, so that the index moves once.
        try FieldReadingDecoder(base: try base.superDecoder(), reading: reading).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        FieldReadingUnkeyedContainer(base: try base.nestedUnkeyedContainer(), reading: reading)
    }

    mutating func superDecoder() throws -> any Decoder {
        FieldReadingDecoder(base: try base.superDecoder(), reading: reading)
    }
}

struct FieldReadingSingleValueContainer: SingleValueDecodingContainer {
    let base: any SingleValueDecodingContainer

    var codingPath: [any CodingKey] { base.codingPath }

    func decodeNil() -> Bool { base.decodeNil() }
    func decode(_ type: Bool.Type) throws -> Bool { try base.decode(type) }
    func decode(_ type: String.Type) throws -> String { try base.decode(type) }
    func decode(_ type: Double.Type) throws -> Double { try base.decode(type) }
    func decode(_ type: Float.Type) throws -> Float { try base.decode(type) }
    func decode(_ type: Int.Type) throws -> Int { try base.decode(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try base.decode(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try base.decode(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try base.decode(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try base.decode(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try base.decode(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try base.decode(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try base.decode(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try base.decode(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try base.decode(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try base.decode(FieldsRead<T>.self).value }
}
