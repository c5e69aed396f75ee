import Foundation

/// A PostgreSQL database's address as people write it (`postgres://user:password@host/name`),
/// told from a file's path and written without its password, with Foundation alone: `tally`
/// knows where a command's tally is before any PostgreSQL code is loaded.
public enum PostgresAddress {
    /// Whether `text` names a PostgreSQL database (postgres:// or postgresql://) rather than a file.
    public static func names(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// The address without its password (or anything after the database's name), for messages
    /// and logs; nil for text that is no such address.
    public static func redacted(_ text: String) -> String? {
        guard names(text), let components = URLComponents(string: text) else { return nil }
        var redacted = (components.scheme ?? "postgres") + "://"
        if let user = components.percentEncodedUser {
            redacted += user + (components.percentEncodedPassword == nil ? "" : ":•••") + "@"
        }
        redacted += components.percentEncodedHost ?? ""
        if let port = components.port { redacted += ":\(port)" }
        return redacted + components.percentEncodedPath
    }
}
