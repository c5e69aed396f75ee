import Foundation
import Synchronization
import TallyCore

/// What a change touched that an open page may show: one ledger, or one person's day of drinks.
public enum ChangeTopic: Hashable, Sendable {
    case ledger(UUID)
    case day(user: UUID, LocalDate)
}

/// Wakes those who follow what a change touched, once it is committed: how an open page's stream
/// learns that it should read its revision again, instead of reading it on a timer.
///
/// A store signals the topics of each transaction it commits, or `everything` when it cannot
/// tell what changed (another process wrote to the database, the link to PostgreSQL came back
/// after missing some). A wake carries nothing: the follower reads what it shows again, so that a
/// wake too many costs one read, and wakes that come faster than it reads are one wake.
public final class ChangeSignals: Sendable {
    private struct State {
        var followers: [ChangeTopic: [Int: AsyncStream<Void>.Continuation]] = [:]
        var next = 0
    }
    private let state = Mutex(State())

    public init() {}

    /// Wakes each follower of `topics` (each once, however many of its topics are named).
    public func signal(_ topics: some Sequence<ChangeTopic>) {
        let woken = state.withLock { state in
            var woken: [Int: AsyncStream<Void>.Continuation] = [:]
            for topic in topics {
                state.followers[topic]?.forEach { woken[$0.key] = $0.value }
            }
            return woken
        }
        for follower in woken.values { follower.yield() }
    }

    public func signal(_ topic: ChangeTopic) { signal(CollectionOfOne(topic)) }

    /// Wakes every follower: something changed, but what is not known.
    public func signalEverything() {
        let all = state.withLock { $0.followers.values.flatMap(\.values) }
        for follower in all { follower.yield() }
    }

    /// How many follow something now.
    public var followerCount: Int { state.withLock { $0.followers.values.reduce(0) { $0 + $1.count } } }

    /// Wakes for `topic`, from now until the sequence ends (its `finish`, or the iterating task
    /// is cancelled) or is dropped. Wakes that arrive while the follower is busy are kept as one.
    public func follow(_ topic: ChangeTopic) -> Following {
        let (wakes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            state.next += 1
            state.followers[topic, default: [:]][state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in
                state.followers[topic]?[id] = nil
                if state.followers[topic]?.isEmpty == true { state.followers[topic] = nil }
            }
        }
        return Following(wakes: wakes, continuation: continuation)
    }

    /// One follower's wakes. `wake()` adds one of its own (a heartbeat); `finish()` ends them.
    public struct Following: Sendable {
        public let wakes: AsyncStream<Void>
        let continuation: AsyncStream<Void>.Continuation

        public func wake() { continuation.yield() }
        public func finish() { continuation.finish() }
    }
}

/// A store whose commits wake those who follow what they touched.
public protocol ChangeSource: Sendable {
    /// Signalled after each commit of this process (and, while `watchChanges` runs, of others).
    var changes: ChangeSignals { get }
    /// Passes on, until cancelled, the changes that other processes make to the same data:
    /// a server runs it beside its requests.
    func watchChanges() async throws
}
