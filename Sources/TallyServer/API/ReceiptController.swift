import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TallyAPI
import TallyCore
import TallyServices

/// The receipt kept with an expense or payment: attached, read back and removed.
struct ReceiptController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.on(API.attachReceipt, use: attach)
        group.on(API.receipt, use: receipt)
        group.on(API.removeReceipt, use: remove)
    }

    /// The body is the file itself; its `Content-Type` is not believed (the bytes say what it is).
    @Sendable func attach(_ request: Request, context: SignedInContext) async throws -> JSONBody<EntryJSON> {
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id(Phrase("expense or payment")))
        let spending = services.spending(context)
        let entry = try await services.uploads.run(for: context.user.id, .receipt, receiving: request) { request in
            try await spending.attachReceipt(to: id, in: ledger) { try await Self.file(in: request) }
        }
        return JSONBody(try EntryJSON(entry))
    }

    /// The photo (`size=thumbnail`: its small copy) or PDF.
    @Sendable func receipt(_ request: Request, context: SignedInContext) async throws -> Response {
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id(Phrase("expense or payment")))
        let thumbnail = try request.query("size", { $0 == "thumbnail" ? true : $0 == "full" ? false : nil },
                                          form: Phrase("thumbnail or full")) ?? false
        let receipt = try await services.spending(context).receipt(of: id, in: ledger, thumbnail: thumbnail)
        return Self.response(receipt, thumbnail: thumbnail, of: id, ifNoneMatch: request.headers[.ifNoneMatch])
    }

    @Sendable func remove(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<EntryJSON> {
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id(Phrase("expense or payment")))
        return JSONBody(try EntryJSON(try await services.spending(context).removeReceipt(of: id, in: ledger)))
    }

    /// The request's body, refused as too large from its stated length before any of it is read,
    /// or as soon as more than a receipt's most has arrived.
    static func file(in request: Request) async throws -> Data {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > ReceiptUpload.maximumBytes {
            throw ReceiptUpload.tooBig
        }
        do {
            return Data(try await request.body.collect(upTo: ReceiptUpload.maximumBytes).readableBytesView)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw ReceiptUpload.tooBig
        } catch is NIOTooManyBytesError {
            throw ReceiptUpload.tooBig
        }
    }

    /// A receipt as an answer that cannot become a page of Tally's: its own type, never sniffed,
    /// in a sandbox with no script, kept by the browser only (a new receipt changes its tag).
    /// A photo opens in the browser; a PDF is only ever downloaded, named after its entry.
    static func response(_ receipt: ReceiptFile, thumbnail: Bool, of entry: UUID, ifNoneMatch: String?) -> Response {
        let name = "receipt-\(entry.uuidString.prefix(8).lowercased())"
        let tag = "\"\(Int64(receipt.attachedAt.timeIntervalSince1970 * 1000))-\(receipt.format.fileExtension)\(thumbnail ? "-small" : "")\""
        var headers: HTTPFields = [
            .contentSecurityPolicy: "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'",
            .xContentTypeOptions: "nosniff",
            .cacheControl: "private, no-cache",
            .eTag: tag,
        ]
        if ifNoneMatch == tag { return Response(status: .notModified, headers: headers) }
        let (format, bytes) = thumbnail ? (ReceiptFormat.jpeg, receipt.thumbnail ?? Data()) : (receipt.format, receipt.bytes)
        headers[.contentType] = format.mediaType
        headers[.contentDisposition] = "\(format.isImage ? "inline" : "attachment"); filename=\"\(name).\(format.fileExtension)\""
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
