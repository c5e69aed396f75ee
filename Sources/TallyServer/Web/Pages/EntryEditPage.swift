import Foundation
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// Editing an expense or a payment (S5): the quick entry's fields, filled in with the entry, the
/// split included. A payment keeps who sent and who received it (delete it and record a new one
/// to change them); its amount, date and note change.
struct EntryEditPage {
    var details: LedgerDetails
    var entry: SpendingEntry
    /// The ledger's other currencies with their last rates, and the day's reference rates.
    var known: KnownRates
    /// The form's fields: the entry's, or as typed when the change was refused.
    var values: [String: String]
    var refusal: Web.Refusal?
    /// Why the receipt last sent was refused.
    var receiptRefusal: String?

    /// The fields that show `entry` as it stands.
    static func values(of entry: SpendingEntry) -> [String: String] {
        var values = ["amount": entry.typedAmount.plain, "date": entry.date.description,
                      "description": entry.description ?? "", "category": entry.category ?? ""]
        values.merge(CurrencyFields.values(of: entry)) { $1 }
        values.merge(PayerToggles.values(of: entry)) { $1 }
        if entry.kind == .expense { values.merge(SplitFields.values(of: entry.split)) { $1 } }
        return values
    }

    private var isPayment: Bool { entry.kind == .payment }
    private var currency: Currency { details.ledger.currency }

    func render(_ context: PageContext) -> HTML {
        let name = { (member: MemberID) in details.members.first { $0.id == member }?.name ?? t("a former member") }
        let title = isPayment ? t("Edit the payment") : t("Edit the expense")
        func refused(_ field: String) -> (message: String, invalid: HTML) {
            guard let refusal, refusal.field == field else { return ("", "") }
            return (refusal.error.said, HTML(unsafe: #" aria-invalid="true""#))
        }
        let amount = refused("amount"), description = refused("description"), date = refused("date")
        let rateField = refusal?.field == "currency" ? "currency" : "rate"
        let currencies = CurrencyFields(ledger: currency, known: known, values: values, refusal: refused(rateField), refusedField: refusal?.field)
        let expenseFields: HTML = isPayment ? "" : PayerToggles(
            members: details.members, chosen: values["payer"].flatMap(MemberID.init),
            several: .init(values: values, currency: currency, refusal: refused("payers"))).render()
        let categoryField: HTML = isPayment ? "" : """
            <label for="category">\(HTML.sentence("Category {0}", LedgerPage.optionalMark))</label>
            <input id="category" name="category" maxlength="50" value="\(values["category"] ?? "")">
            \(SplitFields(members: details.members, currency: currency, values: values, refusal: refused("split")).render())
            """
        let who: HTML = isPayment
            ? "<p class=\"help\">\(t("\(name(entry.payer)) paid \(entry.recipient.map(name) ?? ""); to change who, delete it and record a new one."))</p>"
            : ""
        let (amountText, day, ledgerName) = (LedgerPage.amount(entry), Written.current.longDay(entry.date), details.ledger.name)
        let summary = entry.description.map { t("\($0), \(amountText) on \(day), in \(ledgerName).") }
            ?? (isPayment ? t("A payment, \(amountText) on \(day), in \(ledgerName).") : t("An expense, \(amountText) on \(day), in \(ledgerName)."))
        let marked: Set<String> = isPayment ? ["amount", "description", "date", "currency", "rate"]
            : ["amount", "description", "date", "payers", "split", "currency", "rate"]
        return Layout.page(title, context, spending: true, error: refusal?.banner(besides: marked), """
        <h1>\(title)</h1>
        <p>\(summary)</p>
        \(who)
        \(ReceiptSection(ledger: details.ledger.id, entry: entry, title: entry.description ?? title, refusal: receiptRefusal).render(context))
        <form method="post" action="\(SitePath.editLedgerEntry.link(details.ledger.id, entry.id))" class="stack card quick" novalidate>
        \(Layout.csrfField(context))<input type="hidden" name="seen" value="\(entry.fingerprint)">
        <label for="amount">\(HTML.sentence("Amount ({0})", "<span data-amount-currency>\(currencies.chosen)</span>"))</label>
        \(currencies.render(beside: """
            <input id="amount" name="amount" class="amount-input" inputmode="decimal" autocomplete="off" required \
            value="\(values["amount"] ?? "")" aria-describedby="amount-error"\(amount.invalid)>
            """))
        <p class="field-error" id="amount-error">\(amount.message)</p>
        \(expenseFields)
        <label for="description">\(isPayment ? HTML.sentence("Note {0}", LedgerPage.optionalMark) : HTML.sentence("What for {0}", LedgerPage.optionalMark))</label>
        <input id="description" name="description" maxlength="200" value="\(values["description"] ?? "")" autocomplete="off" \
        aria-describedby="description-error"\(description.invalid)>
        <p class="field-error" id="description-error">\(description.message)</p>
        <label for="date">\(t("Date"))</label>
        <input id="date" name="date" type="date" value="\(values["date"] ?? "")" aria-describedby="date-error"\(date.invalid)>
        <p class="field-error" id="date-error">\(date.message)</p>
        \(categoryField)
        <div class="row"><button type="submit" class="primary">\(t("Save"))</button>\
        <a href="\(SitePath.ledger.link(details.ledger.id))#history-title" class="button">\(t("Cancel"))</a></div>
        </form>
        """)
    }
}
