import Foundation
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// The currency an expense or a payment is typed in, beside its amount, and its rate to the
/// ledger's (S2): the ledger's own by default; another (a trip abroad) asks for the rate, filled
/// in with the one the ledger last used for it. Without the script the rate field always shows;
/// with it, only for another currency, and the amount's label names the chosen one.
struct CurrencyFields {
    var ledger: Currency
    /// The ledger's other currencies with their last rates, and the day's reference rates.
    var known: KnownRates
    /// The fields as typed (`currency`, `rate`), or as the entry has them.
    var values: [String: String]
    /// The currency a new entry starts in when not the ledger's: the reader's own latest one.
    var usual: Currency? = nil
    /// Why the currency or the rate was refused, and which of the two (`currency`, `rate`).
    var refusal: (message: String, invalid: HTML) = ("", "")
    var refusedField: String? = nil
    /// Put before the fields' ids, for a second form on the page ("pay-").
    var idPrefix = ""

    /// Codes offered as you type, after the ledger's own ones; any ISO 4217 code may be typed.
    static let common = ["EUR", "USD", "GBP", "CHF", "JPY", "CAD", "AUD", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF",
                         "TRY", "MXN", "BRL", "CNY", "INR", "THB", "ZAR", "NZD", "SGD", "HKD", "KRW", "MAD", "EGP", "AED"]

    /// The fields that show an entry's currency and rate.
    static func values(of entry: SpendingEntry) -> [String: String] {
        guard let original = entry.original else { return ["currency": entry.amount.currency.code] }
        return ["currency": original.amount.currency.code, "rate": Written.current.exact(original.rate.value)]
    }

    var chosen: String { values["currency"].map { $0.uppercased() } ?? usual?.code ?? ledger.code }

    /// `amountInput` with the currency's code beside it (named for screen readers only: the
    /// amount's label names the currency), then the rate, which shows for another currency.
    func render(beside amountInput: HTML) -> HTML {
        let rates = known.all(in: ledger)
        let codes = [ledger.code] + known.ledger.map(\.spent.currency.code) + Self.common + rates.keys.sorted()
        var seen = Set<String>()
        let offered = codes.filter { seen.insert($0).inserted }
        let options = offered.map { code -> HTML in "<option value=\"\(code)\"></option>" }
        let rateList = rates.sorted { $0.key < $1.key }.map { "\($0.key)=\(Written.current.exact($0.value.value))" }.joined(separator: " ")
        // Which currencies have other decimals than two, for the page's own sums while offline.
        let decimals = offered.compactMap { try? Currency(code: $0) }.filter { $0.minorUnits != 2 }
            .map { "\($0.code)=\($0.minorUnits)" }.joined(separator: " ")
        let rate = values["rate"] ?? rates[chosen].map { Written.current.exact($0.value) } ?? ""
        let from: HTML = "1 <span data-rate-from>\(chosen)</span>"
        let (code, rateID, error, list) = (idPrefix + "currency", idPrefix + "rate", idPrefix + "rate-error", idPrefix + "currency-codes")
        return """
        <div class="currency-fields" data-currency-fields data-ledger="\(ledger.code)" data-rates="\(rateList)" data-decimals="\(decimals)">
        <div class="amount-and-currency">\(amountInput)<span id="\(code)-name" class="visually-hidden">\(t("Currency"))</span>\
        <input id="\(code)" name="currency" class="currency-code" value="\(chosen)" list="\(list)" maxlength="3" aria-labelledby="\(code)-name" \
        autocomplete="off" autocapitalize="characters" spellcheck="false" aria-describedby="\(error)"\(refusedField == "currency" ? refusal.invalid : "")></div>
        <datalist id="\(list)">\(options)</datalist>
        <span class="rate-field" data-rate-field>
        <label for="\(rateID)">\(HTML.sentence("Rate: {0} = … {1}", from, "\(ledger.code)"))</label>
        <input id="\(rateID)" name="rate" class="rate" inputmode="decimal" autocomplete="off" value="\(rate)" \
        aria-describedby="\(error)"\(refusedField == "rate" ? refusal.invalid : "")>
        </span>
        <p class="field-error" id="\(error)" aria-live="polite">\(refusal.message)</p>
        </div>
        """
    }

    /// The currency and rate a form sends, nil when left empty (the ledger's currency; its last rate).
    static func input(_ form: FormFields) -> (currency: String?, rate: String?) {
        let code = form["currency"]?.trimmingCharacters(in: .whitespaces)
        let rate = form.numeral("rate")?.trimmingCharacters(in: .whitespaces)
        return (code?.isEmpty == false ? code : nil, rate?.isEmpty == false ? rate : nil)
    }
}
