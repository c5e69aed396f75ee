import Foundation
import TallyAPI
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// Who paid, as big toggles: a radio button per member, for the quick entry, the edit page and
/// a recurring expense's form. The quick entry and the edit page add "Several", with what each
/// member paid; without the script those amounts always show, with it only while "Several" is
/// chosen, and what is left to pay is said as you type.
struct PayerToggles {
    var members: [LedgerMember]
    var chosen: MemberID?
    /// The user's own member, marked "(you)"; nil marks no one.
    var you: MemberID? = nil
    /// Offers several payers: the fields as typed (`payer` is "several", `paid-ID`), the
    /// currency, and why they were refused.
    var several: Several? = nil

    struct Several {
        var values: [String: String]
        var currency: Currency
        var refusal: (message: String, invalid: HTML) = ("", "")

        var isChosen: Bool { values["payer"] == PayerToggles.severalValue }
    }

    /// The `payer` field's value for several payers.
    static let severalValue = "several"

    /// The fields that show who paid `entry`.
    static func values(of entry: SpendingEntry) -> [String: String] {
        guard entry.hasSeveralPayers else { return ["payer": String(entry.payer)] }
        var values = ["payer": severalValue]
        for payer in entry.typedPayers { values["paid-\(payer.member)"] = payer.amount.plain }
        return values
    }

    func render() -> HTML {
        let severalChosen = several?.isChosen ?? false
        var toggles = members.map { member -> HTML in
            """
            <input type="radio" name="payer" id="payer-\(member.id)" value="\(member.id)"\(HTML.flag("checked", !severalChosen && member.id == chosen))>\
            <label for="payer-\(member.id)">\(member.id == you ? t("\(member.name) (you)") : member.name)</label>
            """
        }
        guard let several else {
            return "<fieldset class=\"payers\"><legend>\(t("Paid by"))</legend><div class=\"toggles\">\(toggles)</div></fieldset>"
        }
        toggles.append("""
            <input type="radio" name="payer" id="payer-several" value="\(Self.severalValue)"\(HTML.flag("checked", severalChosen))>\
            <label for="payer-several">\(t("Several"))</label>
            """)
        let amounts = members.map { member -> HTML in
            """
            <li><label for="paid-\(member.id)" id="paid-label-\(member.id)">\(member.name)</label>\
            <input class="paid" name="paid-\(member.id)" id="paid-\(member.id)" inputmode="decimal" autocomplete="off" \
            value="\(several.values["paid-\(member.id)"] ?? "")"></li>
            """
        }
        return """
        <fieldset class="payers" data-payers data-currency="\(several.currency.code)" data-decimals="\(several.currency.minorUnits)" \
        aria-describedby="payers-left payers-error"\(several.refusal.invalid)>
        <legend>\(t("Paid by"))</legend>
        <fieldset class="toggles"><legend class="visually-hidden">\(t("Who paid"))</legend>\(toggles)</fieldset>
        <p class="help" id="payers-help">\(t("Several: give what each member paid (in \(several.currency.code)); leave a member empty if they paid nothing."))</p>
        <ul class="paid-list">\(amounts)</ul>
        <p class="left" id="payers-left" aria-live="polite"></p>
        <p class="field-error" id="payers-error">\(several.refusal.message)</p>
        </fieldset>
        """
    }

    /// Who a form says paid: one member, or several with what each paid as typed. The service
    /// checks them; its refusal names the payers, and the page shows it there.
    static func input(_ form: FormFields, _ details: LedgerDetails) throws -> (one: MemberID?, several: [PayerBody]?) {
        guard form["payer"] == severalValue else { return (form["payer"].flatMap(MemberID.init), nil) }
        let parts = details.members.compactMap { member in
            form.numeral("paid-\(member.id)").map { PayerBody(member: member.id, paid: .text($0)) }
        }
        guard !parts.isEmpty else {
            throw TallyError.invalid("Give what each member paid, or choose the one who paid it all.", field: "payers")
        }
        return (nil, parts)
    }
}
