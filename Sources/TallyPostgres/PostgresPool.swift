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
/// - **A watch.** A connection of its own asks the database twice a second whether it answers,
///   within two seconds (the deadline, if shorter): a server's pool (one with a deadline) watches
///   from the start, and
///   /health reads what the watch last found, never waiting on the pool's connections or a
///   deadline; a command's pool watches only once a use failed. An outage shuts the pool down,
///   so that what waits on it is answered at once; the first answer after it ends the outage with
///   a new pool, whose connections start without the old one's back-off.
///
/// The pool's client and the watch run in detached tasks: begun from a request, a task would
/// inherit its task-local values, the service group's graceful shutdown among them, and SIGTERM
/// would then shut the new pool down under the requests it is meant to finish.
final class PostgresPool: Sendable {
    private struct State {
        var client: PostgresClient
        var running: Task<Void, Never>
        /// Why the database is thought unreachable; nil while it answers.
        var outage: Phrase?
        var watch: Task<Void, Never>?
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

    /// How often the watch asks.
    private static let watchInterval: Duration = .milliseconds(500)

    init(_ configuration: PostgresClient.Configuration, probe: PostgresConnection.Configuration, deadline: Duration?, logger: Logger) {
        self.configuration = configuration
        self.probeConfiguration = probe
        self.deadline = deadline
        self.logger = logger
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        state = NIOLockedValueBox(State(client: client, running: Task.detached { await client.run() }))
        if deadline != nil { startWatch(continuously: true) }
    }

    /// The pool's current client, without the deadline (tests that alter the schema use it).
    var client: PostgresClient { state.withLockedValue { $0.client } }

    /// Closes the connections; the pool cannot be used after.
    func close() {
        state.withLockedValue { state in
            state.closed = true
            state.running.cancel()
            state.watch?.cancel()
        }
    }

    /// Why the database does not answer, or nil when it does, as the watch last found: what
    /// /health reports, at once whatever the requests are waiting on.
    func unavailability() -> String? {
        state.withLockedValue { $0.outage }.map { "The database cannot be reached (\($0))." }
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
            return try await Self.within(deadline, {
                try await client.withConnection { connection in
                    leased.withLockedValue { $0 = connection }
                    defer { leased.withLockedValue { $0 = nil } }
                    return try await body(connection)
                }
            }, lost: {
                // A query written as the server ended the connection may never be answered: the
                // closing is the answer (a restart's, say), not the deadline.
                leased.withLockedValue { $0 }?.isClosed == true ? ConnectionLost() : nil
            }, expired: {
                // Closing the connection ends what runs on it; a wait for a connection ends with
                // the cancellation, and the watch tells whether the database is away or busy.
                let connection = leased.withLockedValue { $0 }
                let _: EventLoopFuture<Void>? = connection?.close()
                if connection == nil { self.startWatch(continuously: false) }
                return TallyError(.busy, "The database did not answer within \(Self.seconds(deadline)), so nothing was saved; try again shortly.",
                                  retryAfter: 2)
            })
        } catch {
            // A use that waited on a pool an outage shut down: as if during the outage.
            if !(error is TallyError), state.withLockedValue({ $0.client !== client || $0.outage != nil }) {
                throw Self.unreachable(state.withLockedValue { $0.outage } ?? Phrase("it was away"))
            }
            if let reason = Self.connectionFailure(error) {
                beginOutage(reason)
                throw Self.unreachable(reason)
            }
            throw error
        }
    }

    /// How often a use that has not ended looks whether its connection was closed under it.
    private static let lossCheck: Duration = .milliseconds(100)

    /// The result of `work`, or past `limit` the error `expired` gives (work is then cancelled
    /// and left to end by itself): the caller never waits longer than the limit. Before it, every
    /// `lossCheck`, `lost` may end the wait with an error of its own.
    private static func within<T: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async throws -> T,
                                            lost: (@Sendable () -> (any Error)?)? = nil,
                                            expired: @escaping @Sendable () -> any Error) async throws -> T {
        let task = Task { try await work() }
        let answer = Answer<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                answer.await(continuation)
                let timer = Task {
                    let clock = ContinuousClock()
                    let end = clock.now.advanced(by: limit)
                    var failure: (any Error)?
                    while failure == nil, clock.now < end {
                        try await Task.sleep(for: lost == nil ? clock.now.duration(to: end) : min(Self.lossCheck, clock.now.duration(to: end)))
                        failure = lost?()
                    }
                    guard answer.claim() else { return }
                    answer.give(.failure(failure ?? expired()))
                    task.cancel()
                }
                Task {
                    let result = await task.result
                    if answer.claim() { answer.give(result) }
                    timer.cancel() // no sleeping task per use left behind
                }
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// The first of the work's result and the deadline, given to the caller once.
    private final class Answer<T: Sendable>: Sendable {
        private let state = NIOLockedValueBox<(CheckedContinuation<T, any Error>?, Result<T, any Error>?, claimed: Bool)>((nil, nil, false))

        func await(_ continuation: CheckedContinuation<T, any Error>) {
            let ready = state.withLockedValue { state -> Result<T, any Error>? in
                state.0 = continuation
                return state.1
            }
            if let ready { continuation.resume(with: ready) }
        }

        /// True for the first caller only: the one that gives the answer.
        func claim() -> Bool {
            state.withLockedValue { state in
                defer { state.claimed = true }
                return !state.claimed
            }
        }

        func give(_ result: Result<T, any Error>) {
            let continuation = state.withLockedValue { state -> CheckedContinuation<T, any Error>? in
                state.1 = result
                defer { state.0 = nil }
                return state.0
            }
            continuation?.resume(with: result)
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

    /// The connection a use was given closed before the use ended.
    private struct ConnectionLost: Error {}

    /// In a few words, why `error` says the database cannot be reached; nil for any other error.
    static func connectionFailure(_ error: any Error) -> Phrase? {
        if error is ConnectionLost { return Phrase("it closed the connection") }
        // The pool's own errors (shut down, or its circuit breaker tripped): PostgresNIO exports
        // their type only from an underscored module, which Tally does not import.
        if String(reflecting: type(of: error)).hasSuffix(".ConnectionPoolError") { return Phrase("its connections were shut down") }
        guard let error = error as? PSQLError else { return nil }
        switch error.code {
        case .serverClosedConnection, .uncleanShutdown: return Phrase("it closed the connection")
        // The connection was being closed as the query was sent: what closed it says why (a
        // restart's "terminating connection due to administrator command").
        case .clientClosedConnection: return error.underlying.flatMap(connectionFailure) ?? Phrase("it closed the connection")
        case .connectionError: return PostgresStore.reason(error)
        case .server:
            // Shutting down, starting up, or restarted after a crash; or no connection (class 08).
            guard let state = error.serverInfo?[.sqlState], state.hasPrefix("57P") || state.hasPrefix("08") else { return nil }
            return error.serverInfo?[.message].map(Phrase.verbatim) ?? Phrase("it is shutting down")
        default: return nil
        }
    }

    /// Uses fail at once from now on, until the watch reaches the database. The pool is shut
    /// down: what waits on it for a connection is answered now, not at its deadline.
    private func beginOutage(_ reason: Phrase) {
        let began = state.withLockedValue { state -> Bool in
            guard !state.closed, state.outage == nil else { return false }
            state.outage = reason
            state.running.cancel()
            return true
        }
        guard began else { return }
        startWatch(continuously: false)
        events.error("The database cannot be reached (\(reason)): requests are answered 503 until it answers again.")
    }

    /// Starts the watch unless it runs. `continuously`: for as long as the pool is open (a
    /// server's); else until the database answers and no outage is left.
    private func startWatch(continuously: Bool) {
        state.withLockedValue { state in
            guard !state.closed, state.watch == nil else { return }
            state.watch = Task.detached { await self.watch(continuously: continuously) }
        }
    }

    /// Asks the database on a connection of its own, kept open, every `watchInterval`: a failure
    /// or no answer within the deadline begins an outage (if none has), and the first answer
    /// after an outage brings a new pool.
    private func watch(continuously: Bool) async {
        // A database that takes seconds to answer SELECT 1 serves nobody: an outage.
        let limit = min(deadline ?? .seconds(2), .seconds(2))
        var connection: PostgresConnection?
        while !Task.isCancelled {
            do {
                // A query sent on a connection the server has just ended may never be answered.
                if connection?.isClosed == true { connection = nil }
                if connection == nil {
                    connection = try await PostgresConnection.connect(configuration: probeConfiguration, id: 0, logger: logger)
                }
                let asked = connection!
                try await Self.within(limit, { [logger] in try await asked.run("SELECT 1", logger: logger) },
                                      lost: { asked.isClosed ? ConnectionLost() : nil }, expired: {
                    let _: EventLoopFuture<Void> = asked.close()
                    return NoAnswer()
                })
                answered()
                if !continuously, calm() { break }
            } catch {
                try? await connection?.close()
                connection = nil
                beginOutage(Self.connectionFailure(error) ?? Phrase("it does not answer"))
            }
            try? await Task.sleep(for: Self.watchInterval)
        }
        try? await connection?.close()
    }

    /// The watch's question went unanswered within its limit: "it does not answer".
    private struct NoAnswer: Error {}

    /// The database answered: an outage ends with a new pool.
    private func answered() {
        let ended = state.withLockedValue { state -> Bool in
            guard state.outage != nil, !state.closed else { return false }
            state.outage = nil
            state.running.cancel()
            let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
            state.client = client
            state.running = Task.detached { await client.run() }
            return true
        }
        if ended { events.notice("The database answers again: requests go through.") }
    }

    /// True when no outage is left, the watch then taken off (a command's watch stops there).
    private func calm() -> Bool {
        state.withLockedValue { state in
            guard state.outage == nil else { return false }
            state.watch = nil
            return true
        }
    }
}
