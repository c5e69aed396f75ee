/// How far what a page shows has come: a number that every change to it moves on (a ledger's
/// entries and members, or the drinks of a person's day), whichever instance made the change. A page keeps
/// the number it was drawn at and reads itself again when the server names another.
public struct Revision: Codable, Sendable, Hashable {
    public var revision: Int64

    public init(_ revision: Int64) {
        self.revision = revision
    }
}
