import Foundation
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// A ledger's recurring expenses: each with its next day, paused, resumed, ended or deleted in
/// one tap; and a form that sets one up, plain HTML that works without the script.
struct RecurringPage {
    var details: LedgerDetails
    var expenses: [RecurringExpense]
    /// Today in the user's time zone: where a new one starts at the earliest.
    var today: LocalDate
    var user: UUID
    /// What was typed when the server refused it, and why.
    var values: [String: String] = [:]
    var refusal: Web.Refusal?

    /// The fields whose refusal the form shows at its input; any other is said at the top.
    static let marked: Set<String> = ["amount", "description", "startDate", "endDate", "payers", "split"]

    private var ledger: UUID { details.ledger.id }
    private var currency: Currency { details.ledger.currency }

    func render(_ context: PageContext, notice: String? = nil) -> HTML {
        Layout.page(t("Recurring expenses"), context, spending: true, notice: notice, error: refusal?.banner(besides: Self.marked), """
        <div class="ledger-head">
        <h1>\(t("Recurring expenses"))</h1>
        <a href="\(SitePath.ledger.link(ledger))" class="button">\(t("Back to the ledger"))</a>
        </div>
        <p class="help">\(t("Each is added to \(details.ledger.name) as an ordinary expense on its day, in the time zone it was set up in.")) \
        \(t("A day a month lacks (the 31st) falls on its last day."))</p>
        \(list(context))
        \(form(context))
        """)
    }

    private func name(_ member: MemberID) -> String {
        details.members.first { $0.id == member }?.name ?? t("a former member")
    }

    private func list(_ context: PageContext) -> HTML {
        guard !expenses.isEmpty else {
            return "<p class=\"empty\" role=\"status\">\(t("No recurring expenses yet: set one up below, such as the rent."))</p>"
        }
        let items = expenses.map { expense -> HTML in
            let title = expense.template.description ?? t("Expense")
            let rule = t(expense.rule.summaryPhrase)
            let label = "\(title), \(Layout.money(expense.template.amount)), \(rule)"
            let toggle: HTML = switch expense.status {
            case .active: action(expense, "pause", t("Pause"), t("Pause \(label)"), context)
            case .paused: action(expense, "resume", t("Resume"), t("Resume \(label)"), context)
            case .ended: ""
            }
            let end: HTML = expense.status == .ended ? "" : action(expense, "end", t("End"), t("End \(label)"), context)
            return """
            <li class="\(expense.status.rawValue)">
            <span class="what"><strong>\(title)</strong>
            <span class="help">\(rule.capitalizedFirst) · \(t("paid by \(Layout.payers(expense.template.payers, name: name))")) · \(state(expense))</span></span>
            <span class="amount">\(Layout.money(expense.template.amount))</span>
            <span class="actions">\(toggle)\(end)\(action(expense, "delete", t("Delete"), t("Delete \(label)"), context))</span></li>
            """
        }
        return """
        <section aria-labelledby="recurring-title">
        <h2 id="recurring-title">\(t("In \(details.ledger.name)"))</h2>
        <ul class="entries recurring">\(items)</ul>
        </section>
        """
    }

    /// Where the expense is: its next day (and last, if it has one), paused, or ended.
    private func state(_ expense: RecurringExpense) -> HTML {
        switch expense.status {
        case .active:
            let next: HTML = "<time datetime=\"\(expense.nextDate)\">\(Written.current.date(expense.nextDate))</time>"
            guard let end = expense.endDate else { return HTML.sentence("Next on {0}", next) }
            return HTML.sentence("Next on {0}, last by {1}", next, "<time datetime=\"\(end)\">\(Written.current.date(end))</time>")
        case .paused: return "\(t("Paused"))"
        case .ended: return "\(expense.endDate.map { t("Ended after \(Written.current.date($0))") } ?? t("Ended"))"
        }
    }

    /// A button of the expense: `title` is what it says, `ariaLabel` also names the expense.
    private func action(_ expense: RecurringExpense, _ action: String, _ title: String, _ ariaLabel: String, _ context: PageContext) -> HTML {
        """
        <form method="post" action="\(SitePath.recurringExpense.link(ledger, expense.id))">
        \(Layout.csrfField(context))<input type="hidden" name="action" value="\(action)">\
        <button type="submit"\(HTML(unsafe: action == "delete" ? #" class="delete""# : "")) aria-label="\(ariaLabel)">\(title)</button>
        </form>
        """
    }

    private func form(_ context: PageContext) -> HTML {
        func refused(_ field: String) -> (message: String, invalid: HTML) {
            guard let refusal, refusal.field == field else { return ("", "") }
            return (refusal.error.said, HTML(unsafe: #" aria-invalid="true""#))
        }
        let amount = refused("amount"), description = refused("description"), start = refused("startDate"), end = refused("endDate")
        let you = details.member(of: user)?.id
        let payer = values["payer"].flatMap(MemberID.init) ?? you ?? details.members.first?.id
        let every = values["every"].flatMap(RecurrenceRule.Frequency.init(rawValue:)) ?? .month
        let periods = [(RecurrenceRule.Frequency.week, t("Every week")), (.month, t("Every month")), (.year, t("Every year"))].map { value, label -> HTML in
            "<option value=\"\(value.rawValue)\"\(HTML.flag("selected", value == every))>\(label)</option>"
        }
        return """
        <section class="card quick" aria-labelledby="new-recurring-title">
        <h2 id="new-recurring-title">\(t("Set up a recurring expense"))</h2>
        <form method="post" action="\(SitePath.recurringExpenses.link(ledger))" class="stack" novalidate>
        \(Layout.csrfField(context))
        <label for="amount">\(t("Amount (\(currency.code))"))</label>
        <input id="amount" name="amount" class="amount-input" inputmode="decimal" autocomplete="off" required \
        value="\(values["amount"] ?? "")" aria-describedby="amount-error"\(amount.invalid)>
        <p class="field-error" id="amount-error">\(amount.message)</p>
        \(PayerToggles(members: details.members, chosen: payer, you: you,
                      several: .init(values: values, currency: currency, refusal: refused("payers"))).render())
        <label for="description">\(t("What for")) <span class="help">\(t("(optional)"))</span></label>
        <input id="description" name="description" maxlength="200" autocomplete="off" value="\(values["description"] ?? "")" \
        aria-describedby="description-error"\(description.invalid)>
        <p class="field-error" id="description-error">\(description.message)</p>
        <label for="every">\(t("Repeats"))</label>
        <select id="every" name="every" aria-describedby="every-help">\(periods)</select>
        <p class="help" id="every-help">\(t("On the first day's weekday, day of the month or day of the year."))</p>
        <label for="start">\(t("First on"))</label>
        <input id="start" name="start" type="date" min="\(today)" value="\(values["start"] ?? today.description)" \
        aria-describedby="start-error"\(start.invalid)>
        <p class="field-error" id="start-error">\(start.message)</p>
        <label for="end">\(t("Last by")) <span class="help">\(t("(optional)"))</span></label>
        <input id="end" name="end" type="date" min="\(today)" value="\(values["end"] ?? "")" aria-describedby="end-error"\(end.invalid)>
        <p class="field-error" id="end-error">\(end.message)</p>
        <details class="more"\(HTML.flag("open", !refused("split").message.isEmpty))>
        <summary>\(t("Category and who shares it"))</summary>
        <label for="category">\(t("Category")) <span class="help">\(t("(optional)"))</span></label>
        <input id="category" name="category" maxlength="50" value="\(values["category"] ?? "")">
        \(SplitFields(members: details.members, currency: currency, values: values, refusal: refused("split")).render())
        </details>
        <button type="submit" class="primary add">\(t("Set up"))</button>
        </form>
        </section>
        """
    }
}
