import Foundation
import TallyAPI
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// Who shares an expense, and how, as a form asks it (the quick entry and the edit page): equally
/// among the ticked members, or by each member's share count, exact amount or percentage (a
/// member left empty does not share). Without the script every field shows; with it, the
/// method's own, and what is left to share as you type.
struct SplitFields {
    var members: [LedgerMember]
    var currency: Currency
    /// The fields as typed (`split`, `among-ID`, `part-ID`); none: equally among everyone.
    var values: [String: String]
    /// Why the split was refused, when it was, and the attribute that marks it.
    var refusal: (message: String, invalid: HTML) = ("", "")

    /// The fields that show `split` as it stands.
    static func values(of split: Split) -> [String: String] {
        var values = ["split": split.method.rawValue]
        for part in split.parts {
            if split.method == .equal {
                values["among-\(part.member)"] = "yes"
            } else {
                values["part-\(part.member)"] = part.storedValue
            }
        }
        return values
    }

    func render() -> HTML {
        let chosen = values["split"].flatMap(SplitMethod.init(rawValue:)) ?? .equal
        let methods = [(SplitMethod.equal, t("Equally")), (.shares, t("By shares")), (.exact, t("Exact amounts")), (.percent, t("Percentages"))]
            .map { method, label -> HTML in
                """
                <input type="radio" name="split" id="split-\(method.rawValue)" value="\(method.rawValue)"\(HTML.flag("checked", method == chosen))>\
                <label for="split-\(method.rawValue)">\(label)</label>
                """
            }
        // Ticked: as sent, or everyone when nothing says otherwise (a new form, a split by numbers).
        let noneTicked = !values.keys.contains { $0.hasPrefix("among-") }
        let rows = members.map { member -> HTML in
            let checked = values["among-\(member.id)"] != nil || (noneTicked && (values.isEmpty || chosen != .equal))
            return """
            <li><input type="checkbox" name="among-\(member.id)" id="among-\(member.id)" value="yes"\(HTML.flag("checked", checked))>\
            <label for="among-\(member.id)" id="member-\(member.id)">\(member.name)</label>\
            <input class="part" name="part-\(member.id)" id="part-\(member.id)" inputmode="decimal" autocomplete="off" \
            value="\(values["part-\(member.id)"] ?? "")" aria-labelledby="member-\(member.id)"></li>
            """
        }
        return """
        <fieldset class="split" aria-describedby="split-help split-left split-error"\(refusal.invalid) data-split data-currency="\(currency.code)" \
        data-decimals="\(currency.minorUnits)">
        <legend>\(t("Who shares it"))</legend>
        <fieldset class="toggles methods"><legend class="visually-hidden">\(t("How it is shared"))</legend>\(methods)</fieldset>
        <p class="help" id="split-help">\(t("Equally: tick who shares it. By shares, exact amounts or percentages: give each member's; leave a member empty to leave them out."))</p>
        <ul class="among">\(rows)</ul>
        <p class="left" id="split-left" aria-live="polite"></p>
        <p class="field-error" id="split-error">\(refusal.message)</p>
        </fieldset>
        """
    }

    /// The split a form asks for, as typed: the service checks it against the amount, and its
    /// refusal names the split.
    static func input(_ form: FormFields, _ details: LedgerDetails) throws -> SplitBody {
        let method = form["split"].flatMap(SplitMethod.init(rawValue:)) ?? .equal
        let split: SplitBody
        if method == .equal {
            let among = details.members.filter { form["among-\($0.id)"] != nil }
            guard !among.isEmpty else {
                throw TallyError.invalid("Tick at least one member to share the expense.", field: "split")
            }
            split = among.count == details.members.count
                ? SplitBody()
                : SplitBody(method: .equal, parts: among.map { .init(member: $0.id) })
        } else {
            let parts = details.members.compactMap { member in
                form.numeral("part-\(member.id)").map { SplitBody.Part(member: member.id, value: .text($0)) }
            }
            guard !parts.isEmpty else { throw noneGiven(method) }
            split = .init(method: method, parts: parts)
        }
        return split
    }

    /// The refusal of a split by numbers that gives no member's.
    private static func noneGiven(_ method: SplitMethod) -> TallyError {
        switch method {
        case .equal: TallyError.invalid("Tick at least one member to share the expense.", field: "split")
        case .shares: TallyError.invalid("Give at least one member's share count.", field: "split")
        case .exact: TallyError.invalid("Give at least one member's amount.", field: "split")
        case .percent: TallyError.invalid("Give at least one member's percentage.", field: "split")
        }
    }
}
