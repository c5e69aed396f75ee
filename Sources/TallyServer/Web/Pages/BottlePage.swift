import Foundation
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// The bottle screen (H10, seed 001): the bottle drawn with its water level, one big target to
/// sip, a slider to set the level, and what is left.
struct BottlePage {
    var bottle: Bottle
    var unit: VolumeUnit
    /// What was typed in the bottle's settings when they were refused.
    var retry: [String: String] = [:]
    /// The field the refusal is about: capacityMl or sipMl, as the API names them.
    var refusedField: String?

    func render(_ context: PageContext, error: String? = nil) -> HTML {
        let left = Layout.volume(bottle.levelMl, unit)
        let sip = Layout.volume(bottle.sipMl, unit)
        return Layout.page(t("Bottle"), context, error: error, """
        <h1>\(t("Bottle"))</h1>
        <form method="post" action="\(SitePath.bottleSip.link)" data-swap class="bottle-form">
        \(Layout.csrfField(context))<input type="hidden" name="id" value="\(UUID())">
        <button type="submit" class="bottle-tap" aria-label="\(bottle.isEmpty ? t("The bottle is empty: refill it below") : t("Sip \(sip) from the bottle (\(left) left)"))"\(HTML.flag("aria-disabled=\"true\"", bottle.isEmpty))>
        \(drawing)
        <span class="tap-label">\(bottle.isEmpty ? t("Empty: refill it below") : t("Tap to sip \(sip)"))</span>
        </button>
        </form>
        <p class="left" id="left"><span class="big">\(left)</span> <span class="of">\(t("left of \(Layout.volume(bottle.capacityMl, unit))"))</span></p>
        \(levelForm(context))
        \(settingsForm(context, error: error))
        """)
    }

    /// A bottle outline with the water clipped to its inside, as high as the level.
    private var drawing: HTML {
        let top = 50.0, bottom = 250.0
        let waterTop = bottom - bottle.fraction * (bottom - top)
        let body = "M40 10 H80 V40 C80 48 100 52 100 70 V240 Q100 250 90 250 H30 Q20 250 20 240 V70 C20 52 40 48 40 40 Z"
        return """
        <svg class="bottle" viewBox="0 0 120 260" aria-hidden="true" data-fraction="\(String(format: "%.4f", bottle.fraction))">
        <defs><clipPath id="bottle-inside"><path d="\(body)"></path></clipPath></defs>
        <rect class="water" x="0" y="\(String(format: "%.2f", waterTop))" width="120" height="\(String(format: "%.2f", bottom - waterTop + 10))" clip-path="url(#bottle-inside)"></rect>
        <path class="outline" d="\(body)"></path>
        </svg>
        """
    }

    /// A number for an attribute: "1000", not "1000.0".
    private func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    // The slider moves in any step, so that it reaches a full bottle in any unit and setting it
    // untouched keeps the level as it is.
    private func levelForm(_ context: PageContext) -> HTML {
        """
        <section aria-labelledby="level-title">
        <h2 id="level-title">\(t("Refilled or spilled?"))</h2>
        <form method="post" action="\(SitePath.bottleLevel.link)" data-swap class="stack">
        \(Layout.csrfField(context))
        <label for="level">\(t("Level now"))</label>
        <input type="range" id="level" name="levelMl" min="0" max="\(number(bottle.capacityMl))" step="any" value="\(number(bottle.levelMl))"
          data-unit="\(unit.rawValue)" data-ml-per-unit="\(number(unit.toMilliliters(1)))" aria-describedby="level-value">
        <output id="level-value" for="level">\(Layout.volume(bottle.levelMl, unit))</output>
        <div class="row">
        <button type="submit">\(t("Set the level"))</button>
        <button type="submit" name="fill" value="yes" class="primary">\(t("Fill it up"))</button>
        </div>
        <p class="help">\(t("Setting the level is not drinking: nothing is logged."))</p>
        </form>
        </section>
        """
    }

    /// The bottle's size and sip; a refusal is said at the field it is about, as well as at the top.
    private func settingsForm(_ context: PageContext, error: String?) -> HTML {
        func reason(_ field: String) -> String { refusedField == field ? error ?? "" : "" }
        // The field a refusal is about is marked, and has the focus.
        func marked(_ field: String) -> HTML {
            refusedField == field ? HTML(unsafe: #" aria-invalid="true" autofocus"#) : ""
        }
        return """
        <section aria-labelledby="bottle-settings-title">
        <h2 id="bottle-settings-title">\(t("Your bottle"))</h2>
        <form method="post" action="\(SitePath.bottleSettings.link)" class="grid">
        \(Layout.csrfField(context))
        <label for="capacity">\(t("Holds (\(unit.rawValue))"))</label>
        <input id="capacity" name="capacity" inputmode="decimal" required value="\(retry["capacity"] ?? Layout.inputValue(bottle.capacityMl, unit))" aria-describedby="capacity-error"\(marked("capacityMl"))>
        <p class="field-error" id="capacity-error">\(reason("capacityMl"))</p>
        <label for="sip-size">\(t("A sip (\(unit.rawValue))"))</label>
        <input id="sip-size" name="sip" inputmode="decimal" required value="\(retry["sip"] ?? Layout.inputValue(bottle.sipMl, unit))" aria-describedby="sip-error"\(marked("sipMl"))>
        <p class="field-error" id="sip-error">\(reason("sipMl"))</p>
        <button type="submit">\(t("Save"))</button>
        </form>
        </section>
        """
    }
}
