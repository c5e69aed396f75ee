import Foundation
import HTTPTypes
import Hummingbird
import TallyCore
import TallyImport
import TallyStore

/// The spending pages (S1–S6): plain forms and redirects; app.js posts the same forms in the
/// background and swaps the page in place.
struct SpendingWebController {
    let services: APIServices

    func addRoutes(to router: Router<TallyRequestContext>) {
        let web = router.group()
            .add(middleware: AuthenticationMiddleware(accounts: services.accounts))
            .add(middleware: CSRFCookieMiddleware())
        web.get("spending", use: start)
        web.post("spending", use: create)
        web.post("spending/join", use: join)
        web.post("spending/import", use: importIHateMoney)
        web.get("join/:code", use: invitation)
        web.get("spending/:ledger", use: ledger)
        web.post("spending/:ledger/expenses", use: addExpense)
        web.post("spending/:ledger/payments", use: recordPayment)
        web.post("spending/:ledger/entries/:id/delete", use: delete)
        web.post("spending/:ledger/entries/:id/restore", use: restore)
        web.get("spending/:ledger/settings", use: settings)
        web.post("spending/:ledger/settings", use: saveGeneral)
        web.post("spending/:ledger/members", use: addMember)
        web.post("spending/:ledger/members/:member", use: changeMember)
        web.post("spending/:ledger/owner", use: transferOwnership)
        web.post("spending/:ledger/invite", use: changeInvite)
        web.get("spending/:ledger/export.csv", use: exportCSV)
        web.get("spending/:ledger/export.json", use: exportJSON)
    }

    // MARK: - Choosing, creating and joining a ledger

    @Sendable func start(_ request: Request, context: TallyRequestContext) async throws -> Response {
        guard let user = context.user else { return Self.signIn }
        let ledgers = try await services.spending(for: user).ledgers()
        // One ledger, as for most couples: straight to it.
        if ledgers.count == 1, request.uri.queryParameters.get("all") == nil {
            return Response.redirect(to: "/spending/\(ledgers[0].ledger.id)", type: .normal)
        }
        return Web.html(SpendingStartPage(ledgers: ledgers).render(Web.pageContext(request, context)))
    }

    @Sendable func invitation(_ request: Request, context: TallyRequestContext) async throws -> Response {
        guard let user = context.user else { return Self.signIn }
        let spending = services.spending(for: user)
        let code = context.parameters.get("code") ?? ""
        let page = SpendingStartPage(ledgers: try await spending.ledgers(), code: code,
                                     invitation: .some(try await spending.invitation(code: code)))
        return Web.html(page.render(Web.pageContext(request, context)))
    }

    @Sendable func create(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await startAction(request, context) { form, spending in
            try await spending.createLedger(name: try form.require("name", "the ledger's name"),
                                            currency: try form.require("currency", "the currency")).ledger.id
        }
    }

    /// Joins as the member the person picked on the invitation, or as someone new (S1). A code
    /// typed on the start page leads to that choice first.
    @Sendable func join(_ request: Request, context: TallyRequestContext) async throws -> Response {
        guard let user = context.user else { return Self.signIn }
        let form = try await Web.checkedForm(request, context)
        let spending = services.spending(for: user)
        do {
            let code = InviteCode.normalize(try form.require("code", "the invite code"))
            guard let choice = form["member"] else {
                let path = code.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(["-"])) ?? ""
                return Response.redirect(to: "/join/\(path)", type: .normal)
            }
            let joined: LedgerDetails
            if choice == "new" {
                joined = try await spending.join(code: code, newName: try form.require("name", "your name, to join as someone new"))
            } else {
                guard let member = MemberID(choice) else { throw TallyError.invalid("Choose who you are in the ledger, or someone new.") }
                joined = try await spending.join(code: code, as: .id(member))
            }
            return Response.redirect(to: "/spending/\(joined.ledger.id)", type: .normal)
        } catch let error as TallyError {
            let code = form["code"] ?? ""
            let page = SpendingStartPage(ledgers: try await spending.ledgers(), code: code,
                                         invitation: .some(try await spending.invitation(code: code)))
            return Web.html(page.render(Web.pageContext(request, context), error: error.message), status: Web.status(of: error))
        }
    }

    /// An IHateMoney export pasted (or, with JavaScript, read from a file): into a new ledger,
    /// or into the one the form names.
    @Sendable func importIHateMoney(_ request: Request, context: TallyRequestContext) async throws -> Response {
        guard let user = context.user else { return Self.signIn }
        let form = try await Web.checkedForm(request, context, limit: TallyRequestContext.maxImportSize)
        let spending = services.spending(for: user)
        let into = form["ledger"].flatMap(UUID.init(uuidString:))
        do {
            let bills = try IHateMoneyExport.bills(from: Data(try form.require("export", "the export's contents").utf8))
            let report = try await IHateMoneyImporter(spending: spending).importBills(
                bills, into: into, name: form["name"] ?? "IHateMoney", currency: form["currency"])
            return Response.redirect(to: "/spending/\(report.ledger)?imported=\(report.added)&skipped=\(report.alreadyThere)", type: .normal)
        } catch let error as TallyError {
            if let into { return try await settingsPage(request, context, ledger: into, error: error) }
            let page = SpendingStartPage(ledgers: try await spending.ledgers())
            return Web.html(page.render(Web.pageContext(request, context), error: error.message), status: Web.status(of: error))
        }
    }

    private func startAction(_ request: Request, _ context: TallyRequestContext,
                             _ action: (FormFields, SpendingService) async throws -> UUID) async throws -> Response {
        guard let user = context.user else { return Self.signIn }
        let form = try await Web.checkedForm(request, context)
        let spending = services.spending(for: user)
        do {
            return Response.redirect(to: "/spending/\(try await action(form, spending))", type: .normal)
        } catch let error as TallyError {
            let page = SpendingStartPage(ledgers: try await spending.ledgers(), code: form["code"])
            return Web.html(page.render(Web.pageContext(request, context), error: error.message), status: Web.status(of: error))
        }
    }

    // MARK: - A ledger

    @Sendable func ledger(_ request: Request, context: TallyRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let deleted = query.get("deleted").flatMap(UUID.init(uuidString:))
        let notice = query.get("imported").flatMap { Int($0) }.map { added in
            let skipped = query.get("skipped").flatMap { Int($0) } ?? 0
            return "Imported \(added) bill\(added == 1 ? "" : "s")" + (skipped > 0 ? "; \(skipped) were already here." : ".")
        }
        return try await ledgerPage(request, context, justDeleted: deleted, notice: notice)
    }

    private func ledgerPage(_ request: Request, _ context: TallyRequestContext, justDeleted: UUID? = nil, notice: String? = nil,
                            error: TallyError? = nil, retry: FormFields? = nil, field: String? = nil) async throws -> Response {
        guard let user = context.user else { return Self.signIn }
        let spending = services.spending(for: user)
        let id = try context.parameters.ledger
        // "Show more" asks for the page after the last entry shown.
        let after = request.uri.queryParameters.get("after").flatMap(UUID.init(uuidString:))
        let (summary, overview) = try await spending.overview(of: id, limit: LedgerPage.pageSize, after: after)
        let zone = try await services.hydration(for: user).settings().zone
        let page = LedgerPage(
            summary: summary, overview: overview, after: after,
            today: LocalDate(containing: services.clock.now, in: zone), user: user.id,
            justDeleted: justDeleted.flatMap { id in overview.deleted.first { $0.id == id } },
            retry: retry?.all ?? [:], refusedField: field)
        return Web.html(page.render(Web.pageContext(request, context), notice: notice, error: error?.message), status: Web.status(of: error))
    }

    @Sendable func addExpense(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await ledgerAction(request, context, keepsInput: true) { form, spending, ledger in
            let details = try await spending.ledger(ledger)
            // Checked here first so that the page can show the refusal at the field it is about.
            try Web.FieldRefusal.at("amount") {
                _ = try TransactionAmount.parse(try form.require("amount", "the amount"), currency: details.ledger.currency, what: "An expense")
            }
            try Web.FieldRefusal.at("description") { _ = try LedgerRules.validateDescription(form["description"]) }
            let among = details.members.filter { form["among-\($0.id)"] != nil }
            guard !among.isEmpty else {
                throw Web.FieldRefusal(field: "among", error: .invalid("Tick at least one member to share the expense."))
            }
            let split = among.count == details.members.count
                ? SpendingService.SplitInput()
                : .init(method: .equal, parts: among.map { .init(member: .id($0.id)) })
            _ = try await spending.addExpense(to: ledger, .init(
                amount: .text(try form.require("amount", "the amount")),
                payer: form["payer"].flatMap(MemberID.init).map { .id($0) },
                date: try Web.FieldRefusal.at("date") {
                    try form["date"].map { text in
                        guard let date = LocalDate(text) else { throw TallyError.invalid("\"\(text)\" is not a date such as \(LocalDate.example).") }
                        return date
                    }
                },
                description: form["description"], category: form["category"], split: split,
                // The form's id, new on every page: a second tap (or a resent form) adds nothing twice.
                id: form["id"].flatMap(UUID.init(uuidString:))))
        }
    }

    @Sendable func recordPayment(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await ledgerAction(request, context) { form, spending, ledger in
            guard let from = form["from"].flatMap(MemberID.init), let to = form["to"].flatMap(MemberID.init) else {
                throw TallyError.invalid("Choose who paid and who received the payment.")
            }
            _ = try await spending.recordPayment(in: ledger, from: .id(from), to: .id(to), amount: .text(try form.require("amount", "the amount")),
                                                 id: form["id"].flatMap(UUID.init(uuidString:)))
        }
    }

    @Sendable func delete(_ request: Request, context: TallyRequestContext) async throws -> Response {
        guard let user = context.user else { return Self.signIn }
        let form = try await Web.checkedForm(request, context)
        let spending = services.spending(for: user)
        let ledger = try context.parameters.ledger
        let id = try context.parameters.id("expense or payment")
        guard form["confirm"] == "yes" else {
            let details = try await spending.ledger(ledger)
            let entry = try await spending.entry(id, in: ledger)
            return Web.html(LedgerPage.confirmDelete(Web.pageContext(request, context), ledger: details, entry: entry))
        }
        do {
            _ = try await spending.deleteEntry(id, in: ledger)
        } catch let error as TallyError {
            return try await ledgerPage(request, context, error: error)
        }
        return Response.redirect(to: "/spending/\(ledger)?deleted=\(id)", type: .normal)
    }

    @Sendable func restore(_ request: Request, context: TallyRequestContext) async throws -> Response {
        let id = try context.parameters.id("expense or payment")
        return try await ledgerAction(request, context) { _, spending, ledger in
            _ = try await spending.restoreEntry(id, in: ledger)
        }
    }

    /// A change to the ledger from its page: done, then back to it; refused, the page again
    /// with the reason (and, for the quick entry, what was typed).
    private func ledgerAction(_ request: Request, _ context: TallyRequestContext, keepsInput: Bool = false,
                              _ action: (FormFields, SpendingService, UUID) async throws -> Void) async throws -> Response {
        guard let user = context.user else { return Self.signIn }
        let form = try await Web.checkedForm(request, context)
        let ledger = try context.parameters.ledger
        do {
            try await action(form, services.spending(for: user), ledger)
        } catch let refusal as Web.FieldRefusal {
            return try await ledgerPage(request, context, error: refusal.error, retry: keepsInput ? form : nil, field: refusal.field)
        } catch let error as TallyError {
            return try await ledgerPage(request, context, error: error, retry: keepsInput ? form : nil)
        }
        return Response.redirect(to: "/spending/\(ledger)", type: .normal)
    }

    // MARK: - Settings

    @Sendable func settings(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await settingsPage(request, context, notice: request.uri.queryParameters.get("saved").map { _ in "Saved." })
    }

    private func settingsPage(_ request: Request, _ context: TallyRequestContext, ledger: UUID? = nil, notice: String? = nil,
                              error: TallyError? = nil, newInviteCode: String? = nil) async throws -> Response {
        guard let user = context.user else { return Self.signIn }
        let spending = services.spending(for: user)
        let id = try ledger ?? context.parameters.ledger
        var details = try await spending.ledger(id)
        details.newInviteCode = newInviteCode
        let page = LedgerSettingsPage(
            details: details, activity: try await spending.activity(in: id, limit: 50), user: user.id, now: services.clock.now,
            zone: try await services.hydration(for: user).settings().zone, origin: context.origin.origin)
        return Web.html(page.render(Web.pageContext(request, context), notice: notice, error: error?.message), status: Web.status(of: error))
    }

    @Sendable func saveGeneral(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await settingsAction(request, context) { form, spending, ledger in
            _ = try await spending.changeLedger(ledger, name: form["name"], currency: form["currency"])
        }
    }

    @Sendable func addMember(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await settingsAction(request, context) { form, spending, ledger in
            _ = try await spending.addMember(to: ledger, name: try form.require("name", "the new member's name"))
        }
    }

    @Sendable func changeMember(_ request: Request, context: TallyRequestContext) async throws -> Response {
        let member = try context.parameters.member
        return try await settingsAction(request, context) { form, spending, ledger in
            if form["action"] == "remove" {
                _ = try await spending.removeMember(member, from: ledger)
            } else {
                _ = try await spending.renameMember(member, in: ledger, to: try form.require("name", "the member's name"))
            }
        }
    }

    @Sendable func transferOwnership(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await settingsAction(request, context) { form, spending, ledger in
            guard let member = form["owner"].flatMap(MemberID.init) else { throw TallyError.invalid("Choose the member who will own the ledger.") }
            _ = try await spending.transferOwnership(of: ledger, to: .id(member))
        }
    }

    /// A new invite answers with the settings page itself, not a redirect: its code is shown
    /// this once and kept nowhere (S1).
    @Sendable func changeInvite(_ request: Request, context: TallyRequestContext) async throws -> Response {
        guard let user = context.user else { return Self.signIn }
        let form = try await Web.checkedForm(request, context)
        let ledger = try context.parameters.ledger
        let spending = services.spending(for: user)
        do {
            if form["action"] == "revoke" {
                _ = try await spending.revokeInvite(ledger)
                return Response.redirect(to: "/spending/\(ledger)/settings?saved=1", type: .normal)
            }
            let terms = try LedgerInviteTerms(days: try form["days"].map { try Self.whole($0, "The number of days") },
                                              uses: try form["uses"].map { try Self.whole($0, "The number of people") })
            let opened = try await spending.openInvite(ledger, terms: terms)
            return try await settingsPage(request, context, ledger: ledger,
                                          notice: "Invite opened. Send the code or the link now: it is shown only this once.",
                                          newInviteCode: opened.newInviteCode)
        } catch let error as TallyError {
            return try await settingsPage(request, context, error: error)
        }
    }

    private static func whole(_ text: String, _ label: String) throws -> Int {
        guard let number = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw TallyError.invalid("\(label) must be a whole number; \"\(text)\" is not.")
        }
        return number
    }

    private func settingsAction(_ request: Request, _ context: TallyRequestContext,
                                _ action: (FormFields, SpendingService, UUID) async throws -> Void) async throws -> Response {
        guard let user = context.user else { return Self.signIn }
        let form = try await Web.checkedForm(request, context)
        let ledger = try context.parameters.ledger
        do {
            try await action(form, services.spending(for: user), ledger)
        } catch let error as TallyError {
            return try await settingsPage(request, context, error: error)
        }
        return Response.redirect(to: "/spending/\(ledger)/settings?saved=1", type: .normal)
    }

    // MARK: - Export (S6)

    @Sendable func exportCSV(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await export(.csv, request, context)
    }

    @Sendable func exportJSON(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await export(.json, request, context)
    }

    private func export(_ format: LedgerExport.Format, _ request: Request, _ context: TallyRequestContext) async throws -> Response {
        guard let user = context.user else { return Self.signIn }
        return try await TransferController.download(try context.parameters.ledger, format: format, spending: services.spending(for: user))
    }

    // MARK: -

    private static var signIn: Response { Response.redirect(to: "/signin", type: .normal) }
}
