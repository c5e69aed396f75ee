import Foundation

extension Array where Element == String {
    /// The items as a sentence lists them: "Alex", "Alex and Sam", "Kim, Alex and Sam".
    public var spokenList: String {
        guard count > 1 else { return first ?? "" }
        return dropLast().joined(separator: ", ") + " and " + last!
    }
}
