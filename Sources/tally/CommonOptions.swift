import ArgumentParser
import Foundation
import TallyAPI
import TallyCore
import TallyStore

/// Options every command takes.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The SQLite database file (env: TALLY_DATABASE).", valueName: "path"))
    var database: String?

    @Option(name: .long, help: ArgumentHelp("Whose tally to use (env: TALLY_USER; default: local).", valueName: "name"))
    var user: String?

    @Option(name: .long, help: ArgumentHelp(
        "Work on a Tally server through its API instead of a local database (env: TALLY_SERVER); --database and --user are then not used.",
        valueName: "url"))
    var server: String?

    @Option(name: .long, help: ArgumentHelp(
        "A personal API token for --server (env: TALLY_TOKEN, which other users of this machine cannot see); create one with `tally token create`.",
        valueName: "token"))
    var token: String?

    @Option(name: .long, help: ArgumentHelp("Show and read volumes in this unit for this command (ml or oz).", valueName: "unit"))
    var unit: VolumeUnitArgument?

    @Flag(name: .long, help: "Print one JSON document instead of text.")
    var json = false
}

struct VolumeUnitArgument: ExpressibleByArgument {
    let unit: VolumeUnit
    init?(argument: String) {
        guard let unit = VolumeUnit(typed: argument) else { return nil }
        self.unit = unit
    }
}

/// Where the database is: --database, then TALLY_DATABASE, then the XDG data folder.
enum DatabaseLocation {
    static var defaultDescription: String { "~/.local/share/tally/tally.sqlite" }

    static func path(_ option: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let option, !option.isEmpty { return expand(option) }
        if let variable = environment["TALLY_DATABASE"], !variable.isEmpty { return expand(variable) }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() + "/.local/share")
        return dataHome + "/tally/tally.sqlite"
    }

    private static func expand(_ path: String) -> String {
        (path as NSString).expandingTildeInPath
    }
}

/// Where a hydration command's tally is: a Tally server (--server, then TALLY_SERVER) with a
/// token (--token, then TALLY_TOKEN), or else the local database.
enum Remote {
    static func client(_ options: CommonOptions, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> APIClient? {
        func nonEmpty(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }
        guard let server = nonEmpty(options.server) ?? nonEmpty(environment["TALLY_SERVER"]) else {
            if options.token != nil {
                throw TallyError.invalid("--token goes with --server URL (or TALLY_SERVER): name the server the token is for.")
            }
            return nil
        }
        guard let token = nonEmpty(options.token) ?? nonEmpty(environment["TALLY_TOKEN"]) else {
            throw TallyError(.unauthorized,
                             "Give an API token for \(server) with --token or TALLY_TOKEN; create one with `tally token create --user NAME` on the server.")
        }
        return try APIClient(server: server, token: token)
    }
}

/// Where a command's tally is, before anything is read from it: the backends and the clock.
/// Opening one reads nothing, so a command that needs nothing else (`tally drink 250` against a
/// server) makes exactly the requests it needs.
struct Connection {
    let backend: any HydrationBackend
    let spending: any SpendingBackend
    /// Now, for times typed as HH:MM and for telling today from other days.
    let clock: any WallClock
    let options: CommonOptions

    static func open(_ options: CommonOptions) async throws -> Connection {
        let environment = ProcessInfo.processInfo.environment
        if let client = try Remote.client(options, environment: environment) {
            // The server keeps the time: TALLY_NOW is for the local database only.
            return Connection(backend: RemoteHydration(client: client), spending: RemoteSpending(client: client),
                              clock: SystemClock(), options: options)
        }
        let store = try SQLiteStore.open(path: DatabaseLocation.path(options.database), access: .singleConnection)
        let clock = try clock(environment)
        let directory = UserDirectory(store: store, clock: clock)
        let name = options.user ?? environment["TALLY_USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "local"
        let user = try await directory.user(named: name)
        return Connection(backend: LocalHydration(service: directory.hydration(for: user)),
                          spending: LocalSpending(service: SpendingService(store: store, clock: clock, user: user.id)),
                          clock: clock, options: options)
    }

    /// The system clock, or the instant in TALLY_NOW: tests and benchmarks set it to run at
    /// midnight or on a DST day.
    private static func clock(_ environment: [String: String]) throws -> any WallClock {
        guard let fixed = environment["TALLY_NOW"], !fixed.isEmpty else { return SystemClock() }
        guard let instant = try? Date(fixed, strategy: .iso8601) else {
            throw TallyError.invalid("TALLY_NOW must be an ISO 8601 instant such as 2025-03-30T08:00:00Z.")
        }
        return FixedClock(instant)
    }

    /// An amount as typed: in millilitres when the command names the unit (--unit), else as
    /// typed, for the tally to read in the user's unit.
    func volume(_ text: String) throws -> VolumeAmount {
        guard let unit = options.unit?.unit else { return .typed(text) }
        return .milliliters(try VolumeInput.milliliters(from: text, defaultUnit: unit))
    }

    /// A time as typed (HH:MM today, or ISO 8601), read in the user's time zone.
    func instant(_ text: String) async throws -> Date {
        try EntryTime.instant(from: text, now: clock.now, zone: try await backend.settings().zone)
    }
}

/// What most commands work with: the connection and the user's settings.
struct CommandContext {
    let connection: Connection
    let settings: HydrationSettings

    var backend: any HydrationBackend { connection.backend }
    var spending: any SpendingBackend { connection.spending }
    var clock: any WallClock { connection.clock }
    var options: CommonOptions { connection.options }

    /// The unit this command shows and reads volumes in.
    var unit: VolumeUnit { options.unit?.unit ?? settings.unit }

    /// The user's local day now.
    var today: LocalDate { LocalDate(containing: clock.now, in: settings.zone) }

    static func open(_ options: CommonOptions) async throws -> CommandContext {
        let connection = try await Connection.open(options)
        return CommandContext(connection: connection, settings: try await connection.backend.settings())
    }

    /// Millilitres from an amount as typed ("250", "250ml", "8oz"), bare numbers in the command's unit.
    func milliliters(_ text: String) throws -> Double {
        try VolumeInput.milliliters(from: text, defaultUnit: unit)
    }

    func instant(_ text: String) throws -> Date {
        try EntryTime.instant(from: text, now: clock.now, zone: settings.zone)
    }

    func format(_ ml: Double) -> String { unit.format(ml) }
}

/// A command of this tool: it runs against a context, and its errors become one sentence on
/// stderr and an exit code, in this one place.
protocol TallyCommand: AsyncParsableCommand {
    var options: CommonOptions { get }
    func run(in context: CommandContext) async throws
}

extension TallyCommand {
    func run() async throws {
        try await reportingErrors { try await run(in: try await CommandContext.open(options)) }
    }
}

/// Runs `body`, turning a TallyError (or a server that cannot be reached) into its sentence on
/// stderr and its exit code: the one place where error kinds become exit codes.
func reportingErrors<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch {
        throw report(error)
    }
}

func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw report(error)
    }
}

private func report(_ error: any Error) -> any Error {
    let (message, code): (String, Int32)
    switch error {
    case let error as TallyError: (message, code) = (error.message, exitCode(error.kind))
    case let error as RemoteFailure: (message, code) = (error.message, 6)
    default: return error
    }
    FileHandle.standardError.write(Data((message + "\n").utf8))
    return ExitCode(code)
}

private func exitCode(_ kind: TallyError.Kind) -> Int32 {
    switch kind {
    case .invalidInput: 1
    case .notFound: 2
    case .conflict: 3
    case .unauthorized: 4
    case .tooManyRequests, .busy: 5
    }
}

/// Prints text, or `value` as one JSON document with --json.
func emit<T: Encodable>(_ value: T, _ context: CommandContext, text: () -> String) throws {
    try emitPlain(value, context.options, text: text)
}

func emitPlain<T: Encodable>(_ value: T, _ options: CommonOptions, text: () -> String) throws {
    if options.json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    } else {
        print(text())
    }
}

/// Reads a number argument, refusing text that is not one with a sentence that names it.
func number(_ text: String, _ what: String) throws -> Double {
    guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
        throw TallyError.invalid("\(what) must be a number; \"\(text)\" is not.")
    }
    return value
}
