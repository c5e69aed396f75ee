import Foundation
import TallyCore

/// Drinks and removals brought in from a file (A2), with the drink kinds they name that the
/// person does not have yet.
public struct EntryImport: Sendable {
    public var newKinds: [DrinkKind]
    public var entries: [DayEntry]

    public init(newKinds: [DrinkKind] = [], entries: [DayEntry]) {
        self.newKinds = newKinds
        self.entries = entries
    }

    /// What an import added: the entries it passed over were there already.
    public struct Added: Codable, Equatable, Sendable {
        public var drinks: Int
        public var removals: Int
        /// The names of the kinds it added.
        public var newKinds: [String]

        public init(drinks: Int = 0, removals: Int = 0, newKinds: [String] = []) {
            self.drinks = drinks
            self.removals = removals
            self.newKinds = newKinds
        }
    }

    /// The entries after the first of each id: a file that names an id twice means one entry.
    package var distinctEntries: [DayEntry] {
        var seen = Set<UUID>()
        return entries.filter { seen.insert($0.id).inserted }
    }
}
