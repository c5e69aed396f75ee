import Foundation

/// A closed set of names (a unit, an activity level): JSON that names something else is refused
/// with the names it could have used.
public protocol NamedChoice: CaseIterable, RawRepresentable, Codable where RawValue == String {}

extension NamedChoice {
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(rawValue: text) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "\(UserText.quoted(text)) is not one of \(Self.allCases.map(\.rawValue).joined(separator: ", "))"))
        }
        self = value
    }
}
