import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// A ledger's recurring expenses on the web: plain forms and redirects.
struct RecurringWebController {
    let services: APIServices

    func addRoutes(to web: some RouterMethods<SignedInPageContext>) {
        web.get(SitePath.recurringExpenses, use: page)
        web.post(SitePath.recurringExpenses, use: add)
        web.post(SitePath.recurringExpense, use: change)
    }

    @Sendable func page(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let notice = request.uri.queryParameters.get("done").map { _ in t("Saved.") }
        return try await page(request, context, notice: notice)
    }

    private func page(_ request: Request, _ context: SignedInPageContext, notice: String? = nil, values: [String: String] = [:],
                      refusal: Web.Refusal? = nil) async throws -> Response {
        let spending = services.spending(for: context.user)
        let ledger = try context.parameters.ledger
        let zone = try await services.hydration(for: context.user).settings().zone
        let page = RecurringPage(details: try await spending.ledger(ledger), expenses: try await spending.recurringExpenses(in: ledger),
                                 today: LocalDate(containing: services.clock.now, in: zone), user: context.user.id,
                                 values: values, refusal: refusal)
        return Web.html(page.render(Web.pageContext(request, context), notice: notice), status: Web.status(of: refusal?.error))
    }

    /// Sets one up from the form: its rule repeats the first day's weekday, day of the month or
    /// day of the year.
    @Sendable func add(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let spending = services.spending(for: context.user)
        let ledger = try context.parameters.ledger
        return try await Web.formAction(request, context) { form in
            let details = try await spending.ledger(ledger)
            let amount = try form.requireNumeral("amount", Phrase("the amount"))
            // The inputs `start` and `end` are the body's startDate and endDate.
            let start = try TallyError.about("startDate") { () throws -> LocalDate in
                guard let text = form["start"] else { throw TallyError.invalid("Fill in the first day.") }
                return try LocalDate.parse(text, field: "the first day")
            }
            let end = try TallyError.about("endDate") { try form["end"].map { try LocalDate.parse($0, field: "the last day") } }
            let every = form["every"].flatMap(RecurrenceRule.Frequency.init(rawValue:)) ?? .month
            let payers = try PayerToggles.input(form, details)
            let split = try SplitFields.input(form, details)
            _ = try await spending.addRecurringExpense(to: ledger, NewRecurringExpense(
                amount: .text(amount), payer: payers.one, payers: payers.several,
                description: form["description"], category: form["category"], split: split,
                repeat: RepeatBody(RecurrenceRule(every: every, like: start)), startDate: start, endDate: end))
            return Web.redirect(SitePath.recurringExpenses.link(ledger) + "?done=1")
        } refused: { form, refusal in
            try await page(request, context, values: form.all, refusal: refusal)
        }
    }

    /// Pause, resume, end or delete, as the button says.
    @Sendable func change(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let spending = services.spending(for: context.user)
        let ledger = try context.parameters.ledger
        let id = try context.parameters.id("recurring expense")
        return try await Web.formAction(request, context) { form in
            switch form["action"] {
            case "pause": _ = try await spending.pauseRecurringExpense(id, in: ledger)
            case "resume": _ = try await spending.resumeRecurringExpense(id, in: ledger)
            case "end": _ = try await spending.endRecurringExpense(id, in: ledger)
            case "delete": try await spending.deleteRecurringExpense(id, in: ledger)
            default: throw TallyError.invalid("Choose pause, resume, end or delete.")
            }
            return Web.redirect(SitePath.recurringExpenses.link(ledger) + "?done=1")
        } refused: { _, refusal in
            try await page(request, context, refusal: refusal)
        }
    }
}
