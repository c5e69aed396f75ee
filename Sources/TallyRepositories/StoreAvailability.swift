/// A store whose database can be away, on a server of its own (PostgreSQL): `/health` asks it.
/// An embedded database (SQLite) is there as long as the process is.
public protocol StoreAvailability: Sendable {
    /// Why the database does not answer now, in a sentence; nil when it does. Known at once,
    /// never by waiting on the database: readiness must answer during an outage.
    func unavailability() -> String?
}
