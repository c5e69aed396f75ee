import Foundation
import TallyCore
import TallyRepositories

/// What a command reaches beyond the local SQLite file: a Tally server through its API
/// (--server, TALLY_SERVER) and a PostgreSQL database. `tally` links neither the HTTP client nor
/// the PostgreSQL driver, whose libraries would cost every local command's start: at the first
/// use of either it starts again as `tally-server` (`HandOff`), which reaches both.
package struct Reach: Sendable {
    /// The connection to a server when the options or the environment name one, else nil.
    package var server: @Sendable (_ options: CommonOptions, _ environment: [String: String]) throws -> Connection?
    /// The PostgreSQL database at `url`, its schema brought up to date.
    package var postgres: @Sendable (_ url: String, _ use: StoreUse) async throws -> any TallyStorage

    package init(server: @escaping @Sendable (CommonOptions, [String: String]) throws -> Connection?,
                 postgres: @escaping @Sendable (String, StoreUse) async throws -> any TallyStorage) {
        self.server = server
        self.postgres = postgres
    }

    /// This process's reach: `tally-server` sets its own around every command.
    @TaskLocal package static var current = Reach.handedOff

    /// `tally`'s: whatever names a server (the token included, so that `tally-server` says what is
    /// wrong with it) or PostgreSQL goes to `tally-server`.
    package static let handedOff = Reach(
        server: { options, environment in
            guard options.server == nil, options.token == nil, environment["TALLY_SERVER", default: ""].isEmpty else {
                try HandOff.toServerBinary()
            }
            return nil
        },
        postgres: { _, _ in try HandOff.toServerBinary() })
}

/// `tally` becoming `tally-server`, installed beside it, for the commands and stores it leaves to
/// it: the same process (a service manager still knows it), arguments, environment and standard
/// input, nothing read or written yet.
package enum HandOff {
    package static let serverBinary = "tally-server"

    /// Replaces this process with `tally-server`; returns only by throwing, when there is none.
    package static func toServerBinary() throws -> Never {
        let path = sibling()
        let arguments = [path] + CommandLine.arguments.dropFirst()
        var pointers = arguments.map { strdup($0) } + [nil]
        fflush(nil)
        execv(path, &pointers)
        let reason = String(cString: strerror(errno))
        throw TallyError.notFound("This needs \(serverBinary), which cannot be started from \(path) (\(reason)): install it beside tally.")
    }

    /// `tally-server` in this executable's own folder, the link it was started through followed.
    static func sibling() -> String {
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent(serverBinary).path
    }
}
