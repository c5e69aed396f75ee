import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

/// A database address as people write it: `postgres://user:password@host:5432/database`, with
/// `?sslmode=disable|prefer|require` (libpq's names; `prefer` unless said) and
/// `?host=/run/postgresql` for a Unix socket.
struct PostgresURL {
    private let components: URLComponents

    init(_ text: String) throws {
        guard PostgresAddress.names(text), let components = URLComponents(string: text) else {
            throw TallyError.invalid("A PostgreSQL address looks like postgres://user:password@host:5432/database.")
        }
        self.components = components
    }

    private func parameter(_ name: String) -> String? {
        components.queryItems?.first { $0.name == name }?.value
    }

    /// Where and as whom to connect, for the pool and for a single connection alike.
    private struct Endpoint {
        enum Place { case host(String, port: Int), socket(String) }
        enum Encryption { case disable, prefer(TLSConfiguration), require(TLSConfiguration) }
        var place: Place
        var encryption: Encryption
        var user: String
        var password: String?
        var database: String?
    }

    private var endpoint: Endpoint {
        get throws {
            let user = components.user?.removingPercentEncoding ?? "postgres"
            let password = components.password?.removingPercentEncoding
            let path = components.path.drop { $0 == "/" }
            let database = path.isEmpty ? nil : String(path).removingPercentEncoding
            let port = components.port ?? 5432
            if let socket = parameter("host"), socket.hasPrefix("/") {
                let file = socket.hasSuffix(".s.PGSQL.\(port)") ? socket : "\(socket)/.s.PGSQL.\(port)"
                return Endpoint(place: .socket(file), encryption: .disable, user: user, password: password, database: database)
            }
            guard let host = components.host, !host.isEmpty else {
                throw TallyError.invalid("A PostgreSQL address needs a host: postgres://user:password@host:5432/database.")
            }
            // As libpq: `prefer` and `require` encrypt without checking the certificate,
            // `verify-full` checks it and the host name.
            var unchecked = TLSConfiguration.makeClientConfiguration()
            unchecked.certificateVerification = .none
            let encryption: Endpoint.Encryption
            switch parameter("sslmode") ?? "prefer" {
            case "disable": encryption = .disable
            case "prefer", "allow": encryption = .prefer(unchecked)
            case "require": encryption = .require(unchecked)
            case "verify-ca", "verify-full": encryption = .require(.makeClientConfiguration())
            case let mode:
                throw TallyError.invalid("sslmode=\(mode) is not one Tally knows: use disable, prefer or require.")
            }
            return Endpoint(place: .host(host, port: port), encryption: encryption, user: user, password: password, database: database)
        }
    }

    /// For the pool of a store.
    var configuration: PostgresClient.Configuration {
        get throws {
            let endpoint = try endpoint
            switch endpoint.place {
            case .socket(let file):
                return PostgresClient.Configuration(unixSocketPath: file, username: endpoint.user, password: endpoint.password,
                                                    database: endpoint.database)
            case .host(let host, let port):
                let tls: PostgresClient.Configuration.TLS = switch endpoint.encryption {
                case .disable: .disable
                case .prefer(let configuration): .prefer(configuration)
                case .require(let configuration): .require(configuration)
                }
                return PostgresClient.Configuration(host: host, port: port, username: endpoint.user, password: endpoint.password,
                                                    database: endpoint.database, tls: tls)
            }
        }
    }

    /// For one connection, such as the one that migrates the schema.
    var connectionConfiguration: PostgresConnection.Configuration {
        get throws {
            let endpoint = try endpoint
            switch endpoint.place {
            case .socket(let file):
                return PostgresConnection.Configuration(unixSocketPath: file, username: endpoint.user, password: endpoint.password,
                                                        database: endpoint.database)
            case .host(let host, let port):
                let tls: PostgresConnection.Configuration.TLS = switch endpoint.encryption {
                case .disable: .disable
                case .prefer(let configuration): .prefer(try NIOSSLContext(configuration: configuration))
                case .require(let configuration): .require(try NIOSSLContext(configuration: configuration))
                }
                return PostgresConnection.Configuration(host: host, port: port, username: endpoint.user, password: endpoint.password,
                                                        database: endpoint.database, tls: tls)
            }
        }
    }
}

extension PostgresStore {
    /// Whether `text` is the address of a PostgreSQL database (postgres:// or postgresql://) rather than a file.
    public static func isAddress(_ text: String) -> Bool { PostgresAddress.names(text) }

    /// The address without its password, for logs and messages.
    public static func redacted(_ url: String) -> String { PostgresAddress.redacted(url) ?? "the PostgreSQL database" }
}
