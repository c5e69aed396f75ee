import Foundation
import TallyAPI
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// The today screen (A3, H2–H6, H12).
struct TodayPage {
    var day: DaySummary
    var settings: HydrationSettings
    var kinds: [DrinkKind]
    var today: LocalDate
    /// The day's revision when it was read: the page reads itself again when it moves.
    var revision: Int64?
    /// On a past day's page, the moment its forms log at (that day, at the time it is now); nil today.
    var loggedAt: Date?
    /// The kind the quick-add buttons log (`?kind=coffee`); water unless chosen.
    var quickKind: String = DrinkKind.defaultName

    var isToday: Bool { day.date == today }
    /// A day still to come: nothing can be drunk on it yet, so its page offers nothing to add.
    var isFuture: Bool { day.date > today }
    /// "Today", "Yesterday", "Tue 24 Nov", as the reader's locale writes a day.
    var title: String { Written.current.day(day.date, today: today) }

    var unit: VolumeUnit { settings.unit }

    /// A custom amount the server refused: shown again, open, with the reason by the field.
    struct CustomInput {
        var amount: String
        var remove: Bool
        var kind: String?
        var unit: VolumeUnit?
        var time: String?
        var error: String
    }

    func render(_ context: PageContext, notice: String? = nil, error: String? = nil, custom: CustomInput? = nil) -> HTML {
        Layout.page(title, context, notice: notice, error: error, """
        <section class="today" aria-labelledby="day-title" data-day="\(day.date)"\
        \(revision.map { HTML(unsafe: " data-changes=\"/api/v1/\(API.dayChanges.path(day.date))\" data-revision=\"\($0)\"") } ?? "")>
        <h1 id="day-title">\(title)</h1>
        \(dayNote)
        \(progress)
        \(adding(context, retry: custom))
        \(isToday ? HTML("<p><a href=\"\(SitePath.bottle.link)\">\(t("Drink from your bottle →"))</a></p>") : "")
        <h2 id="drinks-title">\(isToday ? t("Today's drinks") : t("Drinks"))</h2>
        \(entries(context))
        </section>
        """)
    }

    /// The buttons and the form that add a drink; none on a day to come.
    private func adding(_ context: PageContext, retry: CustomInput?) -> HTML {
        isFuture ? "" : "\(kindChoice)\(presets(context))\(customForm(context, retry: retry))"
    }

    /// On another day's page, which day what is added counts for, or that the day is still to come.
    private var dayNote: HTML {
        let long = Written.current.longDay(day.date)
        if isToday { return "" }
        if isFuture { return "<p class=\"help\">\(t("\(long) has not come yet: drinks are added on the day."))</p>" }
        return "<p class=\"help\">\(t("\(long): what you add here counts for this day."))</p>"
    }

    // The large total, and a ring that fills to the goal (above 100 % the percentage says so).
    private var progress: HTML {
        let total = Layout.volume(day.totalMl, unit)
        guard let goal = day.goalMl, let percent = day.percent else {
            return """
            <div class="progress no-goal" id="progress" data-total-ml="\(day.totalMl)">
            <p class="total"><span class="big">\(total)</span><span class="of">\(t("no goal set"))</span></p>
            </div>
            """
        }
        let circumference = 2 * Double.pi * 52
        let filled = min(percent, 100) / 100
        let offset = String(format: "%.2f", circumference * (1 - filled))
        let percentText = "\(Int(percent.rounded())) %"
        return """
        <div class="progress\(day.goalMet ? " met" : "")" id="progress" data-total-ml="\(day.totalMl)">
        <svg class="ring" viewBox="0 0 120 120" role="img" aria-labelledby="ring-label">
        <title id="ring-label">\(t("\(percentText) of your \(Layout.volume(goal, unit)) goal"))</title>
        <circle class="track" cx="60" cy="60" r="52"></circle>
        <circle class="fill" cx="60" cy="60" r="52" stroke-dasharray="\(String(format: "%.2f", circumference))" stroke-dashoffset="\(offset)"></circle>
        </svg>
        <p class="total"><span class="big" id="total">\(total)</span>
        <span class="of">\(t("of \(Layout.volume(goal, unit))"))</span>
        <span class="percent" id="percent">\(percentText)</span></p>
        </div>
        """
    }

    /// The drinks the quick-add buttons may log, each a link that makes it theirs.
    private var kindChoice: HTML {
        // Water first: the buttons' own drink.
        let active = kinds.filter { !$0.isRetired }.sorted { ($0.name == DrinkKind.defaultName ? 0 : 1) < ($1.name == DrinkKind.defaultName ? 0 : 1) }
        guard active.count > 1 else { return "" }
        let here = isToday ? SitePath.today.link : SitePath.day.link(day.date)
        let links = active.map { kind -> HTML in
            let chosen = kind.name.caseInsensitiveCompare(quickKind) == .orderedSame
            let query = kind.name == DrinkKind.defaultName ? ""
                : "?kind=" + SitePath.encoded(kind.name)
            return "<li><a href=\"\(here)\(query)\"\(HTML.flag(#"aria-current="true""#, chosen))>\(Layout.kindName(kind.name))</a></li>"
        }
        return "<nav class=\"quick-kinds\" aria-label=\"\(t("What the buttons add"))\"><ul>\(links)</ul></nav>"
    }

    private func presets(_ context: PageContext) -> HTML {
        let amounts = settings.presets.amountsMl
        let kindField: HTML = quickKind == DrinkKind.defaultName ? "" : "<input type=\"hidden\" name=\"kind\" value=\"\(quickKind)\">"
        let buttons = amounts.map { ml -> HTML in
            """
            <form method="post" action="\(SitePath.drinks.link)" data-api="intake">
            \(Layout.csrfField(context))\(atField)\(kindField)<input type="hidden" name="volumeMl" value="\(ml)">
            <button type="submit" class="preset" aria-label="\(t("Add \(Layout.volume(ml, unit)) of \(quickKind.lowercased())"))">+\(Layout.volume(ml, unit))</button>
            </form>
            """
        }
        let smallest = amounts.min() ?? 100
        return """
        <div class="presets" role="group" aria-label="\(t("Quick add"))">
        \(buttons)
        <form method="post" action="\(SitePath.removals.link)" data-api="removal">
        \(Layout.csrfField(context))\(atField)<input type="hidden" name="volumeMl" value="\(smallest)">
        <button type="submit" class="preset remove" aria-label="\(t("Remove \(Layout.volume(smallest, unit))"))">−\(Layout.volume(smallest, unit))</button>
        </form>
        </div>
        """
    }

    /// On a past day, the moment each form logs at, so that what is added counts for that day.
    private var atField: HTML {
        guard let loggedAt else { return "" }
        return "<input type=\"hidden\" name=\"at\" value=\"\(Layout.instant(loggedAt))\">"
    }

    /// The custom amount: a dialog with JavaScript, a disclosure without it; either way a form
    /// that checks the amount before it is sent, and the server checks it again.
    func customForm(_ context: PageContext, retry: CustomInput? = nil) -> HTML {
        let chosen = retry?.kind ?? DrinkKind.defaultName
        let options = kinds.filter { !$0.isRetired }.map { kind -> HTML in
            "<option value=\"\(kind.name)\"\(HTML.flag("selected", kind.name == chosen))>\(Layout.kindName(kind.name))</option>"
        }
        let remove = retry?.remove ?? false
        let invalid = t("Enter an amount more than 0 and at most \(Layout.volume(EntryVolume.maximumMl, unit)), such as 250, 250 ml or 8 oz.")
        return """
        <details class="custom" id="custom"\(HTML.flag("open", retry != nil))>
        <summary>\(t("Custom amount"))</summary>
        <form method="post" action="\(SitePath.entries.link)" class="stack" data-api="custom" novalidate data-invalid="\(invalid)"
              data-ml-per-unit="\(unit.toMilliliters(1))" data-unit="\(unit.rawValue)">
        \(Layout.csrfField(context))\(atField)
        <fieldset class="toggle">
        <legend>\(t("Add or remove"))</legend>
        <input type="radio" id="mode-add" name="mode" value="add"\(HTML.flag("checked", !remove))><label for="mode-add">\(t("Add"))</label>
        <input type="radio" id="mode-remove" name="mode" value="remove"\(HTML.flag("checked", remove))><label for="mode-remove">\(t("Remove"))</label>
        </fieldset>
        <div class="amount-unit">
        <div><label for="amount">\(t("Amount"))</label>
        <input id="amount" name="amount" type="text" inputmode="decimal" autocomplete="off" required data-max-ml="\(EntryVolume.maximumMl)"
               aria-describedby="amount-error" value="\(retry?.amount ?? "")"\(HTML.flag(#"aria-invalid="true""#, retry != nil))></div>
        <div><label for="unit">\(t("Unit"))</label><select id="unit" name="unit">\(Layout.unitOptions(retry?.unit ?? unit))</select></div>
        </div>
        <p id="amount-error" class="field-error" aria-live="polite">\(retry?.error ?? "")</p>
        <label for="kind">\(t("Drink"))</label>
        <select id="kind" name="kind">\(options)</select>
        <label for="custom-time">\(t("Time")) <span class="help">\(isToday ? t("(now if left empty)") : t("(this time of day if left empty)"))</span></label>
        <input id="custom-time" name="time" type="time" value="\(retry?.time ?? "")">
        <input type="hidden" name="id" value="\(UUID())">
        <button type="submit" class="primary">\(t("Log it"))</button>
        </form>
        </details>
        """
    }

    private func entries(_ context: PageContext) -> HTML {
        guard !day.entries.isEmpty else {
            return "<p class=\"empty\" id=\"entries\">\(isToday ? t("No drinks yet today.") : t("No drinks on this day."))</p>"
        }
        // Newest first: the drink just logged is at the top, by the buttons. Sips from the bottle
        // one after another are one row, which opens for each sip.
        let items = Self.runs(of: day.entries.sorted { $0.at > $1.at }).map { run -> HTML in
            run.count == 1 ? row(run[0], context) : sips(run, context)
        }
        return "<ul class=\"entries\" id=\"entries\" aria-labelledby=\"drinks-title\">\(items)</ul>"
    }

    /// The entries in runs: each run of sips from the bottle one after another, and every other entry alone.
    static func runs(of entries: [DayEntry]) -> [[DayEntry]] {
        var runs: [[DayEntry]] = []
        for entry in entries {
            if Self.isSip(entry), let last = runs.last?.last, Self.isSip(last) {
                runs[runs.count - 1].append(entry)
            } else {
                runs.append([entry])
            }
        }
        return runs
    }

    private static func isSip(_ entry: DayEntry) -> Bool {
        if case .intake(let intake) = entry { return intake.source == .bottle }
        return false
    }

    /// A run of sips, newest first: "9:05 PM–9:40 PM · Bottle · 4 sips · +400 ml", open for each.
    private func sips(_ run: [DayEntry], _ context: PageContext) -> HTML {
        let total = run.reduce(0.0) { sum, entry in
            if case .intake(let intake) = entry { return sum + intake.effectiveMl }
            return sum
        }
        let first = Written.current.time(run.last!.at, in: settings.zone), last = Written.current.time(run[0].at, in: settings.zone)
        return """
        <li class="sips"><details><summary>
        <time datetime="\(Layout.instant(run.last!.at))">\(first)–\(last)</time>
        <span class="what">\(t(one: "Bottle · \(run.count) sip", other: "Bottle · \(run.count) sips"))</span>
        <span class="amount">+\(Layout.volume(total, unit))</span></summary>
        <ul class="entries">\(run.map { row($0, context) })</ul>
        </details></li>
        """
    }

    private func row(_ entry: DayEntry, _ context: PageContext) -> HTML {
        let time = Written.current.time(entry.at, in: settings.zone)
        let what: String
        let amount: String
        // What the page's script needs to log the entry again when its delete is undone.
        let again: HTML
        let at = Layout.instant(entry.at)
        switch entry {
        case .intake(let intake):
            what = "\(Layout.kindName(intake.kindName)) · \(Layout.volume(intake.volumeMl, unit))"
            amount = "+" + Layout.volume(intake.effectiveMl, unit)
            again = "data-again=\"intake\" data-volume-ml=\"\(intake.volumeMl)\" data-kind=\"\(intake.kindName)\" data-at=\"\(at)\" data-note=\"\(intake.note ?? "")\""
        case .removal(let removal):
            what = t("Removed")
            amount = "−" + Layout.volume(removal.volumeMl, unit)
            again = "data-again=\"removal\" data-volume-ml=\"\(removal.volumeMl)\" data-at=\"\(at)\""
        }
        let edit: HTML = if case .intake = entry {
            "<a href=\"\(SitePath.editEntry.link(entry.id))\" class=\"button edit\" aria-label=\"\(t("Change \(what.lowercased()) at \(time)"))\">\(t("Edit"))</a>"
        } else { "" }
        return """
        <li \(again)>
        <time datetime="\(at)">\(time)</time>
        <span class="what">\(what)</span>
        <span class="amount">\(amount)</span>
        <span class="actions">\(edit)
        <form method="post" action="\(SitePath.deleteEntry.link(entry.id))" data-api="delete" data-what="\(t("\(what.lowercased()) at \(time)"))">
        \(Layout.csrfField(context))
        <button type="submit" class="delete" aria-label="\(t("Delete \(what.lowercased()) at \(time)"))">\(t("Delete"))</button>
        </form></span>
        </li>
        """
    }

    /// Without JavaScript, deleting asks on a page of its own.
    static func confirmDelete(_ context: PageContext, entry: DayEntry, unit: VolumeUnit) -> HTML {
        let what: String = switch entry {
        case .intake(let intake): t("\(Layout.volume(intake.volumeMl, unit)) of \(Layout.kindNameInSentence(intake.kindName))")
        case .removal(let removal): t("the removal of \(Layout.volume(removal.volumeMl, unit))")
        }
        return Layout.page(t("Delete?"), context, """
        <h1>\(t("Delete \(what)?"))</h1>
        <form method="post" action="\(SitePath.deleteEntry.link(entry.id))" class="row">
        \(Layout.csrfField(context))
        <input type="hidden" name="confirm" value="yes">
        <button type="submit" class="danger">\(t("Delete"))</button>
        <a href="\(SitePath.today.link)" class="button secondary">\(t("Keep it"))</a>
        </form>
        """)
    }
}
