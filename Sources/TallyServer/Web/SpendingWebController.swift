import Foundation
import HTTPTypes
import Hummingbird
import TallyAPI
import TallyCore
import TallyImport
import TallyRepositories
import TallyServices

/// The spending pages (S1–S6): plain forms and redirects; app.js posts the same forms in the
/// background and swaps the page in place.
struct SpendingWebController {
    let services: APIServices

    func addRoutes(to web: some RouterMethods<SignedInPageContext>) {
        web.get(SitePath.spending, use: start)
        web.post(SitePath.spending, use: create)
        web.post(SitePath.joinLedger, use: join)
        web.post(SitePath.importLedger, use: importIHateMoney)
        web.get(SitePath.invitation, use: invitation)
        web.get(SitePath.ledger, use: ledger)
        web.post(SitePath.expenses, use: addExpense)
        web.post(SitePath.payments, use: recordPayment)
        web.get(SitePath.editLedgerEntry, use: editPage)
        web.post(SitePath.editLedgerEntry, use: edit)
        web.post(SitePath.deleteLedgerEntry, use: delete)
        web.post(SitePath.restoreLedgerEntry, use: restore)
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
            return try await spending.createLedger(name: try form.require("name", "the ledger's name"),
                                                   currency: try form.require("currency", "the currency").uppercased(),
                                                   memberNames: names).ledger.id
        }
    }

    /// Joins as the member the person picked on the invitation, or as someone new (S1). A code
    /// typed on the start page leads to that choice first.
    @Sendable func join(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let spending = services.spending(for: context.user)
        return try await Web.formAction(request, context) { form in
            let code = InviteCode.normalize(try form.require("code", "the invite code"))
            guard let choice = form["member"] else {
                return Web.redirect(SitePath.invitation.link(SitePath.encoded(code)))
            }
            let joined: LedgerDetails
            if choice == "new" {
                joined = try await spending.join(code: code, newName: try form.require("name", "your name, to join as someone new"))
            } else {
                guard let member = MemberID(choice) else { throw TallyError.invalid("Choose who you are in the ledger, or someone new.") }
                joined = try await spending.join(code: code, as: .id(member))
            }
            return Web.redirect(SitePath.ledger.link(joined.ledger.id))
        } refused: { form, refusal in
            let code = form["code"] ?? ""
            let page = SpendingStartPage(ledgers: try await spending.ledgers(), code: code,
                                         invitation: .some(try await spending.invitation(code: code)))
            return Web.html(page.render(Web.pageContext(request, context), error: refusal.error.message), status: Web.status(of: refusal.error))
        }
    }

    /// An IHateMoney export pasted (or, with JavaScript, read from a file): into a new ledger,
    /// or into the one the form names.
    @Sendable func importIHateMoney(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let spending = services.spending(for: context.user)
        return try await Web.formAction(request, context, limit: TallyRequestContext.maxImportSize) { form in
            let export = Data(try form.require("export", "the export's contents").utf8)
            let (target, name, currency) = (Self.importTarget(form), form["name"] ?? "IHateMoney", form["currency"])
            let report = try await services.uploads.run(for: context.user.id) {
                let bills = try await HealthUpload.read { try IHateMoneyExport.bills(from: export) }
                return try await IHateMoneyImporter(spending: spending).importBills(bills, into: target, name: name, currency: currency)
            }
            return Web.redirect(SitePath.ledger.link(report.ledger) + "?imported=\(report.added)&skipped=\(report.alreadyThere)")
        } refused: { form, refusal in
            if let into = Self.importTarget(form) { return try await settingsPage(request, context, ledger: into, error: refusal.error) }
            let page = SpendingStartPage(ledgers: try await spending.ledgers())
            return Web.html(page.render(Web.pageContext(request, context), error: refusal.error.message), status: Web.status(of: refusal.error))
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
            return Web.html(page.render(Web.pageContext(request, context), error: refusal.error.message), status: Web.status(of: refusal.error))
        }
    }

    // MARK: - A ledger

    @Sendable func ledger(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let query = request.uri.queryParameters
        let deleted = query.get("deleted").flatMap(UUID.init(uuidString:))
        let notice = query.get("imported").flatMap { Int($0) }.map { added in
            let skipped = query.get("skipped").flatMap { Int($0) } ?? 0
            return "Imported \(added) bill\(added == 1 ? "" : "s")" + (skipped > 0 ? "; \(skipped) were already here." : ".")
        }
        return try await ledgerPage(request, context, justDeleted: deleted, notice: notice)
    }

    private func ledgerPage(_ request: Request, _ context: SignedInPageContext, justDeleted: UUID? = nil, notice: String? = nil,
                            error: TallyError? = nil, retry: FormFields? = nil, field: String? = nil) async throws -> Response {
        let user = context.user
        let spending = services.spending(for: user)
        let id = try context.parameters.ledger
        // "Show more" asks for the page after the last entry shown.
        let after = request.uri.queryParameters.get("after").flatMap(UUID.init(uuidString:))
        // A search that cannot be read is said at the top, and the page shows everything.
        var error = error
        let search: LedgerSearch
        do {
            // The search form's fields, encoded as a form is (a space is a +).
            let fields = FormFields(request.uri.query ?? "").all
            search = try LedgerSearch { fields[$0] }
        } catch let refused as TallyError where error == nil {
            (search, error) = (.none, refused)
        }
        let zone = try await services.hydration(for: user).settings().zone
        let today = LocalDate(containing: services.clock.now, in: zone)
        let (summary, overview) = try await spending.overview(of: id, matching: try search.filter, limit: LedgerPage.pageSize,
                                                               after: after, spentSince: SpendingChart.firstMonth(endingWith: today.yearMonth))
        let page = LedgerPage(
            summary: summary, overview: overview, search: search, after: after,
            today: today, user: user.id,
            justDeleted: justDeleted.flatMap { id in overview.deleted.first { $0.id == id } },
            retry: retry?.all ?? [:], refusedField: field)
        return Web.html(page.render(Web.pageContext(request, context), notice: notice, error: error?.message), status: Web.status(of: error))
    }

    @Sendable func addExpense(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await ledgerAction(request, context, keepsInput: true) { form, spending, ledger in
            let details = try await spending.ledger(ledger)
            // The service's refusal names its field; the page shows it at that input.
            let payers = try PayerToggles.input(form, details)
            let split = try SplitFields.input(form, details)
            _ = try await spending.addExpense(to: ledger, NewExpense(
                // The form's id, new on every page: a second tap (or a resent form) adds nothing twice.
                id: form["id"].flatMap(UUID.init(uuidString:)),
                amount: .text(try form.require("amount", "the amount")), payer: payers.one, payers: payers.several,
                date: try TallyError.about("date") { try form["date"].map { try LocalDate.parse($0) } },
                description: form["description"], category: form["category"], split: split))
        }
    }

    @Sendable func recordPayment(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await ledgerAction(request, context) { form, spending, ledger in
            guard let from = form["from"].flatMap(MemberID.init), let to = form["to"].flatMap(MemberID.init) else {
                throw TallyError.invalid("Choose who paid and who received the payment.")
            }
            _ = try await spending.recordPayment(in: ledger, NewPayment(
                id: form["id"].flatMap(UUID.init(uuidString:)), from: from, to: to, amount: .text(try form.require("amount", "the amount"))))
        }
    }

    @Sendable func editPage(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let spending = services.spending(for: context.user)
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id("expense or payment"))
        let (details, entry) = (try await spending.ledger(ledger), try await spending.entry(id, in: ledger))
        return Web.html(EntryEditPage(details: details, entry: entry, values: EntryEditPage.values(of: entry))
            .render(Web.pageContext(request, context)))
    }

    /// An edit from its page: saved, back to the ledger; refused, the page again as typed, with
    /// the reason at its field.
    @Sendable func edit(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let spending = services.spending(for: context.user)
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id("expense or payment"))
        let (details, entry) = (try await spending.ledger(ledger), try await spending.entry(id, in: ledger))
        return try await Web.formAction(request, context) { form in
            let typed = try form.require("amount", "the amount")
            let description = form.all["description"] ?? ""
            let date = try TallyError.about("date") { () throws -> LocalDate in
                try LocalDate.parse(try form.require("date", "the date"))
            }
            let expense = entry.kind == .expense
            let payers = expense ? try PayerToggles.input(form, details) : (one: nil, several: nil)
            _ = try await spending.editEntry(id, in: ledger, EntryChangeBody(
                amount: .text(typed), payer: payers.one, payers: payers.several, date: date,
                description: .set(description), category: expense ? .set(form.all["category"] ?? "") : .unchanged,
                split: expense ? try SplitFields.input(form, details) : nil), seen: form["seen"])
            return Web.redirect(SitePath.ledger.link(ledger))
        } refused: { form, refusal in
            Web.html(EntryEditPage(details: details, entry: entry, values: form.all, refusal: refusal).render(Web.pageContext(request, context)),
                     status: Web.status(of: refusal.error))
        }
    }

    @Sendable func delete(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let form = try await Web.checkedForm(request, context)
        let spending = services.spending(for: context.user)
        let ledger = try context.parameters.ledger
        let id = try context.parameters.id("expense or payment")
        guard form["confirm"] == "yes" else {
            let details = try await spending.ledger(ledger)
            let entry = try await spending.entry(id, in: ledger)
            return Web.html(LedgerPage.confirmDelete(Web.pageContext(request, context), ledger: details, entry: entry))
        }
        do {
            _ = try await spending.deleteEntry(id, in: ledger, seen: form["seen"])
        } catch let error as TallyError {
            return try await ledgerPage(request, context, error: error)
        }
        return Web.redirect(SitePath.ledger.link(ledger) + "?deleted=\(id)")
    }

    @Sendable func restore(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let id = try context.parameters.id("expense or payment")
        return try await ledgerAction(request, context) { _, spending, ledger in
            _ = try await spending.restoreEntry(id, in: ledger)
        }
    }

    /// A change to the ledger from its page: done, then back to it; refused, the page again
    /// with the reason (and, for the quick entry, what was typed, with the field it is about).
    private func ledgerAction(_ request: Request, _ context: SignedInPageContext, keepsInput: Bool = false,
                              _ action: (FormFields, SpendingService, UUID) async throws -> Void) async throws -> Response {
        try await Web.formAction(request, context) { form in
            let ledger = try context.parameters.ledger
            try await action(form, services.spending(for: context.user), ledger)
            return Web.redirect(SitePath.ledger.link(ledger))
        } refused: { form, refusal in
            try await ledgerPage(request, context, error: refusal.error, retry: keepsInput ? form : nil, field: refusal.field)
        }
    }

    // MARK: - Settings

    @Sendable func settings(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await settingsPage(request, context, notice: request.uri.queryParameters.get("saved").map { _ in "Saved." })
    }

    private func settingsPage(_ request: Request, _ context: SignedInPageContext, ledger: UUID? = nil, notice: String? = nil,
                              error: TallyError? = nil, newInviteCode: String? = nil) async throws -> Response {
        let user = context.user
        let spending = services.spending(for: user)
        let id = try ledger ?? context.parameters.ledger
        var details = try await spending.ledger(id)
        details.newInviteCode = newInviteCode
        let page = LedgerSettingsPage(
            details: details, activity: try await spending.activity(in: id, limit: 1), user: user.id, now: services.clock.now,
            zone: try await services.hydration(for: user).settings().zone, origin: context.origin.origin)
        return Web.html(page.render(Web.pageContext(request, context), notice: notice, error: error?.message), status: Web.status(of: error))
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
            _ = try await spending.addMember(to: ledger, name: try form.require("name", "the new member's name"))
        }
    }

    @Sendable func changeMember(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let member = try context.parameters.member
        return try await settingsAction(request, context) { form, spending, ledger in
            if form["action"] == "remove" {
                _ = try await spending.removeMember(member, from: ledger)
            } else {
                _ = try await spending.renameMember(member, in: ledger, to: try form.require("name", "the member's name"))
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
            let terms = try LedgerInviteTerms(days: try form["days"].map { try Self.whole($0, "The number of days") },
                                              uses: try form["uses"].map { try Self.whole($0, "The number of people") })
            let opened = try await spending.openInvite(ledger, terms: terms)
            return try await settingsPage(request, context, ledger: ledger,
                                          notice: "Invite opened. Send the code or the link now: it is shown only this once.",
                                          newInviteCode: opened.newInviteCode)
        } refused: { _, refusal in
            try await settingsPage(request, context, error: refusal.error)
        }
    }

    private static func whole(_ text: String, _ label: String) throws -> Int {
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
            try await settingsPage(request, context, error: refusal.error)
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
