import Foundation
import PostgresNIO
import TallyCore

/// A database address as people write it: `postgres://user:password@host:5432/database`, with
/// `?sslmode=disable|prefer|require` (libpq's names; `prefer` unless said) and
/// `?host=/run/postgresql` for a Unix socket.
struct PostgresURL {
    private let components: URLComponents

    /// Whether `text` names a PostgreSQL database rather than a file.
    static func names(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    init(_ text: String) throws {
        guard Self.names(text), let components = URLComponents(string: text) else {
            throw TallyError.invalid("A PostgreSQL address looks like postgres://user:password@host:5432/database.")
        }
        self.components = components
    }

    private func parameter(_ name: String) -> String? {
        components.queryItems?.first { $0.name == name }?.value
    }

    var configuration: PostgresClient.Configuration {
        get throws {
            let user = components.user?.removingPercentEncoding ?? "postgres"
            let password = components.password?.removingPercentEncoding
            let path = components.path.drop { $0 == "/" }
            let database = path.isEmpty ? nil : String(path).removingPercentEncoding
            if let socket = parameter("host"), socket.hasPrefix("/") {
                let file = socket.hasSuffix(".s.PGSQL.\(components.port ?? 5432)") ? socket
                    : "\(socket)/.s.PGSQL.\(components.port ?? 5432)"
                return PostgresClient.Configuration(unixSocketPath: file, username: user, password: password, database: database)
            }
            guard let host = components.host, !host.isEmpty else {
                throw TallyError.invalid("A PostgreSQL address needs a host: postgres://user:password@host:5432/database.")
            }
            // As libpq: `prefer` and `require` encrypt without checking the certificate,
            // `verify-full` checks it and the host name.
            var unchecked = TLSConfiguration.makeClientConfiguration()
            unchecked.certificateVerification = .none
            let tls: PostgresClient.Configuration.TLS
            switch parameter("sslmode") ?? "prefer" {
            case "disable": tls = .disable
            case "prefer", "allow": tls = .prefer(unchecked)
            case "require": tls = .require(unchecked)
            case "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
            case let mode:
                throw TallyError.invalid("sslmode=\(mode) is not one Tally knows: use disable, prefer or require.")
            }
            return PostgresClient.Configuration(host: host, port: components.port ?? 5432, username: user,
                                                password: password, database: database, tls: tls)
        }
    }

    /// The address without its password, for messages and logs.
    var redacted: String {
        var shown = components
        if shown.password != nil { shown.password = "•••" }
        shown.query = nil
        return shown.string ?? "the database"
    }
}

extension PostgresStore {
    /// Whether `text` is the address of a PostgreSQL database (postgres:// or postgresql://) rather than a file.
    public static func isAddress(_ text: String) -> Bool { PostgresURL.names(text) }

    /// The address without its password, for logs and messages.
    public static func redacted(_ url: String) -> String { (try? PostgresURL(url).redacted) ?? "the PostgreSQL database" }
}
