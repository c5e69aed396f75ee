import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyImport
import TallyRepositories
import TallyServices

/// A ledger's export, and IHateMoney's and Splitwise's exports brought in (S6).
struct TransferController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.on(API.exportLedger, use: export)
        group.on(API.importIHateMoney) { try await importExport($0, $1, from: .ihatemoney) }
        group.on(API.importSplitwise) { try await importExport($0, $1, from: .splitwise) }
    }

    /// `format=csv` (the default) or `format=json`.
    @Sendable func export(_ request: Request, context: SignedInContext) async throws -> Response {
        let spending = services.spending(context)
        let ledger = try context.parameters.ledger
        let format = try request.query("format", { LedgerExport.Format(rawValue: $0.lowercased()) }, form: Phrase("csv or json")) ?? .csv
        return try await Self.download(ledger, format: format, spending: spending)
    }

    /// The export as a file to save: its name from the ledger's.
    static func download(_ ledger: UUID, format: LedgerExport.Format, spending: SpendingService) async throws -> Response {
        let name = try await spending.ledger(ledger).ledger.name
        let data = try await LedgerExport.data(of: ledger, format: format, spending: spending)
        let file = name.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) && $0.isASCII ? String($0) : "-" }.joined()
        return Response(status: .ok, headers: [
            .contentType: format == .csv ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
            .contentDisposition: "attachment; filename=\"\(file).\(format.rawValue)\"",
            .cacheControl: "no-store",
        ], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The body is the export file itself (IHateMoney's JSON or CSV, Splitwise's CSV); `ledger`
    /// adds to one of your ledgers, otherwise a new ledger called `name` is created; `currency`
    /// chooses the ledger's currency; each `rate` (`USD=0.92`) converts the entries in a currency.
    @Sendable func importExport(_ request: Request, _ context: SignedInContext,
                                from app: OtherAppExport.App) async throws -> JSONBody<IHateMoneyImportReport> {
        let spending = services.spending(context)
        let ledger = try request.query("ledger", { UUID(uuidString: $0) }, form: Phrase("a ledger's id"))
        let query = request.uri.queryParameters
        let rates = try ImportRates(parsing: query[values: "rate"].map(String.init))
        let report = try await services.uploads.run(for: context.user.id, receiving: request) { request in
            let body = try await request.collectBody(upTo: TallyRequestContext.maxImportSize)
            let export = try await HealthUpload.read { try OtherAppExport(Data(body.readableBytesView), from: app) }
            return try await export.importInto(ledger, name: query.get("name").map { String($0) } ?? app.name,
                                               currency: query.get("currency").map { String($0) }, rates: rates, spending: spending)
        }
        return JSONBody(report, status: report.added > 0 ? .created : .ok)
    }
}
