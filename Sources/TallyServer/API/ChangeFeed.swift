import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle
import Synchronization
import TallyCore
import TallyAPI
import TallyRepositories

/// How an open page learns that what it shows has changed, wherever the change was made: it
/// follows a revision (see `Revision`), read from the database, so that a change made through
/// another instance counts as much as one made through this one.
///
/// A plain request gets the revision as JSON. A request that accepts `text/event-stream` (a
/// browser's EventSource) gets a stream of server-sent events: the revision at once, then again
/// each time it moves. The stream carries nothing but the number; the page then reads itself
/// as any page does, signed in, so a stream opened before its session ended shows nothing more.
///
/// A stream reads the revision again only when the store signals a commit that touched what it
/// follows (`ChangeSignals`), and at each heartbeat: an idle stream costs its socket and a read
/// every `keepAlive`, however many are open.
struct ChangeFeed: Sendable {
    /// Wakes the streams: the store's, after its commits.
    var signals = ChangeSignals()
    /// A stream ends after this and EventSource opens the next one a second later, signed in
    /// again and a member again: no stream outlives its session or membership by more.
    var lifetime: Duration = ServerConfiguration().changeStreamLifetime
    /// A comment this long after the last line keeps proxies from closing a quiet stream; the
    /// revision is read again then too, in case a wake was lost.
    var keepAlive: Duration = .seconds(20)
    /// The streams open now, per person.
    var open = OpenStreams(perPerson: ServerConfiguration().streamsPerPerson)

    static let mediaType = "text/event-stream"

    /// The answer to `request`. `revision` is read once here, where a refusal (a ledger you are
    /// not a member of) is still an error answer; a stream ends when a later read fails.
    func response(to request: Request, context: SignedInContext, following topic: ChangeTopic,
                  revision: @escaping @Sendable () async throws -> Int64) async throws -> Response {
        guard Self.wantsStream(request) else {
            return try JSONBody(Revision(try await revision())).response(from: request, context: context)
        }
        // Followed before the first read, so that no change commits unseen between the two.
        let following = signals.follow(topic)
        let first: Int64
        let slot: OpenStreams.Slot
        do {
            first = try await revision()
            // Held by the body: given back when the stream ends, or when its body is dropped unread.
            slot = try open.take(for: context.user.id)
        } catch {
            following.finish()
            throw error
        }
        return Response(status: .ok, headers: [
            .contentType: Self.mediaType,
            .cacheControl: "no-store",
            // Proxies such as nginx would otherwise hold the events back to fill a buffer.
            HTTPField.Name("X-Accel-Buffering")!: "no",
        ], body: ResponseBody { [self] writer in
            defer { withExtendedLifetime(slot) {} }
            try await stream(from: first, following: following, revision: revision) { try await writer.write(ByteBuffer(string: $0)) }
            try await writer.finish(nil)
        })
    }

    /// Writes the events until the stream's lifetime is over, the server shuts down, or a read
    /// of the revision fails. Each wake (a commit's, or the heartbeat's) reads the revision once.
    func stream(from first: Int64, following: ChangeSignals.Following, revision: @Sendable () async throws -> Int64,
                write: (String) async throws -> Void) async throws {
        defer { following.finish() }
        let heartbeat = Task { [keepAlive, lifetime] in
            let end = ContinuousClock.now.advanced(by: lifetime)
            while ContinuousClock.now < end {
                do { try await Task.sleep(for: min(keepAlive, ContinuousClock.now.duration(to: end))) } catch { break }
                following.wake()
            }
            following.finish()
        }
        defer { heartbeat.cancel() }
        // EventSource opens the next stream this many milliseconds after one ends.
        try await write("retry: 1000\n\n" + Self.event(first))
        var last = first
        var lastWritten = ContinuousClock.now
        try await withGracefulShutdownHandler {
            for await _ in following.wakes {
                guard let now = try? await revision() else { return }
                if now != last {
                    try await write(Self.event(now))
                    last = now
                    lastWritten = .now
                } else if ContinuousClock.now - lastWritten >= keepAlive / 2 {
                    // A heartbeat's wake (or a change that moved another day): at most every
                    // keepAlive and a half, a line.
                    try await write(": still here\n\n")
                    lastWritten = .now
                }
            }
        } onGracefulShutdown: {
            following.finish()
        }
    }

    static func event(_ revision: Int64) -> String {
        "data: {\"revision\":\(revision)}\n\n"
    }

    /// Only a client that names the stream gets it; `*/*` (a script, a fuzzer) gets JSON.
    static func wantsStream(_ request: Request) -> Bool {
        request.headers[values: .accept].contains { $0.lowercased().contains(mediaType) }
    }
}

/// How many streams each person holds open on this instance, and at most how many: one person's
/// tabs and devices are a handful, and each open stream costs the server a read per wake.
final class OpenStreams: Sendable {
    let perPerson: Int
    private let counts = Mutex<[UUID: Int]>([:])

    init(perPerson: Int) {
        self.perPerson = perPerson
    }

    /// A place for one more of `person`'s streams, or a refusal (429) when they hold all theirs.
    func take(for person: UUID) throws -> Slot {
        let taken = counts.withLock { counts in
            guard counts[person, default: 0] < perPerson else { return false }
            counts[person, default: 0] += 1
            return true
        }
        guard taken else {
            throw TallyError(.tooManyRequests, "You have \(perPerson) pages following changes open already: close some, or reload this one later.",
                             retryAfter: 60)
        }
        return Slot(person: person, streams: self)
    }

    func count(of person: UUID) -> Int { counts.withLock { $0[person, default: 0] } }

    fileprivate func give(back person: UUID) {
        counts.withLock { counts in
            counts[person, default: 1] -= 1
            if counts[person] == 0 { counts[person] = nil }
        }
    }

    /// One open stream's place, given back when it goes.
    final class Slot: Sendable {
        let person: UUID
        let streams: OpenStreams

        fileprivate init(person: UUID, streams: OpenStreams) {
            self.person = person
            self.streams = streams
        }

        deinit { streams.give(back: person) }
    }
}
