import Foundation
import HTTPTypes
import Hummingbird
import TallyCore
import TallyImport
import TallyLanguages
import TallyRepositories
import TallyServices

/// A ledger's settings, members, invite, activity and exports (S1, S5, S6).
struct LedgerSettingsWebController {
    let services: APIServices

    func addRoutes(to web: some RouterMethods<SignedInPageContext>) {
        web.get(SitePath.ledgerSettings, use: settings)
        web.post(SitePath.ledgerSettings, use: saveGeneral)
        web.get(SitePath.ledgerActivity, use: activity)
        web.post(SitePath.members, use: addMember)
        web.post(SitePath.member, use: changeMember)
        web.post(SitePath.owner, use: transferOwnership)
        web.post(SitePath.invite, use: changeInvite)
        web.get(SitePath.exportCSV, use: exportCSV)
        web.get(SitePath.exportJSON, use: exportJSON)
    }

    @Sendable func settings(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await page(request, context, notice: request.uri.queryParameters.get("saved").map { _ in t("Saved.") })
    }

    func page(_ request: Request, _ context: SignedInPageContext, ledger: UUID? = nil, notice: String? = nil,
                              error: TallyError? = nil, newInviteCode: String? = nil) async throws -> Response {
        let user = context.user
        let spending = services.spending(for: user)
        let id = try ledger ?? context.parameters.ledger
        var details = try await spending.ledger(id)
        details.newInviteCode = newInviteCode
        let page = LedgerSettingsPage(
            details: details, activity: try await spending.activity(in: id, limit: 1), user: user.id, now: services.clock.now,
            zone: try await services.hydration(for: user).settings().zone, origin: context.origin.origin)
        return Web.html(page.render(Web.pageContext(request, context), notice: notice, error: error?.said), status: Web.status(of: error))
    }

    @Sendable func activity(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let spending = services.spending(for: context.user)
        let id = try context.parameters.ledger
        let page = LedgerActivityPage(ledger: try await spending.ledger(id).ledger, activity: try await spending.activity(in: id, limit: 200),
                                      zone: try await services.hydration(for: context.user).settings().zone)
        return Web.html(page.render(Web.pageContext(request, context)))
    }

    @Sendable func saveGeneral(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await settingsAction(request, context) { form, spending, ledger in
            _ = try await spending.changeLedger(ledger, name: form["name"], currency: form["currency"])
        }
    }

    @Sendable func addMember(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await settingsAction(request, context) { form, spending, ledger in
            _ = try await spending.addMember(to: ledger, name: try form.require("name", Phrase("the new member's name")))
        }
    }

    @Sendable func changeMember(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let member = try context.parameters.member
        return try await settingsAction(request, context) { form, spending, ledger in
            if form["action"] == "remove" {
                _ = try await spending.removeMember(member, from: ledger)
            } else {
                _ = try await spending.renameMember(member, in: ledger, to: try form.require("name", Phrase("the member's name")))
            }
        }
    }

    @Sendable func transferOwnership(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await settingsAction(request, context) { form, spending, ledger in
            guard let member = form["owner"].flatMap(MemberID.init) else { throw TallyError.invalid("Choose the member who will own the ledger.") }
            _ = try await spending.transferOwnership(of: ledger, to: .id(member))
        }
    }

    /// A new invite answers with the settings page itself, not a redirect: its code is shown
    /// this once and kept nowhere (S1).
    @Sendable func changeInvite(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let spending = services.spending(for: context.user)
        return try await Web.formAction(request, context) { form in
            let ledger = try context.parameters.ledger
            if form["action"] == "revoke" {
                _ = try await spending.revokeInvite(ledger)
                return Web.redirect(Self.saved(ledger))
            }
            let terms = try LedgerInviteTerms(days: try form["days"].map { try Self.whole($0, Phrase("The number of days")) },
                                              uses: try form["uses"].map { try Self.whole($0, Phrase("The number of people")) })
            let opened = try await spending.openInvite(ledger, terms: terms)
            return try await page(request, context, ledger: ledger,
                                          notice: t("Invite opened. Send the code or the link now: it is shown only this once."),
                                          newInviteCode: opened.newInviteCode)
        } refused: { _, refusal in
            try await page(request, context, error: refusal.error)
        }
    }

    private static func whole(_ text: String, _ label: Phrase) throws -> Int {
        guard let number = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw TallyError.invalid("\(label) must be a whole number; \"\(text)\" is not.")
        }
        return number
    }

    /// A change from the ledger's settings page: saved, then the page again saying so; refused,
    /// the page with the reason.
    private func settingsAction(_ request: Request, _ context: SignedInPageContext,
                                _ action: (FormFields, SpendingService, UUID) async throws -> Void) async throws -> Response {
        try await Web.formAction(request, context) { form in
            let ledger = try context.parameters.ledger
            try await action(form, services.spending(for: context.user), ledger)
            return Web.redirect(Self.saved(ledger))
        } refused: { _, refusal in
            try await page(request, context, error: refusal.error)
        }
    }

    /// Where a saved change of a ledger's settings leads: its settings page, saying so.
    private static func saved(_ ledger: UUID) -> String {
        SitePath.ledgerSettings.link(ledger) + "?saved=1"
    }

    // MARK: - Export (S6)

    @Sendable func exportCSV(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await export(.csv, request, context)
    }

    @Sendable func exportJSON(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await export(.json, request, context)
    }

    private func export(_ format: LedgerExport.Format, _ request: Request, _ context: SignedInPageContext) async throws -> Response {
        try await TransferController.download(try context.parameters.ledger, format: format, spending: services.spending(for: context.user))
    }
}
