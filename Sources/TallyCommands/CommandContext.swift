import ArgumentParser
import Foundation
import TallyCore
import TallyRepositories
import TallyServices

/// Where a command's tally is, before anything is read from it: the backends and the clock.
/// Opening one reads nothing, so a command that needs nothing else (`tally drink 250` against a
/// server) makes exactly the requests it needs.
package struct Connection {
    let backend: any HydrationBackend
    let spending: any SpendingBackend
    let backup: any BackupBackend
    /// Now, for times typed as HH:MM and for telling today from other days.
    let clock: any WallClock
    let options: CommonOptions

    package init(backend: any HydrationBackend, spending: any SpendingBackend, backup: any BackupBackend, clock: any WallClock,
                 options: CommonOptions) {
        (self.backend, self.spending, self.backup, self.clock, self.options) = (backend, spending, backup, clock, options)
    }

    static func open(_ options: CommonOptions) async throws -> Connection {
        let environment = ProcessInfo.processInfo.environment
        // The server keeps the time: TALLY_NOW is for the local database only.
        if let remote = try Reach.current.server(options, environment) { return remote }
        let store = try await StoreLocation(options.database).open(for: .command)
        let clock = try clock(environment)
        let user = try await person(named: options.user ?? environment["TALLY_USER"].flatMap { $0.isEmpty ? nil : $0 }, in: store, clock: clock)
        let hydration = UserDirectory(store: store, clock: clock).hydration(for: user)
        let spending = SpendingService(store: store, clock: clock, user: user.id)
        return Connection(backend: LocalHydration(service: hydration), spending: LocalSpending(service: spending),
                          backup: LocalBackup(hydration: hydration, spending: spending), clock: clock, options: options)
    }

    /// Whose tally a local command works on. A file without accounts is one person's own: the
    /// person named, or "local", made on first use. A database with accounts (a server's) is
    /// everyone's: the command names an account, and nobody is made for it.
    static func person(named name: String?, in store: any TallyStorage, clock: any WallClock) async throws -> User {
        if let name, let user = try await store.user(named: name) { return user }
        let accounts = try await store.accountCount()
        guard accounts == 0 else {
            guard let name else {
                throw TallyError.invalid(Phrase(one: "This database has \(accounts) account: name it with --user NAME (or TALLY_USER).",
                                                other: "This database has \(accounts) accounts: name one with --user NAME (or TALLY_USER)."))
            }
            throw TallyError.notFound("This database has no account named \(UserText.quoted(name)): tally user list names them, and tally user create makes one.")
        }
        return try await UserDirectory(store: store, clock: clock).user(named: name ?? "local")
    }

    /// The system clock, or the instant in TALLY_NOW: tests and benchmarks set it to run at
    /// midnight or on a DST day.
    private static func clock(_ environment: [String: String]) throws -> any WallClock {
        guard let fixed = environment["TALLY_NOW"], !fixed.isEmpty else { return SystemClock() }
        guard let instant = InternetTime.instant(fixed) else {
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

    func format(_ ml: Double) -> String { Said.volume(ml, unit) }
}
