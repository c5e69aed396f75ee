import Foundation
import Hummingbird
import TallyCore
import TallyServices

/// An entry's receipt from its page: shown, attached (a photo taken or chosen, or a PDF),
/// replaced and removed, with plain forms.
struct ReceiptWebController {
    let services: APIServices

    /// The most a form that carries a receipt may send: the file and a few fields.
    static let formLimit = ReceiptUpload.maximumBytes + FileUpload.maxFormSize

    func addRoutes(to web: some RouterMethods<SignedInPageContext>) {
        web.get(SitePath.entryReceipt, use: receipt)
        web.post(SitePath.entryReceipt, use: attach)
        web.post(SitePath.removeEntryReceipt, use: remove)
    }

    /// The receipt `bytes` make, refused at the form's receipt field.
    static func cleaned(_ bytes: Data, _ spending: SpendingService) async throws -> ReceiptFile {
        do {
            return try await spending.cleanedReceipt(bytes)
        } catch let error as TallyError {
            throw error.about("receipt")
        }
    }

    /// A form that may carry a receipt, `handle`d as the person's receipt upload when it may be
    /// large (no length, or more than a form without a file): its place taken before a byte of
    /// it is read (one at a time per person, a few on the server), its body watched. A refusal
    /// to take it is `refused`.
    static func receivingReceipt(_ request: Request, from user: UUID, _ services: APIServices,
                                 _ handle: @escaping @Sendable (Request) async throws -> Response,
                                 refused: (TallyError) async throws -> Response) async throws -> Response {
        guard request.headers[.contentLength].flatMap({ Int($0) }).map({ $0 > FileUpload.maxFormSize }) ?? true else {
            return try await handle(request)
        }
        return try await services.uploads.run(for: user, .receipt, receiving: request, handle, refused: refused)
    }

    /// The file (`?size=thumbnail`: its small copy), as the API serves it.
    @Sendable func receipt(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id("expense or payment"))
        let thumbnail = request.uri.queryParameters.get("size") == "thumbnail"
        let receipt = try await services.spending(for: context.user).receipt(of: id, in: ledger, thumbnail: thumbnail)
        return ReceiptController.response(receipt, thumbnail: thumbnail, of: id, ifNoneMatch: request.headers[.ifNoneMatch])
    }

    /// Attached or replaced, back to the entry's page to see it; refused, the page with the reason.
    @Sendable func attach(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let spending = services.spending(for: context.user)
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id("expense or payment"))
        return try await Self.receivingReceipt(request, from: context.user.id, services) { [self] request in
            try await Web.formAction(request, context, limit: Self.formLimit) { form in
                guard let bytes = form.file("receipt") else {
                    throw TallyError.invalid("Choose a photo or a PDF of the receipt.", field: "receipt")
                }
                _ = try await spending.keepReceipt(try await Self.cleaned(bytes, spending), of: id, in: ledger)
                return Web.redirect(SitePath.editLedgerEntry.link(ledger, id))
            } refused: { _, refusal in
                try await entryPage(request, context, ledger: ledger, id: id, refusal: refusal)
            }
        } refused: { error in
            try await entryPage(request, context, ledger: ledger, id: id, refusal: Web.Refusal(error: error.about("receipt")))
        }
    }

    @Sendable func remove(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let spending = services.spending(for: context.user)
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id("expense or payment"))
        return try await Web.formAction(request, context) { _ in
            _ = try await spending.removeReceipt(of: id, in: ledger)
            return Web.redirect(SitePath.editLedgerEntry.link(ledger, id))
        } refused: { _, refusal in
            try await entryPage(request, context, ledger: ledger, id: id, refusal: refusal)
        }
    }

    /// The entry's page with why its receipt was refused.
    private func entryPage(_ request: Request, _ context: SignedInPageContext, ledger: UUID, id: UUID,
                           refusal: Web.Refusal) async throws -> Response {
        let spending = services.spending(for: context.user)
        let (details, entry) = (try await spending.ledger(ledger), try await spending.entry(id, in: ledger))
        let page = EntryEditPage(details: details, entry: entry, known: KnownRates(), values: EntryEditPage.values(of: entry),
                                 receiptRefusal: refusal.error.said)
        return Web.html(page.render(Web.pageContext(request, context)), status: Web.status(of: refusal.error))
    }
}
