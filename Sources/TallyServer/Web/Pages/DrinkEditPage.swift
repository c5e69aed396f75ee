import Foundation
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// A drink changed after it was logged (H3): its amount, kind, day, time and note, or deleted
/// (after a page that asks). A refusal comes back with what was typed and the reason at the top.
struct DrinkEditPage {
    var drink: Intake
    var kinds: [DrinkKind]
    var unit: VolumeUnit
    var zone: TimeZone
    var today: LocalDate
    /// What was typed when the server refused it.
    var retry: [String: String] = [:]

    func render(_ context: PageContext, error: String? = nil) -> HTML {
        let options = kinds.filter { !$0.isRetired || $0.id == drink.kindID }.map { kind -> HTML in
            let chosen = retry["kind"].map { $0 == kind.name } ?? (kind.id == drink.kindID)
            return "<option value=\"\(kind.name)\"\(HTML.flag("selected", chosen))>\(Layout.kindName(kind.name))</option>"
        }
        let day = LocalDate(containing: drink.at, in: zone)
        let back = day == today ? SitePath.today.link : SitePath.day.link(day)
        return Layout.page(t("Change a drink"), context, error: error, """
        <p class="back"><a href="\(back)">\(Written.current.day(day, today: today))</a></p>
        <h1>\(t("Change a drink"))</h1>
        <form method="post" action="\(SitePath.editEntry.link(drink.id))" class="stack">
        \(Layout.csrfField(context))
        <div class="amount-unit">
        <div><label for="amount">\(t("Amount"))</label>
        <input id="amount" name="amount" type="text" inputmode="decimal" autocomplete="off" required
               value="\(retry["amount"] ?? Layout.inputValue(drink.volumeMl, unit))"></div>
        <div><label for="unit">\(t("Unit"))</label><select id="unit" name="unit">\(Layout.unitOptions(retry["unit"].flatMap(VolumeUnit.init(rawValue:)) ?? unit))</select></div>
        </div>
        <label for="kind">\(t("Drink"))</label>
        <select id="kind" name="kind">\(options)</select>
        <div class="row dates">
        <span><label for="date">\(t("Day"))</label><input id="date" name="date" type="date" required value="\(retry["date"] ?? day.description)"></span>
        <span><label for="time">\(t("Time"))</label><input id="time" name="time" type="time" required value="\(retry["time"] ?? TimeOfDay(of: drink.at, in: zone).description)"></span>
        </div>
        <label for="note">\(t("Note"))</label>
        <textarea id="note" name="note" rows="2" maxlength="\(Intake.maximumNoteLength)">\(retry["note"] ?? drink.note ?? "")</textarea>
        <button type="submit" class="primary">\(t("Save"))</button>
        </form>
        <form method="post" action="\(SitePath.deleteEntry.link(drink.id))" class="row">
        \(Layout.csrfField(context))<button type="submit" class="danger">\(t("Delete this drink"))</button>
        </form>
        """)
    }
}
