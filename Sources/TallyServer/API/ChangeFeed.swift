import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle
import Synchronization
import TallyCore
import TallyAPI

/// How an open page learns that what it shows has changed, wherever the change was made: it
/// asks for a revision (see `Revision`), read from the database, so that a change made through
/// another instance counts as much as one made through this one.
///
/// A plain request gets the revision as JSON. A request that accepts `text/event-stream` (a
/// browser's EventSource) gets a stream of server-sent events: the revision at once, then again
/// each time it moves. The stream carries nothing but the number; the page then reads itself
/// as any page does, signed in, so a stream opened before its session ended shows nothing more.
struct ChangeFeed: Sendable {
    /// How often a stream reads the revision: a change shows within this and the page's own read.
    var pollInterval: Duration = ServerConfiguration().changeCheckInterval
    /// A stream ends after this and EventSource opens the next one a second later, signed in
    /// again and a member again: no stream outlives its session or membership by more.
    var lifetime: Duration = ServerConfiguration().changeStreamLifetime
    /// A comment this long after the last line keeps proxies from closing a quiet stream.
    var keepAlive: Duration = .seconds(20)
    /// The streams open now, per person.
    var open = OpenStreams(perPerson: ServerConfiguration().streamsPerPerson)

    static let mediaType = "text/event-stream"

    /// The answer to `request`. `revision` is read once here, where a refusal (a ledger you are
    /// not a member of) is still an error answer; a stream ends when a later read fails.
    func response(to request: Request, context: SignedInContext,
                  revision: @escaping @Sendable () async throws -> Int64) async throws -> Response {
        let first = try await revision()
        guard Self.wantsStream(request) else {
            return try JSONBody(Revision(first)).response(from: request, context: context)
        }
        // Held by the body: given back when the stream ends, or when its body is dropped unread.
        let slot = try open.take(for: context.user.id)
        return Response(status: .ok, headers: [
            .contentType: Self.mediaType,
            .cacheControl: "no-store",
            // Proxies such as nginx would otherwise hold the events back to fill a buffer.
            HTTPField.Name("X-Accel-Buffering")!: "no",
        ], body: ResponseBody { [self] writer in
            defer { withExtendedLifetime(slot) {} }
            try await stream(from: first, revision: revision) { try await writer.write(ByteBuffer(string: $0)) }
            try await writer.finish(nil)
        })
    }

    /// Writes the events until the stream's lifetime is over, the server shuts down, or a read
    /// of the revision fails.
    func stream(from first: Int64, revision: @Sendable () async throws -> Int64,
                write: (String) async throws -> Void) async throws {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: lifetime)
        // EventSource opens the next stream this many milliseconds after one ends.
        try await write("retry: 1000\n\n" + Self.event(first))
        var last = first
        var lastWritten = clock.now
        while clock.now < end, !Task.isShuttingDownGracefully {
            do { try await Task.sleep(for: pollInterval) } catch { return }
            guard let now = try? await revision() else { return }
            if now != last {
                try await write(Self.event(now))
                last = now
                lastWritten = clock.now
            } else if clock.now - lastWritten >= keepAlive {
                try await write(": still here\n\n")
                lastWritten = clock.now
            }
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
/// tabs and devices are a handful, and each open stream costs the server a read every poll.
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
