import Foundation
import HTTPTypes
import Hummingbird
import TallyCore
import TallyImport
import TallyLanguages
import TallyRepositories
import TallyServices

/// Choosing, creating and joining a ledger, and importing one (S1, S6): plain forms and
/// redirects; app.js posts the same forms in the background and swaps the page in place.
struct LedgersWebController {
    let services: APIServices

    func addRoutes(to web: some RouterMethods<SignedInPageContext>) {
        web.get(SitePath.spending, use: start)
        web.post(SitePath.spending, use: create)
        web.post(SitePath.joinLedger, use: join)
        web.post(SitePath.importLedger, use: importExport)
        web.get(SitePath.invitation, use: invitation)
    }

    // MARK: - Choosing, creating and joining a ledger

    @Sendable func start(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let ledgers = try await services.spending(for: context.user).ledgers()
        // One ledger, as for most couples: straight to it.
        if ledgers.count == 1, request.uri.queryParameters.get("all") == nil {
            return Web.redirect(SitePath.ledger.link(ledgers[0].ledger.id))
        }
        let page = SpendingStartPage(ledgers: ledgers, standings: try await standings(ledgers, of: context.user))
        return Web.html(page.render(Web.pageContext(request, context)))
    }

    /// The reader's balance in each of their ledgers, from the kept totals (a read per ledger).
    private func standings(_ ledgers: [LedgerDetails], of user: User) async throws -> [UUID: Money] {
        let spending = services.spending(for: user)
        var standings: [UUID: Money] = [:]
        for details in ledgers {
            guard let you = details.member(of: user.id)?.id else { continue }
            standings[details.ledger.id] = try await spending.summary(of: details.ledger.id).balances.balance(of: you)
        }
        return standings
    }

    @Sendable func invitation(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let spending = services.spending(for: context.user)
        let code = context.parameters.get("code") ?? ""
        let page = SpendingStartPage(ledgers: try await spending.ledgers(), code: code,
                                     invitation: .some(try await spending.invitation(code: code)))
        return Web.html(page.render(Web.pageContext(request, context)))
    }

    @Sendable func create(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await startAction(request, context) { form, spending in
            // Who is in it, asked up front: you first, then the others; "Person 1", "Person 2"
            // for names left empty.
            let names = SpendingStartPage.memberNames(you: form["you"] ?? "", others: form["others"] ?? "")
            return try await spending.createLedger(name: try form.require("name", Phrase("the ledger's name")),
                                                   currency: try form.require("currency", Phrase("the currency")).uppercased(),
                                                   memberNames: names).ledger.id
        }
    }

    /// Joins as the member the person picked on the invitation, or as someone new (S1). A code
    /// typed on the start page leads to that choice first.
    @Sendable func join(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let spending = services.spending(for: context.user)
        return try await Web.formAction(request, context) { form in
            let code = InviteCode.normalize(try form.require("code", Phrase("the invite code")))
            guard let choice = form["member"] else {
                return Web.redirect(SitePath.invitation.link(SitePath.encoded(code)))
            }
            let joined: LedgerDetails
            if choice == "new" {
                joined = try await spending.join(code: code, newName: try form.require("name", Phrase("your name, to join as someone new")))
            } else {
                guard let member = MemberID(choice) else { throw TallyError.invalid("Choose who you are in the ledger, or someone new.") }
                joined = try await spending.join(code: code, as: .id(member))
            }
            return Web.redirect(SitePath.ledger.link(joined.ledger.id))
        } refused: { form, refusal in
            let code = form["code"] ?? ""
            let page = SpendingStartPage(ledgers: try await spending.ledgers(), code: code,
                                         invitation: .some(try await spending.invitation(code: code)))
            return Web.html(page.render(Web.pageContext(request, context), error: refusal.error.said), status: Web.status(of: refusal.error))
        }
    }

    /// An IHateMoney or Splitwise export (the form's `app`) pasted (or, with JavaScript, read
    /// from a file): into a new ledger, or into the one the form names; `rates` as
    /// `USD=0.92, GBP=1.17`.
    @Sendable func importExport(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let spending = services.spending(for: context.user)
        return try await Web.formAction(request, context, limit: TallyRequestContext.maxImportSize) { form in
            let export = Data(try form.require("export", Phrase("the export's contents")).utf8)
            let app = try form["app"].map { code in
                guard let app = OtherAppExport.App(rawValue: code) else {
                    throw TallyError.invalid("Choose the app the export is from: IHateMoney or Splitwise.")
                }
                return app
            } ?? .ihatemoney
            let (target, name, currency) = (Self.importTarget(form), form["name"] ?? app.name, form["currency"])
            let rates = try ImportRates(parsing: form["rates"].map { [$0] } ?? [])
            let report = try await services.uploads.run(for: context.user.id) {
                let read = try await HealthUpload.read { try OtherAppExport(export, from: app) }
                return try await read.importInto(target, name: name, currency: currency, rates: rates, spending: spending)
            }
            return Web.redirect(SitePath.ledger.link(report.ledger) + "?imported=\(report.added)&skipped=\(report.alreadyThere)")
        } refused: { form, refusal in
            if let into = Self.importTarget(form) {
                return try await LedgerSettingsWebController(services: services).page(request, context, ledger: into, error: refusal.error)
            }
            let page = SpendingStartPage(ledgers: try await spending.ledgers())
            return Web.html(page.render(Web.pageContext(request, context), error: refusal.error.said), status: Web.status(of: refusal.error))
        }
    }

    /// The ledger an import goes into, when the form names one (else a new ledger).
    private static func importTarget(_ form: FormFields) -> UUID? {
        form["ledger"].flatMap(UUID.init(uuidString:))
    }

    /// A form of the start page that leads to a ledger: the one it made, or the start page again
    /// with the reason.
    private func startAction(_ request: Request, _ context: SignedInPageContext,
                             _ action: (FormFields, SpendingService) async throws -> UUID) async throws -> Response {
        let spending = services.spending(for: context.user)
        return try await Web.formAction(request, context) { form in
            Web.redirect(SitePath.ledger.link(try await action(form, spending)))
        } refused: { form, refusal in
            let page = SpendingStartPage(ledgers: try await spending.ledgers(), code: form["code"])
            return Web.html(page.render(Web.pageContext(request, context), error: refusal.error.said), status: Web.status(of: refusal.error))
        }
    }
}
