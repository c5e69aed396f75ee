import Foundation
import TallyAPI
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// A ledger (S2–S5): quick entry, who owes whom, the settle-up plan and the history.
struct LedgerPage {
    /// How many entries of the history one page shows.
    static let pageSize = 30

    var summary: SpendingService.Summary
    /// A page of the history and the most recently deleted entries.
    var overview: LedgerOverview
    /// What the history is searched for; `.none` shows all of it.
    var search: LedgerSearch = .none
    /// The entry the page of history starts after ("Show more"); nil for the newest.
    var after: UUID?
    var today: LocalDate
    var user: UUID
    /// The currency the quick entry starts in, when not the ledger's (`SpendingService.startingCurrency`).
    var startingCurrency: Currency?
    /// An entry just deleted: the notice offers to undo it.
    var justDeleted: SpendingEntry?
    /// What was typed in the quick entry form when the server refused it.
    var retry: [String: String] = [:]
    /// The field the refusal is about: amount, description, date or split.
    var refusedField: String?
    /// The day's reference rates the server keeps, offered for currencies the ledger has no rate for.
    var reference: ReferenceRates? = nil
    /// Whether the reader's devices are told of the changes others make here.
    var notifications = true

    var details: LedgerDetails { summary.details }
    var currency: Currency { details.ledger.currency }
    var ledger: UUID { details.ledger.id }

    func render(_ context: PageContext, notice: String? = nil, error: String? = nil) -> HTML {
        Layout.page(details.ledger.name, context, spending: true, error: error, """
        <div class="top-actions"><p class="back"><a href="\(SitePath.spending.link)?all=1">\(t("All ledgers"))</a></p>
        \(notificationToggle(context))</div>
        <div class="ledger-head">
        <h1>\(details.ledger.name)</h1>
        <nav class="row ledger-links" aria-label="\(details.ledger.name)"><a href="\(SitePath.recurringExpenses.link(ledger))">\(t("Recurring"))</a>
        <a href="\(SitePath.ledgerSettings.link(ledger))">\(t("Members & settings"))</a></nav>
        </div>
        <div class="ledger-columns">
        <div class="ledger-add">
        \(standing)
        \(undoNotice(context) ?? notice.map { "<p class=\"message notice\" role=\"status\">\($0)</p>" } ?? "")
        \(quickEntry(context, error: error))
        </div>
        <div class="live" data-changes="/api/v1/\(API.ledgerChanges.path(ledger))" data-revision="\(overview.revision)">
        \(plan(context))
        \(balance)
        \(anyPayment(context))
        \(history(context))
        \(recentlyDeleted(context))
        \(SpendingChart(spent: overview.spent, thisMonth: today.yearMonth, currency: currency).render())
        </div>
        </div>
        """)
    }

    /// One tap turns the others' changes told to this person's devices on or off: a bell across
    /// from "All ledgers" (where a phone's app keeps its actions), pressed (and drawn without a
    /// stroke through it) when on. It takes no line of its own.
    private func notificationToggle(_ context: PageContext) -> HTML {
        let bell = "M6 16v-5a6 6 0 0 1 12 0v5l2 2H4zM10 21h4" + (notifications ? "" : "M3 3l18 18")
        return """
        <form method="post" action="\(SitePath.ledgerNotifications.link(ledger))" class="notify">\(Layout.csrfField(context))\
        <input type="hidden" name="changes" value="\(notifications ? "no" : "yes")">\
        <button type="submit" class="icon-toggle" aria-pressed="\(notifications ? "true" : "false")" \
        title="\(t("Tell me when others add, change or delete"))">\
        \(HTML(unsafe: "<svg class=\"bell\" viewBox=\"0 0 24 24\" aria-hidden=\"true\" focusable=\"false\"><path d=\"\(bell)\"/></svg>"))\
        <span class="visually-hidden">\(t("Notify me"))</span></button></form>
        """
    }

    /// The reader's own number first, above the form: what they owe or are owed in all. The
    /// page's script reads it again with the rest (live), and hides it while changes wait offline.
    private var standing: HTML {
        guard let you = details.member(of: user)?.id else { return "" }
        let balance = summary.balances.balance(of: you)
        return "<p class=\"standing-top \(SpendingStartPage.state(balance))\" data-standing>\(SpendingStartPage.standing(balance))</p>"
    }

    /// "12.50 EUR" that never breaks between the number and the currency; "−" for a minus.
    func money(_ units: Int64, signed: Bool = false) -> String {
        let text = Layout.money(Money(minorUnits: units, currency: currency))
        return signed && units > 0 ? "+" + text : text
    }

    /// One hand, one tap: a large amount field with a decimal keypad, the payer as big toggles.
    /// A refused entry comes back as typed, with the reason at the field it is about.
    private func quickEntry(_ context: PageContext, error: String?) -> HTML {
        let you = details.member(of: user)?.id
        let payer = retry["payer"].flatMap(MemberID.init) ?? you ?? details.members.first?.id
        let decimals = currency.minorUnits
        let pattern = Written.current.numberPattern(decimals: decimals)
        let example = Written.current.amount(Money(minorUnits: 1250, currency: currency))
        func refusal(_ field: String) -> (message: String, invalid: HTML) {
            guard let error, refusedField == field else { return ("", "") }
            return (error, HTML(unsafe: #" aria-invalid="true""#))
        }
        let amount = refusal("amount"), description = refusal("description"), date = refusal("date"), split = refusal("split")
        let receipt = refusal("receipt")
        let payers = PayerToggles(members: details.members, chosen: payer, you: you,
                                  several: .init(values: retry, currency: currency, refusal: refusal("payers")))
        let currencies = CurrencyFields(ledger: currency, known: KnownRates(ledger: overview.currencies, reference: reference), values: retry,
                                        usual: startingCurrency,
                                        refusal: refusedField == "currency" ? refusal("currency") : refusal("rate"),
                                        refusedField: refusedField)
        let open = !date.message.isEmpty || !split.message.isEmpty
        let invalidAmount = t(one: "Type an amount such as \(example), with at most \(decimals) decimal, more than 0 and at most \(TransactionAmount.maximumUnits).",
                              other: "Type an amount such as \(example), with at most \(decimals) decimals, more than 0 and at most \(TransactionAmount.maximumUnits).")
        return """
        <section class="card quick" aria-labelledby="add-title">
        <h2 id="add-title">\(t("Add an expense"))</h2>
        <form method="post" action="\(SitePath.expenses.link(ledger))" enctype="multipart/form-data" data-swap data-offline="expense" class="stack" novalidate>
        \(Layout.csrfField(context))<input type="hidden" name="id" value="\(UUID())">
        <label for="amount">\(HTML.sentence("Amount ({0})", "<span data-amount-currency>\(currencies.chosen)</span>"))</label>
        \(currencies.render(beside: """
            <input id="amount" name="amount" class="amount-input" inputmode="decimal" autocomplete="off" required
              pattern="\(pattern)" data-max="\(TransactionAmount.maximumUnits)" value="\(retry["amount"] ?? "")" aria-describedby="amount-error"\(amount.invalid)
              data-invalid="\(invalidAmount)">
            """))
        <p class="field-error" id="amount-error" aria-live="polite">\(amount.message)</p>
        <label for="description">\(HTML.sentence("What for {0}", Self.optionalMark))</label>
        <input id="description" name="description" maxlength="200" value="\(retry["description"] ?? "")" autocomplete="off"
          aria-describedby="description-error"\(description.invalid)>
        <p class="field-error" id="description-error">\(description.message)</p>
        \(payers.render())
        <details class="more"\(HTML.flag("open", open))>
        <summary>\(t("Date, category and who shares it"))</summary>
        <label for="date">\(t("Date"))</label>
        <input id="date" name="date" type="date" value="\(retry["date"] ?? today.description)" aria-describedby="date-error"\(date.invalid)>
        <p class="field-error" id="date-error">\(date.message)</p>
        <label for="category">\(HTML.sentence("Category {0}", Self.optionalMark))</label>
        <input id="category" name="category" maxlength="50" value="\(retry["category"] ?? "")" list="categories" autocomplete="off">
        <datalist id="categories">\(overview.recentCategories.map { category -> HTML in "<option value=\"\(category)\"></option>" })</datalist>
        \(SplitFields(members: details.members, currency: currency, values: retry, refusal: split).render())
        </details>
        <div class="add-row"><button type="submit" class="primary add">\(t("Add expense"))</button>\
        \(ReceiptSection.pick(error: receipt.message.isEmpty ? nil : receipt.message))</div>
        <p class="field-error" id="receipt-error" aria-live="polite">\(receipt.message)</p>
        </form>
        </section>
        """
    }

    /// The "(optional)" after a field's label.
    static var optionalMark: HTML { "<span class=\"help\">\(t("(optional)"))</span>" }

    /// Who owes whom, in words first, then each member's figures.
    var balance: HTML {
        let rows = summary.balances.members.map { member -> HTML in
            let state = member.balance > 0 ? "owed" : member.balance < 0 ? "owes" : ""
            return """
            <tr data-member="\(member.member)" data-paid="\(member.paid)" data-balance="\(member.balance)">\
            <th scope="row">\(summary.name(member.member))</th><td>\(money(member.paid))</td>\
            <td class="\(state)">\(money(member.balance, signed: true))</td></tr>
            """
        }
        let sentences = owes.map { HTML("<p class=\"owes\">\($0)</p>") }
        return """
        <section class="card summary" aria-labelledby="balance-title" data-currency="\(currency.code)" data-decimals="\(currency.minorUnits)">
        <h2 id="balance-title">\(t("Balance"))</h2>
        \(sentences)
        <table class="balances">
        <thead><tr><th scope="col">\(t("Member"))</th><th scope="col">\(t("Paid"))</th><th scope="col">\(t("Balance"))</th></tr></thead>
        <tbody>\(rows)</tbody>
        </table>
        <p class="help">\(t("Balance: paid minus share, plus payments sent, minus payments received. Positive means the others owe them."))</p>
        \(otherCurrencies)
        </section>
        """
    }

    /// "Of which spent in USD: $1,200.00 (€1,104.00)": the expenses typed in each other currency.
    private var otherCurrencies: HTML {
        let spent = overview.currencies.filter { !$0.spent.isZero }
        guard !spent.isEmpty else { return "" }
        let lines = spent.map { use -> HTML in
            "<li>\(t("Of which spent in \(use.spent.currency.code): \(Layout.money(use.spent)) (\(Layout.money(use.inLedger)))"))</li>"
        }
        return "<ul class=\"help other-currencies\">\(lines)</ul>"
    }

    /// Who owes whom, from the reader's side first: "You owe Ada $25.33.", "Ben owes you €12.00.",
    /// "You are settled up.", then what the others owe one another.
    var owes: [String] {
        let you = details.member(of: user)?.id
        guard let you else { return summary.plan.isEmpty ? [t("Everyone is settled up.")] : summary.plan.map(sentence) }
        let yours = summary.plan.filter { $0.from == you || $0.to == you }
        let others = summary.plan.filter { $0.from != you && $0.to != you }
        return (yours.isEmpty ? [t("You are settled up.")] : yours.map(sentence)) + others.map(sentence)
    }

    private func sentence(_ transfer: Transfer) -> String {
        let amount = Layout.money(transfer.amount)
        switch fromYourSide(transfer) {
        case .youPay(let to): return t("You owe \(to) \(amount).")
        case .paysYou(let from): return t("\(from) owes you \(amount).")
        case .between(let from, let to): return t("\(from) owes \(to) \(amount).")
        }
    }

    /// "You pay Ada $25.33", "Ben pays you $12.00", "Ben pays Ada $5.00".
    func payment(_ transfer: Transfer) -> String {
        let amount = Layout.money(transfer.amount)
        switch fromYourSide(transfer) {
        case .youPay(let to): return t("You pay \(to) \(amount)")
        case .paysYou(let from): return t("\(from) pays you \(amount)")
        case .between(let from, let to): return t("\(from) pays \(to) \(amount)")
        }
    }

    /// What the button that records a payment of the plan says to a screen reader:
    /// "Record that you pay Ada $25.33".
    private func recordLabel(_ transfer: Transfer) -> String {
        let amount = Layout.money(transfer.amount)
        switch fromYourSide(transfer) {
        case .youPay(let to): return t("Record that you pay \(to) \(amount)")
        case .paysYou(let from): return t("Record that \(from) pays you \(amount)")
        case .between(let from, let to): return t("Record that \(from) pays \(to) \(amount)")
        }
    }

    /// A transfer from the reader's side: they pay, they are paid, or it is between two others.
    private enum Side {
        case youPay(to: String)
        case paysYou(from: String)
        case between(from: String, to: String)
    }

    /// A transfer said from the reader's side, with the names of the others in it.
    private func fromYourSide(_ transfer: Transfer) -> Side {
        let you = details.member(of: user)?.id
        let (from, to) = (summary.name(transfer.from), summary.name(transfer.to))
        if transfer.from == you { return .youPay(to: to) }
        if transfer.to == you { return .paysYou(from: from) }
        return .between(from: from, to: to)
    }

    /// Any payment besides the plan's: who paid whom, and how much (part of a debt, or between
    /// two members the plan does not pair).
    private func anyPayment(_ context: PageContext) -> HTML {
        guard details.members.count > 1 else { return "" }
        let you = details.member(of: user)?.id
        let from = retry["from"].flatMap(MemberID.init) ?? you ?? details.members[0].id
        let to = retry["to"].flatMap(MemberID.init) ?? details.members.first { $0.id != from }?.id
        func options(_ chosen: MemberID?) -> HTML {
            let items = details.members.map { member -> HTML in
                "<option value=\"\(member.id)\"\(HTML.flag("selected", member.id == chosen))>\(member.id == you ? t("\(member.name) (you)") : member.name)</option>"
            }
            return "\(items)"
        }
        return """
        <details class="more any-payment">
        <summary>\(t("Record a payment"))</summary>
        <form method="post" action="\(SitePath.payments.link(ledger))" data-swap data-offline="payment" class="stack" novalidate>
        \(Layout.csrfField(context))<input type="hidden" name="id" value="\(UUID())">
        <div class="amount-unit">
        <div><label for="pay-from">\(t("From"))</label><select id="pay-from" name="from">\(options(from))</select></div>
        <div><label for="pay-to">\(t("To"))</label><select id="pay-to" name="to">\(options(to))</select></div>
        </div>
        <label for="pay-amount">\(HTML.sentence("Amount ({0})", "<span data-amount-currency>\(currency.code)</span>"))</label>
        \(CurrencyFields(ledger: currency, known: KnownRates(ledger: overview.currencies, reference: reference), values: [:],
                         idPrefix: "pay-").render(beside: #"<input id="pay-amount" name="amount" inputmode="decimal" autocomplete="off" required>"#))
        <button type="submit">\(t("Record payment"))</button>
        </form>
        </details>
        """
    }

    /// The fewest payments that settle everyone up (S4), first among what the ledger owes: each
    /// opens in place on who pays whom how much, and Confirm records it (a payment is money
    /// that changes hands, so it is asked once, not taken from a stray tap).
    private func plan(_ context: PageContext) -> HTML {
        guard !summary.plan.isEmpty else { return "" }
        let count = summary.plan.count
        let settles = count == 1 ? t("One payment settles everything.")
            : t(one: "\(count) payment settles everything.", other: "\(count) payments settle everything.")
        let items = summary.plan.map { transfer -> HTML in
            let text = payment(transfer)
            return """
            <li><span class="what">\(text)</span>
            <details class="settle"><summary aria-label="\(recordLabel(transfer))">\(t("Record this payment"))</summary>
            <form method="post" action="\(SitePath.payments.link(ledger))" data-swap data-offline="payment">
            \(Layout.csrfField(context))<input type="hidden" name="id" value="\(UUID())">
            <input type="hidden" name="from" value="\(transfer.from)"><input type="hidden" name="to" value="\(transfer.to)">
            <input type="hidden" name="amount" value="\(transfer.amount.plain)">
            <dl class="settle-check"><dt>\(t("From"))</dt><dd>\(summary.name(transfer.from))</dd>\
            <dt>\(t("To"))</dt><dd>\(summary.name(transfer.to))</dd></dl>
            <p class="settle-amount">\(Layout.money(transfer.amount))</p>
            <button type="submit" class="primary">\(t("Confirm"))</button>
            </form></details></li>
            """
        }
        return """
        <section aria-labelledby="plan-title">
        <h2 id="plan-title">\(t("Settle up"))</h2>
        <p class="help">\(settles)</p>
        <ul class="plan">\(items)</ul>
        </section>
        """
    }
}
