import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TallyCore
@testable import TallyServer
import Testing

/// Where uploads wait, and for how long (issue 54): a receipt takes a place among receipts, not
/// among the files that take minutes; its place is taken before a byte of it is read; and a body
/// that trickles in is cut off, so that nobody holds a place by sending slowly.
@Suite("Upload places and slow bodies")
struct UploadPlacesTests {
    /// A body of `chunks` pieces of `size` bytes, each after `pause`; then its end, or `failure`.
    struct SlowBody: AsyncSequence, Sendable {
        var chunks: Int
        var size = 1
        var pause: Duration
        var failure: (any Error & Sendable)?
        let pulled = Pulled()

        struct AsyncIterator: AsyncIteratorProtocol {
            let body: SlowBody
            var given = 0
            mutating func next() async throws -> ByteBuffer? {
                guard given < body.chunks else {
                    if let failure = body.failure { throw failure }
                    return nil
                }
                try await Task.sleep(for: body.pause)
                given += 1
                body.pulled.add(body.size)
                return ByteBuffer(repeating: 0x41, count: body.size)
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(body: self) }
    }

    final class Pulled: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add(_ n: Int) { lock.withLock { count += n } }
        var bytes: Int { lock.withLock { count } }
    }

    static func request(_ body: SlowBody, length: Int? = nil) -> Request {
        var head = HTTPRequest(method: .put, scheme: "http", authority: "localhost", path: "/upload")
        if let length { head.headerFields[.contentLength] = String(length) }
        return Request(head: head, body: RequestBody(asyncSequence: body))
    }

    /// Cuts off a body that brings less than 1 KiB in 300 ms.
    static let watch = SteadyBody(window: .milliseconds(300), minimum: 1024)
    /// Never cuts off what these tests send, however busy the machine is.
    static let patient = SteadyBody(window: .seconds(60), minimum: 1)

    @Test("A body that trickles in is cut off (408) long before its end; one that comes steadily is read whole")
    func tricklingIsCutOff() async throws {
        // 1 byte every 50 ms: its end would come after 50 seconds.
        let trickle = SlowBody(chunks: 1000, pause: .milliseconds(50))
        let refusal = await #expect(throws: StatusRefusal.self) {
            try await Self.watch.reading(Self.request(trickle)) { request in try await request.body.collect(upTo: 1 << 20).readableBytes }
        }
        #expect(refusal?.status == .requestTimeout && refusal?.phrase.description.contains("too slowly") == true)
        #expect(trickle.pulled.bytes < 1000, "read to its end: \(trickle.pulled.bytes) bytes")

        // 32 KiB within the first window: never checked too early.
        let steady = Self.request(SlowBody(chunks: 8, size: 4096, pause: .milliseconds(10)))
        let read = try await SteadyBody(window: .seconds(30), minimum: 1024).reading(steady) { request in
            try await request.body.collect(upTo: 1 << 20).readableBytes
        }
        #expect(read == 8 * 4096)
        // Once the body is in, the work after it may take as long as it takes: windows later.
        let slowWork = try await SteadyBody(window: .seconds(2), minimum: 1).reading(Self.request(SlowBody(chunks: 1, size: 10, pause: .zero))) { request in
            let bytes = try await request.body.collect(upTo: 100).readableBytes
            try await Task.sleep(for: .seconds(5))
            return bytes
        }
        #expect(slowWork == 10)
    }

    @Test("A body that breaks off is a 400 that says so, not a 500; a refusal of what it held stays what it was")
    func brokenOff() async throws {
        let broken = Self.request(SlowBody(chunks: 3, size: 10, pause: .zero, failure: ChannelError.eof))
        let refusal = await #expect(throws: StatusRefusal.self) {
            try await Self.patient.reading(broken) { request in try await request.body.collect(upTo: 1 << 20).readableBytes }
        }
        #expect(refusal?.status == .badRequest && refusal?.phrase.description.contains("stopped before") == true)
        await #expect(throws: ReceiptUpload.tooBig) {
            try await Self.patient.reading(Self.request(SlowBody(chunks: 3, size: 10, pause: .zero))) { _ in throw ReceiptUpload.tooBig }
        }
    }

    @Test("Receipts take places of their own: two files under way leave room for a receipt, eight receipts do not")
    func receiptsBesideFiles() throws {
        let uploads = Uploads(serverWide: 2)
        try uploads.reserve(for: UUID(), .file)
        try uploads.reserve(for: UUID(), .file)
        #expect(throws: TallyError.self) { try uploads.reserve(for: UUID(), .file) }
        let ada = UUID()
        try uploads.reserve(for: ada, .receipt)
        #expect(throws: TallyError.self) { try uploads.reserve(for: ada, .file) }
        for _ in 2...Uploads.receiptsAtOnce { try uploads.reserve(for: UUID(), .receipt) }
        let busy = try #require(throws: TallyError.self) { try uploads.reserve(for: UUID(), .receipt) }
        #expect(busy.kind == .tooManyRequests && busy.retryAfter == 5)
        uploads.release(ada)
        try uploads.reserve(for: UUID(), .receipt)
    }

    @Test("A receipt form from someone already sending one is refused before a byte of it is read")
    func refusedBeforeReading() async throws {
        let f = try await ServerFixture()
        let uploads = Uploads()
        let services = APIServices(store: f.store, clock: f.clock, accounts: f.accounts,
                                   push: PushCenter(store: f.store, contact: "mailto:tally@localhost"), uploads: uploads)
        try uploads.reserve(for: f.ada.id, .receipt)
        let body = SlowBody(chunks: 40, size: 1 << 20, pause: .zero)
        let answer = try await ReceiptWebController.receivingReceipt(Self.request(body), from: f.ada.id, services) { _ in
            Issue.record("the form was read")
            return Response(status: .ok)
        } refused: { error in
            Response(status: error.kind == .tooManyRequests ? .tooManyRequests : .internalServerError)
        }
        #expect(answer.status == .tooManyRequests)
        #expect(body.pulled.bytes == 0)
        // A small form (its length says it carries no file) takes no place: it is read at once.
        let small = try await ReceiptWebController.receivingReceipt(Self.request(SlowBody(chunks: 1, size: 10, pause: .zero), length: 10),
                                                                    from: f.ada.id, services) { _ in Response(status: .seeOther) } refused: { _ in
            Response(status: .tooManyRequests)
        }
        #expect(small.status == .seeOther)
    }
}
