import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import TallyCore

/// An upload's body that must keep coming: one that brings fewer than `minimum` bytes in any
/// `window` before its end is cut off (408), so that nobody holds an upload's place by sending
/// a byte a minute (never idle, so the idle timeout never comes). A body that stops because its
/// sender went away is a 400, not a failure of the server's.
struct SteadyBody: Sendable {
    var window: Duration = .seconds(20)
    var minimum = 16 << 10

    static let tooSlow = StatusRefusal(.requestTimeout, Phrase("The upload came in too slowly, so it was stopped; send it again on a better connection."))
    static let cutShort = StatusRefusal(.badRequest, Phrase("The upload stopped before all of it had arrived; send it again."))

    /// What `read` makes of `request`, whose body it reads as it comes, watched.
    func reading<T: Sendable>(_ request: Request, _ read: @escaping @Sendable (Request) async throws -> T) async throws -> T {
        let progress = Progress()
        var watched = request
        watched.body = RequestBody(asyncSequence: Counted(base: request.body, progress: progress))
        let request = watched
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                do {
                    return try await read(request)
                } catch let error where !progress.ended && Self.isCutShort(error) {
                    throw Self.cutShort
                }
            }
            group.addTask { [window, minimum] in
                var seen = 0
                while true {
                    try await Task.sleep(for: window)
                    let (bytes, ended) = progress.state
                    if ended { return nil }
                    if bytes - seen < minimum { throw Self.tooSlow }
                    seen = bytes
                }
            }
            while let answer = try await group.next() {
                guard let answer else { continue }
                group.cancelAll()
                return answer
            }
            throw CancellationError()
        }
    }

    /// Whether `error` is the body breaking off, rather than a refusal of what it held.
    private static func isCutShort(_ error: any Error) -> Bool {
        !(error is TallyError || error is StatusRefusal || error is NIOTooManyBytesError || error is DecodingError || error is HTTPError)
    }

    /// How much of the body has come, and whether all of it has.
    final class Progress: Sendable {
        private let counts = NIOLockedValueBox((bytes: 0, ended: false))
        var state: (bytes: Int, ended: Bool) { counts.withLockedValue { $0 } }
        var ended: Bool { state.ended }
        func add(_ bytes: Int) { counts.withLockedValue { $0.bytes += bytes } }
        func end() { counts.withLockedValue { $0.ended = true } }
    }

    /// The body, counted as it is read.
    struct Counted: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let base: RequestBody
        let progress: Progress

        func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), progress: progress) }

        struct Iterator: AsyncIteratorProtocol {
            var base: RequestBody.AsyncIterator
            let progress: Progress

            mutating func next() async throws -> ByteBuffer? {
                guard let buffer = try await base.next() else {
                    progress.end()
                    return nil
                }
                progress.add(buffer.readableBytes)
                return buffer
            }
        }
    }
}
