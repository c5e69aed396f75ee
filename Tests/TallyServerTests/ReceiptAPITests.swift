import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TallyCore
@testable import TallyServer
import Testing

/// Receipts through the API: a photo's metadata (its GPS position above all) never kept, a file
/// that only claims to be a photo refused, a huge upload refused before it is read, other
/// people's receipts not found, and the headers that keep a receipt from becoming a page.
@Suite("Receipts API")
struct ReceiptAPITests {
    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/Receipts/\(name)", withExtension: nil))
        return try Data(contentsOf: url)
    }

    /// A ledger of ada's with one expense; returns their ids.
    static func expense(_ client: some TestClientProtocol, _ f: ServerFixture) async throws -> (ledger: String, entry: String) {
        let ledger = try await client.send(.post, "/api/v1/ledgers", token: f.adaToken, json: #"{"name": "Home", "currency": "EUR"}"#).json()
        let ledgerID = try #require(ledger["id"] as? String)
        let entry = try await client.send(.post, "/api/v1/ledgers/\(ledgerID)/expenses", token: f.adaToken,
                                          json: #"{"amount": "42.80", "description": "Groceries"}"#).json()
        return (ledgerID, try #require(entry["id"] as? String))
    }

    @Test("A phone photo's EXIF (GPS, camera) is gone from what is kept and served; it is upright and at most 2000 px long")
    func photoCleaned() async throws {
        let f = try await ServerFixture()
        let photo = try Self.fixture("gps.jpg")
        // The fixture carries what must go: a camera and a GPS position, turned a quarter.
        #expect(photo.range(of: Data("TallyCam".utf8)) != nil && photo.range(of: Data("Secret Model".utf8)) != nil)
        try await f.test { client in
            let (ledger, entry) = try await Self.expense(client, f)
            let path = "/api/v1/ledgers/\(ledger)/entries/\(entry)/receipt"
            // act
            let attached = try await client.upload(.put, path, token: f.adaToken, body: photo, type: "image/jpeg")
            // check: the answer is the entry, which says it has a receipt
            #expect(attached.status == .ok, "\(attached)")
            #expect(try attached.json()["receipt"] as? String == "image/jpeg")
            let listed = try await client.send(.get, "/api/v1/ledgers/\(ledger)/entries", token: f.adaToken).json()
            #expect((listed["items"] as? [[String: Any]])?.first?["receipt"] as? String == "image/jpeg")

            // check: the stored bytes hold no metadata
            let stored = try #require(try await f.store.receipt(of: UUID(uuidString: entry)!, in: UUID(uuidString: ledger)!,
                                                                of: f.ada.id, thumbnail: false))
            for kept in [stored.bytes, stored.thumbnail ?? Data()] {
                #expect(JPEG.segments(kept).allSatisfy { !(0xE1...0xEF).contains($0) }, "an APPn segment (EXIF, XMP) was kept")
                #expect(kept.range(of: Data("TallyCam".utf8)) == nil && kept.range(of: Data("Secret Model".utf8)) == nil)
                #expect(kept.range(of: Data("Exif".utf8)) == nil)
            }
            // check: turned upright (2400×1600 with orientation 6) and scaled down
            let size = try #require(JPEG.size(stored.bytes))
            #expect(size.width == 1333 && size.height == 2000, "\(size)")
            let thumbnail = try #require(stored.thumbnail)
            #expect(JPEG.size(thumbnail)?.height == 320)

            // check: served as it is stored, with the headers that keep it from becoming a page
            let served = try await client.send(.get, path, token: f.adaToken)
            #expect(served.status == .ok && served.body == stored.bytes)
            #expect(served.headers[.contentType] == "image/jpeg")
            #expect(served.headers[.xContentTypeOptions] == "nosniff")
            #expect(served.headers[.contentSecurityPolicy].map { $0.hasPrefix("sandbox") && $0.contains("frame-ancestors 'none'") } == true)
            #expect(served.headers[.cacheControl]?.hasPrefix("private") == true)
            #expect(served.headers[.contentDisposition]?.hasPrefix("inline;") == true)
            let small = try await client.send(.get, path + "?size=thumbnail", token: f.adaToken)
            #expect(small.status == .ok && small.body == stored.thumbnail && small.headers[.contentType] == "image/jpeg")
            // A browser that has it already is told so.
            let again = try await client.send(.get, path, token: f.adaToken,
                                              headers: [.ifNoneMatch: try #require(served.headers[.eTag])])
            #expect(again.status == .notModified && again.body.isEmpty)
        }
    }

    @Test("PNG stays PNG without its text and EXIF chunks; WebP and HEIC become JPEG; a PDF is kept as it came and only downloaded")
    func everyFormat() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let (ledger, entry) = try await Self.expense(client, f)
            let path = "/api/v1/ledgers/\(ledger)/entries/\(entry)/receipt"
            for (file, kept) in [("note.png", "image/png"), ("photo.webp", "image/jpeg"), ("photo.heic", "image/jpeg")] {
                // The Content-Type sent is not what decides.
                let attached = try await client.upload(.put, path, token: f.adaToken, body: try Self.fixture(file), type: "application/octet-stream")
                #expect(attached.status == .ok, "\(file): \(attached)")
                let served = try await client.send(.get, path, token: f.adaToken)
                #expect(served.headers[.contentType] == kept, "\(file)")
                #expect(served.body.range(of: Data("Secret".utf8)) == nil && served.body.range(of: Data("eXIf".utf8)) == nil
                        && served.body.range(of: Data("Exif".utf8)) == nil, "\(file) kept metadata")
            }
            let pdf = Data("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".utf8)
            #expect(try await client.upload(.put, path, token: f.adaToken, body: pdf, type: "application/pdf").status == .ok)
            let served = try await client.send(.get, path, token: f.adaToken)
            #expect(served.body == pdf && served.headers[.contentType] == "application/pdf")
            #expect(served.headers[.contentDisposition]?.hasPrefix("attachment;") == true)
            #expect(served.headers[.contentSecurityPolicy]?.hasPrefix("sandbox") == true)
            // A PDF has no small copy.
            try await client.send(.get, path + "?size=thumbnail", token: f.adaToken).problem(.notFound)
        }
    }

    @Test("HTML or SVG sent as a JPEG is refused (415), and the receipt before stays; an empty or damaged photo is refused too")
    func disguisedRefused() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let (ledger, entry) = try await Self.expense(client, f)
            let path = "/api/v1/ledgers/\(ledger)/entries/\(entry)/receipt"
            let photo = try Self.fixture("gps.jpg")
            #expect(try await client.upload(.put, path, token: f.adaToken, body: photo, type: "image/jpeg").status == .ok)
            let before = try await client.send(.get, path, token: f.adaToken).body
            let disguised = [
                "<html><script>alert(document.cookie)</script></html>",
                #"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>"#,
                "GIF89a not a receipt",
            ]
            for body in disguised {
                let refused = try await client.upload(.put, path, token: f.adaToken, body: Data(body.utf8), type: "image/jpeg")
                #expect(try refused.problem(.unsupportedMediaType).contains("JPEG, PNG, WebP or HEIC"))
            }
            // A JPEG's first bytes and then nothing a decoder can read.
            let damaged = try await client.upload(.put, path, token: f.adaToken, body: Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 7, count: 100), type: "image/jpeg")
            #expect(try damaged.problem(.badRequest).contains("could not be read"))
            // A real photo cut in half: its decoder runs out of bytes, and it is no receipt.
            let whole = try Self.fixture("gps.jpg")
            let half = try await client.upload(.put, path, token: f.adaToken, body: whole.prefix(whole.count / 2), type: "image/jpeg")
            #expect(try half.problem(.badRequest).contains("cut short"))
            // An AVIF that names the general HEIF brand first is no HEIC.
            let avif = Data([0, 0, 0, 0x1C] + Array("ftypmif1".utf8) + [0, 0, 0, 0] + Array("mif1avifmiaf".utf8) + [UInt8](repeating: 0, count: 64))
            try await client.upload(.put, path, token: f.adaToken, body: avif, type: "image/heic").problem(.unsupportedMediaType)
            try await client.upload(.put, path, token: f.adaToken, body: Data(), type: "image/jpeg").problem(.badRequest)
            // check: the receipt before is the one kept
            #expect(try await client.send(.get, path, token: f.adaToken).body == before)
        }
    }

    @Test("A 40 MB upload is refused (413) from its stated length, and without a length as soon as 10 MB have arrived")
    func hugeRefused() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let (ledger, entry) = try await Self.expense(client, f)
            let path = "/api/v1/ledgers/\(ledger)/entries/\(entry)/receipt"
            let huge = Data([0xFF, 0xD8, 0xFF]) + Data(repeating: 0, count: 40 << 20)
            let refused = try await client.upload(.put, path, token: f.adaToken, body: huge, type: "image/jpeg")
            #expect(try refused.problem(.contentTooLarge).contains("10 MB"))
            #expect(try await client.send(.get, path, token: f.adaToken).status == .notFound)
        }
        // Without a stated length: the body stops being read once it passed the most a receipt may be.
        let chunks = CountedChunks(count: 40, size: 1 << 20)
        let request = Request(head: HTTPRequest(method: .put, scheme: "http", authority: "localhost", path: "/receipt"),
                              body: RequestBody(asyncSequence: chunks))
        await #expect(throws: ReceiptUpload.tooBig) { try await ReceiptController.file(in: request) }
        #expect(chunks.pulled.bytes <= 11 << 20, "read \(chunks.pulled.bytes) bytes of a 40 MB upload")
    }

    @Test("Someone who is not a member gets 404 for another ledger's receipt, to attach, read or remove; a member may")
    func strangerNotFound() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let (ledger, entry) = try await Self.expense(client, f)
            let path = "/api/v1/ledgers/\(ledger)/entries/\(entry)/receipt"
            let photo = try Self.fixture("gps.jpg")
            #expect(try await client.upload(.put, path, token: f.adaToken, body: photo, type: "image/jpeg").status == .ok)
            try await client.upload(.put, path, token: f.bobToken, body: photo, type: "image/jpeg").problem(.notFound)
            try await client.send(.get, path, token: f.bobToken).problem(.notFound)
            try await client.send(.get, path + "?size=thumbnail", token: f.bobToken).problem(.notFound)
            try await client.send(.delete, path, token: f.bobToken).problem(.notFound)
            try await client.send(.get, path, token: nil).problem(.unauthorized)
            // An entry id of another ledger of the member's own is not found in this one.
            let other = try await client.send(.post, "/api/v1/ledgers", token: f.adaToken, json: #"{"name": "Trip", "currency": "EUR"}"#).json()
            let otherPath = "/api/v1/ledgers/\(try #require(other["id"] as? String))/entries/\(entry)/receipt"
            try await client.send(.get, otherPath, token: f.adaToken).problem(.notFound)
            #expect(try await client.send(.get, path, token: f.adaToken).status == .ok)
        }
    }

    @Test("Deleting the expense keeps its receipt, restoring brings it back; removing it is logged with who did it")
    func deleteRestoreRemove() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let (ledger, entry) = try await Self.expense(client, f)
            let entryPath = "/api/v1/ledgers/\(ledger)/entries/\(entry)"
            let path = entryPath + "/receipt"
            #expect(try await client.upload(.put, path, token: f.adaToken, body: try Self.fixture("gps.jpg"), type: "image/jpeg").status == .ok)
            let deleted = try await client.send(.delete, entryPath, token: f.adaToken).json()
            #expect(deleted["receipt"] as? String == "image/jpeg")
            #expect(try await client.send(.get, path, token: f.adaToken).status == .ok)
            // A deleted entry's receipt is not changed.
            #expect(try await client.send(.delete, path, token: f.adaToken).problem(.conflict).contains("restore"))
            let restored = try await client.send(.post, entryPath + "/restore", token: f.adaToken).json()
            #expect(restored["receipt"] as? String == "image/jpeg")
            // An edit leaves it as it is.
            let edited = try await client.send(.patch, entryPath, token: f.adaToken, json: #"{"amount": "40.00"}"#).json()
            #expect(edited["receipt"] as? String == "image/jpeg")

            let removed = try await client.send(.delete, path, token: f.adaToken)
            let answer = try removed.json()
            #expect(removed.status == .ok && answer["receipt"] is NSNull, "\(removed)")
            try await client.send(.get, path, token: f.adaToken).problem(.notFound)
            try await client.send(.delete, path, token: f.adaToken).problem(.notFound)
            let activity = try await client.send(.get, "/api/v1/ledgers/\(ledger)/activity", token: f.adaToken).json()
            let lines = (activity["items"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
            #expect(lines.first?.hasPrefix("Removed the receipt of Groceries (40.00 EUR)") == true, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("Attached a receipt to Groceries (42.80 EUR)") }, "\(lines)")
            #expect((activity["items"] as? [[String: Any]])?.first?["actor"] as? String == "ada")
        }
    }
}

/// `count` chunks of `size` bytes, counting those that were asked for.
private struct CountedChunks: AsyncSequence, Sendable {
    let count: Int
    let size: Int
    let pulled = Pulled()

    struct AsyncIterator: AsyncIteratorProtocol {
        let chunks: CountedChunks
        var given = 0
        mutating func next() async -> ByteBuffer? {
            guard given < chunks.count else { return nil }
            given += 1
            chunks.pulled.add(chunks.size)
            return ByteBuffer(repeating: 0, count: chunks.size)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: self) }
}

/// What a stream has handed out.
private final class Pulled: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add(_ n: Int) { lock.withLock { count += n } }
    var bytes: Int { lock.withLock { count } }
}

/// Reads a JPEG's markers, to check what a kept photo holds without a decoder.
enum JPEG {
    /// The markers of the segments before the image data (0xE1 is EXIF's APP1).
    static func segments(_ data: Data) -> [UInt8] {
        let bytes = [UInt8](data)
        var markers: [UInt8] = []
        var at = 2
        while at + 4 <= bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1]
            markers.append(marker)
            if marker == 0xDA { break }
            at += 2 + Int(bytes[at + 2]) << 8 + Int(bytes[at + 3])
        }
        return markers
    }

    static func size(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data)
        var at = 2
        while at + 9 <= bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1]
            if (0xC0...0xC2).contains(marker) {
                return (Int(bytes[at + 7]) << 8 + Int(bytes[at + 8]), Int(bytes[at + 5]) << 8 + Int(bytes[at + 6]))
            }
            at += 2 + Int(bytes[at + 2]) << 8 + Int(bytes[at + 3])
        }
        return nil
    }
}

extension TestClientProtocol {
    /// Sends `body` as a file of type `type`, with its length.
    func upload(_ method: HTTPRequest.Method, _ uri: String, token: String, body: Data, type: String) async throws -> Answer {
        let headers: HTTPFields = [.authorization: "Bearer \(token)", .contentType: type, .contentLength: String(body.count)]
        return try await execute(uri: uri, method: method, headers: headers, body: ByteBuffer(bytes: body)) { response in
            Answer(status: response.status, headers: response.headers, body: Data(buffer: response.body))
        }
    }
}
