import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import TallyCore

/// The store's connections to PostgreSQL, and what the store does when the database goes away.
///
/// - **A deadline.** Every use of a connection, the wait for one included, ends within the
///   deadline: past it, the connection is closed (PostgresNIO cannot cancel a query, but a closed
///   connection fails what runs on it) and the caller is told to try again. No request waits for
///   a database that does not answer.
/// - **An outage.** A failure of the connection itself (the server went away, reset it, or refuses
///   new ones) marks the database unreachable: until it answers again, every use fails at once with
///   `storageUnavailable` (503), instead of waiting for the pool, whose circuit breaker trips only
///   after a minute of failed attempts.
/// - **A probe.** During an outage, a connection of its own is tried twice a second. The first
///   that answers ends the outage and a new pool replaces the old one, whose back-off would go on
///   refusing for seconds after the database is back.
final class PostgresPool: Sendable {
    private struct State {
        var client: PostgresClient
        var running: Task<Void, Never>
        /// Why the database is thought unreachable; nil while it answers.
        var outage: Phrase?
        var probe: Task<Void, Never>?
        var closed = false
    }

    private let state: NIOLockedValueBox<State>
    private let configuration: PostgresClient.Configuration
    private let probeConfiguration: PostgresConnection.Configuration
    /// How long a use of a connection may take; nil for none (a command that restores a backup).
    let deadline: Duration?
    private let logger: Logger
    /// Where an outage's beginning and end are told, once each (PostgresNIO's logger says errors only).
    private let events = Logger(label: "tally")

    init(_ configuration: PostgresClient.Configuration, probe: PostgresConnection.Configuration, deadline: Duration?, logger: Logger) {
        self.configuration = configuration
        self.probeConfiguration = probe
        self.deadline = deadline
        self.logger = logger
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        state = NIOLockedValueBox(State(client: client, running: Task { await client.run() }))
    }

    /// The pool's current client, without the deadline (tests that alter the schema use it).
    var client: PostgresClient { state.withLockedValue { $0.client } }

    /// Closes the connections; the pool cannot be used after.
    func close() {
        state.withLockedValue { state in
            state.closed = true
            state.running.cancel()
            state.probe?.cancel()
        }
    }

    /// Why the database does not answer, or nil when it does: what /health reports.
    func unavailability() async -> String? {
        if let outage = state.withLockedValue({ $0.outage }) { return "The database cannot be reached (\(outage))." }
        do {
            try await withConnection { [logger] connection in try await connection.run("SELECT 1", logger: logger) }
            return nil
        } catch let error as TallyError {
            return error.message
        } catch {
            return "The database answered with an error: \(String(reflecting: error))."
        }
    }

    /// Runs `body` on a connection of the pool, within the deadline.
    ///
    /// Past the deadline the caller is answered and `body` is left behind, closed out by the
    /// closing of its connection: a query that PostgresNIO never completes (one written to a
    /// connection that had just closed) must not hold a request, nor a server's shutdown, forever.
    func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let client = try state.withLockedValue { state -> PostgresClient in
            if let outage = state.outage { throw Self.unreachable(outage) }
            return state.client
        }
        do {
            guard let deadline else { return try await client.withConnection(body) }
            let leased = NIOLockedValueBox<PostgresConnection?>(nil)
            let work = Task {
                try await client.withConnection { connection in
                    leased.withLockedValue { $0 = connection }
                    defer { leased.withLockedValue { $0 = nil } }
                    return try await body(connection)
                }
            }
            let answer = Answer<T>()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    answer.await(continuation)
                    let timer = Task {
                        try await Task.sleep(for: deadline)
                        // The deadline passed. Closing the connection ends what runs on it; a
                        // wait for a connection ends with the cancellation.
                        let connection = leased.withLockedValue { $0 }
                        let expired = TallyError(.busy, "The database did not answer within \(Self.seconds(deadline)), so nothing was saved; try again shortly.",
                                                 retryAfter: 2)
                        guard answer.give(.failure(expired)) else { return }
                        work.cancel()
                        let _: EventLoopFuture<Void>? = connection?.close()
                        if connection == nil { self.suspect() }
                    }
                    Task {
                        answer.give(await work.result)
                        timer.cancel() // no sleeping task per request left behind
                    }
                }
            } onCancel: {
                work.cancel()
            }
        } catch {
            // A use that waited on the pool an outage's end replaced: as if during the outage.
            if !(error is TallyError), state.withLockedValue({ $0.client !== client }) {
                throw Self.unreachable(Phrase("it was away"))
            }
            if let reason = Self.connectionFailure(error) {
                beginOutage(reason)
                throw Self.unreachable(reason)
            }
            throw error
        }
    }

    /// The first of the work's result and the deadline, given to the caller once.
    private final class Answer<T: Sendable>: Sendable {
        private let state = NIOLockedValueBox<(CheckedContinuation<T, any Error>?, Result<T, any Error>?, given: Bool)>((nil, nil, false))

        func await(_ continuation: CheckedContinuation<T, any Error>) {
            let ready = state.withLockedValue { state -> Result<T, any Error>? in
                state.0 = continuation
                return state.1
            }
            if let ready { continuation.resume(with: ready) }
        }

        /// False when an answer was given before.
        @discardableResult
        func give(_ result: Result<T, any Error>) -> Bool {
            let continuation = state.withLockedValue { state -> CheckedContinuation<T, any Error>?? in
                guard !state.given else { return nil }
                state.given = true
                state.1 = result
                defer { state.0 = nil }
                return .some(state.0)
            }
            guard let continuation else { return false }
            continuation?.resume(with: result)
            return true
        }
    }

    // MARK: Outages

    private static func unreachable(_ reason: Phrase) -> TallyError {
        TallyError(.storageUnavailable, "Tally cannot reach its database just now (\(reason)), so nothing was saved; try again in a few seconds.",
                   retryAfter: 2)
    }

    private static func seconds(_ duration: Duration) -> Phrase {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        if seconds == seconds.rounded(), let whole = Int(exactly: seconds) {
            return Phrase(one: "\(whole) second", other: "\(whole) seconds")
        }
        return Phrase("\(seconds.formatted(.number.precision(.fractionLength(0...1)))) seconds")
    }

    /// In a few words, why `error` says the database cannot be reached; nil for any other error.
    static func connectionFailure(_ error: any Error) -> Phrase? {
        // The pool's own errors (shut down, or its circuit breaker tripped): PostgresNIO exports
        // their type only from an underscored module, which Tally does not import.
        if String(reflecting: type(of: error)).hasSuffix(".ConnectionPoolError") { return Phrase("its connections were shut down") }
        guard let error = error as? PSQLError else { return nil }
        switch error.code {
        case .serverClosedConnection, .uncleanShutdown: return Phrase("it closed the connection")
        case .connectionError: return PostgresStore.reason(error)
        case .server:
            // Shutting down, starting up, or restarted after a crash; or no connection (class 08).
            guard let state = error.serverInfo?[.sqlState], state.hasPrefix("57P") || state.hasPrefix("08") else { return nil }
            return error.serverInfo?[.message].map(Phrase.verbatim) ?? Phrase("it is shutting down")
        default: return nil
        }
    }

    /// Uses fail at once from now on, until the probe reaches the database.
    private func beginOutage(_ reason: Phrase) {
        let began = state.withLockedValue { state -> Bool in
            guard !state.closed else { return false }
            let began = state.outage == nil
            state.outage = state.outage ?? reason
            if state.probe == nil { state.probe = Task { await self.probe() } }
            return began
        }
        if began { events.error("The database cannot be reached (\(reason)): requests are answered 503 until it answers again.") }
    }

    /// A wait for a connection ran out: the probe tells whether the database is away or only busy.
    private func suspect() {
        state.withLockedValue { state in
            guard !state.closed, state.probe == nil else { return }
            state.probe = Task { await self.probe() }
        }
    }

    /// Tries a connection of its own until one answers; a failure begins an outage (if none has),
    /// and the first answer after an outage brings a new pool.
    private func probe() async {
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(configuration: probeConfiguration, id: 0, logger: logger)
                do {
                    try await connection.run("SELECT 1", logger: logger)
                    try? await connection.close()
                } catch {
                    try? await connection.close()
                    throw error
                }
                let ended = state.withLockedValue { state -> Bool in
                    state.probe = nil
                    guard state.outage != nil, !state.closed else { return false }
                    state.outage = nil
                    state.running.cancel()
                    let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
                    state.client = client
                    state.running = Task { await client.run() }
                    return true
                }
                if ended { events.notice("The database answers again: requests go through.") }
                return
            } catch {
                beginOutage(Self.connectionFailure(error) ?? Phrase("it does not answer"))
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
    }
}
