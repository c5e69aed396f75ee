import Foundation
import HTTPTypes
import Hummingbird
import TallyAPI
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// A ledger's page and its entries (S2–S5): adding, editing, deleting and restoring expenses
/// and payments, with plain forms and redirects.
struct LedgerEntriesWebController {
    let services: APIServices

    func addRoutes(to web: some RouterMethods<SignedInPageContext>) {
        web.get(SitePath.ledger, use: ledger)
        web.post(SitePath.expenses, use: addExpense)
        web.post(SitePath.payments, use: recordPayment)
        web.get(SitePath.editLedgerEntry, use: editPage)
        web.post(SitePath.editLedgerEntry, use: edit)
        web.post(SitePath.deleteLedgerEntry, use: delete)
        web.post(SitePath.restoreLedgerEntry, use: restore)
        web.post(SitePath.ledgerNotifications, use: saveNotifications)
        ReceiptWebController(services: services).addRoutes(to: web)
    }

    @Sendable func ledger(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let query = request.uri.queryParameters
        let deleted = query.get("deleted").flatMap(UUID.init(uuidString:))
        let notice = query.get("imported").flatMap { Int($0) }.map { added in
            let skipped = query.get("skipped").flatMap { Int($0) } ?? 0
            return skipped > 0
                ? t(one: "Imported \(added) bill; \(skipped) were already here.", other: "Imported \(added) bills; \(skipped) were already here.")
                : t(one: "Imported \(added) bill.", other: "Imported \(added) bills.")
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
        let filled = if let retry { retry.all } else { try await again(request, in: id, spending) }
        let page = LedgerPage(
            summary: summary, overview: overview, search: search, after: after,
            today: today, user: user.id, startingCurrency: try await spending.startingCurrency(in: id),
            justDeleted: justDeleted.flatMap { id in overview.deleted.first { $0.id == id } },
            retry: filled, refusedField: field, reference: try await spending.referenceRates(),
            notifications: try await spending.changeNotifications(in: id))
        return Web.html(page.render(Web.pageContext(request, context), notice: notice, error: error?.said), status: Web.status(of: error))
    }

    /// The quick entry's fields for "Add again" (`?again=ID`): the expense's, dated today. An id
    /// that is not an expense of this ledger fills nothing in.
    private func again(_ request: Request, in ledger: UUID, _ spending: SpendingService) async throws -> [String: String] {
        guard let id = request.uri.queryParameters.get("again").flatMap(UUID.init(uuidString:)) else { return [:] }
        guard let entry = try? await spending.entry(id, in: ledger), entry.kind == .expense, entry.deletedAt == nil else { return [:] }
        var values = EntryEditPage.values(of: entry)
        values["date"] = nil
        return values
    }

    /// An expense from the quick entry, with the photo of its receipt when one was taken: the
    /// photo is checked and cleaned first, so that a refused one adds nothing.
    @Sendable func addExpense(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await ReceiptWebController.receivingReceipt(request, from: context.user.id, services) { [self] request in
            try await addQuickExpense(request, context)
        } refused: { error in
            try await ledgerPage(request, context, error: error.about("receipt"), retry: nil, field: "receipt")
        }
    }

    private func addQuickExpense(_ request: Request, _ context: SignedInPageContext) async throws -> Response {
        try await ledgerAction(request, context, keepsInput: true, limit: ReceiptWebController.formLimit) { form, spending, ledger in
            let details = try await spending.ledger(ledger)
            // The service's refusal names its field; the page shows it at that input.
            let payers = try PayerToggles.input(form, details)
            let split = try SplitFields.input(form, details)
            let typed = CurrencyFields.input(form)
            let receipt = try await form.file("receipt").asyncMap { try await ReceiptWebController.cleaned($0, spending) }
            let (entry, _) = try await spending.addExpense(to: ledger, NewExpense(
                // The form's id, new on every page: a second tap (or a resent form) adds nothing twice.
                id: form["id"].flatMap(UUID.init(uuidString:)),
                amount: .text(try form.requireNumeral("amount", Phrase("the amount"))), payer: payers.one, payers: payers.several,
                date: try TallyError.about("date") { try form["date"].map { try LocalDate.parse($0) } },
                description: form["description"], category: form["category"], split: split,
                currency: typed.currency, rate: typed.rate.map(AmountValue.text)))
            if let receipt { _ = try await spending.keepReceipt(receipt, of: entry.id, in: ledger) }
        }
    }

    @Sendable func recordPayment(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await ledgerAction(request, context) { form, spending, ledger in
            guard let from = form["from"].flatMap(MemberID.init), let to = form["to"].flatMap(MemberID.init) else {
                throw TallyError.invalid("Choose who paid and who received the payment.")
            }
            let typed = CurrencyFields.input(form)
            _ = try await spending.recordPayment(in: ledger, NewPayment(
                id: form["id"].flatMap(UUID.init(uuidString:)), from: from, to: to, amount: .text(try form.requireNumeral("amount", Phrase("the amount"))),
                currency: typed.currency, rate: typed.rate.map(AmountValue.text)))
        }
    }

    @Sendable func editPage(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let spending = services.spending(for: context.user)
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id("expense or payment"))
        let (details, entry) = (try await spending.ledger(ledger), try await spending.entry(id, in: ledger))
        return Web.html(EntryEditPage(details: details, entry: entry, known: KnownRates(ledger: try await spending.foreignSpending(in: ledger), reference: try await spending.referenceRates()),
                                      values: EntryEditPage.values(of: entry))
            .render(Web.pageContext(request, context)))
    }

    /// An edit from its page: saved, back to the ledger; refused, the page again as typed, with
    /// the reason at its field.
    @Sendable func edit(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let spending = services.spending(for: context.user)
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id("expense or payment"))
        let (details, entry) = (try await spending.ledger(ledger), try await spending.entry(id, in: ledger))
        return try await Web.formAction(request, context) { form in
            let typed = try form.requireNumeral("amount", Phrase("the amount"))
            let description = form.all["description"] ?? ""
            let date = try TallyError.about("date") { () throws -> LocalDate in
                try LocalDate.parse(try form.require("date", Phrase("the date")))
            }
            let expense = entry.kind == .expense
            let payers = expense ? try PayerToggles.input(form, details) : (one: nil, several: nil)
            let currency = CurrencyFields.input(form)
            _ = try await spending.editEntry(id, in: ledger, EntryChangeBody(
                amount: .text(typed), payer: payers.one, payers: payers.several, date: date,
                description: .set(description), category: expense ? .set(form.all["category"] ?? "") : .unchanged,
                split: expense ? try SplitFields.input(form, details) : nil,
                // An emptied currency is the ledger's.
                currency: currency.currency ?? details.ledger.currency.code, rate: currency.rate.map(AmountValue.text)), seen: form["seen"])
            return Web.redirect(SitePath.ledger.link(ledger))
        } refused: { form, refusal in
            Web.html(EntryEditPage(details: details, entry: entry, known: KnownRates(), values: form.all, refusal: refusal)
                .render(Web.pageContext(request, context)),
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
    /// The bell at the top of the page: the others' changes told to this person, on or off.
    @Sendable func saveNotifications(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await ledgerAction(request, context) { form, spending, ledger in
            try await spending.setChangeNotifications(form["changes"] == "yes", in: ledger)
        }
    }

    private func ledgerAction(_ request: Request, _ context: SignedInPageContext, keepsInput: Bool = false, limit: Int? = nil,
                              _ action: (FormFields, SpendingService, UUID) async throws -> Void) async throws -> Response {
        try await Web.formAction(request, context, limit: limit) { form in
            let ledger = try context.parameters.ledger
            try await action(form, services.spending(for: context.user), ledger)
            return Web.redirect(SitePath.ledger.link(ledger))
        } refused: { form, refusal in
            try await ledgerPage(request, context, error: refusal.error, retry: keepsInput ? form : nil, field: refusal.field)
        }
    }
}
