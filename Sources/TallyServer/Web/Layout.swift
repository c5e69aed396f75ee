import Foundation
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// What every page needs besides its own content.
struct PageContext {
    var user: User?
    /// The double-submit CSRF token, repeated in every form.
    var csrf: String
    var path: String
}

enum Layout {
    /// The page around `main`: its `title`, `notice` and `error` are in the reader's language already.
    /// `spending`: a page of shared spending, whose forms and offline entries spending.js runs.
    static func page(_ title: String, _ context: PageContext, spending: Bool = false, notice: String? = nil, error: String? = nil,
                     _ main: HTML) -> HTML {
        let written = Written.current
        return """
        <!doctype html>
        <html lang="\(written.language.tag)" dir="\(written.language.direction)" data-locale="\(written.languageTag)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
        <meta name="color-scheme" content="light dark">
        <meta name="csrf-token" content="\(context.csrf)">
        <meta name="theme-color" content="#0a5bb5">
        <link rel="manifest" href="\(WebManifest.link(for: written.language))">
        <link rel="icon" href="\(StaticAssets.link("icon.svg"))" type="image/svg+xml">
        <link rel="apple-touch-icon" href="\(StaticAssets.link("apple-touch-icon.png"))">
        <title>\(title) · Tally</title>
        <link rel="stylesheet" href="\(StaticAssets.link("app.css"))">
        \(ScriptWords.json(for: written.language).map { HTML(unsafe: #"<script type="application/json" id="tally-words">"# + $0 + "</script>") } ?? "")
        <script src="\(StaticAssets.link("app.js"))" defer></script>
        \(spending ? HTML(unsafe: #"<script src=""# + StaticAssets.link("spending.js") + #"" defer></script>"#) : "")
        </head>
        <body data-locale="\(written.languageTag)">
        <a class="skip" href="#main">\(t("Skip to content"))</a>
        \(header(context))
        <p class="offline" id="offline" role="status" hidden></p>
        <main id="main" tabindex="-1">
        \(message(notice, error))
        \(main)
        </main>
        </body>
        </html>
        """
    }

    private static func header(_ context: PageContext) -> HTML {
        guard context.user != nil else {
            return #"<header class="bar"><span class="brand">Tally</span></header>"#
        }
        let links: [(String, String, String)] = [
            (SitePath.today.link, t("Today"), "M12 3c-3 4.5-6 8-6 11.5a6 6 0 0 0 12 0C18 11 15 7.5 12 3z"),
            (SitePath.history.link, t("History"), "M4 20V10M10 20V4M16 20v-7M22 20H2"),
            (SitePath.spending.link, t("Spending"), "M3 7h18v12H3zM3 11h18M7 15h3"),
            (SitePath.settings.link, t("Settings"), "M4 6h16M4 12h16M4 18h16M8 4v4M16 10v4M10 16v4"),
        ]
        let items = links.map { path, label, icon -> HTML in
            // An invite link (/join/CODE) belongs to Spending.
            let section = SitePath.invitation.matches(context.path) ? SitePath.spending.link : context.path
            let here = path == SitePath.today.link ? section == path : section == path || section.hasPrefix(path + "/")
            let current = here ? HTML(unsafe: #" aria-current="page""#) : ""
            // On a phone the sections are a tab bar at the bottom, each with its icon (seed 002, 004).
            let drawing = HTML(unsafe: "<svg class=\"tab-icon\" viewBox=\"0 0 24 24\" aria-hidden=\"true\" focusable=\"false\"><path d=\"\(icon)\"/></svg>")
            return "<li><a href=\"\(path)\"\(current)>\(drawing)<span>\(label)</span></a></li>"
        }
        return """
        <header class="bar">
        <span class="brand">Tally</span>
        <nav aria-label="\(t("Main"))"><ul>\(items)</ul></nav>
        <form method="post" action="\(SitePath.signOut.link)" class="signout">\(csrfField(context))<button type="submit" class="link">\(t("Sign out"))</button></form>
        </header>
        """
    }

    private static func message(_ notice: String?, _ error: String?) -> HTML {
        if let error { return "<p class=\"message error\" role=\"alert\">\(error)</p>" }
        if let notice { return "<p class=\"message notice\" role=\"status\">\(notice)</p>" }
        return #"<p class="message" role="status" hidden></p>"#
    }

    static func csrfField(_ context: PageContext) -> HTML {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(context.csrf)\">"
    }

    /// A coordinate with at most one decimal, as SVG reads it.
    static func svgNumber(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// Money as the reader's locale writes it (Written): "$12.50", never broken across lines.
    static func money(_ money: Money) -> String { Written.current.money(money) }

    /// Who paid: "Ana", or "Ana €60.00 and Ben €30.00" as the reader's language lists them, each
    /// amount as it writes money.
    static func payers(_ payers: [PayerPart], name: (MemberID) -> String) -> String {
        guard payers.count > 1 else { return payers.first.map { name($0.member) } ?? "" }
        return Written.current.list(payers.map { "\(name($0.member)) \(money($0.amount))" })
    }

    /// A sentence whose amounts ("owes Sam 9.99 EUR") keep their currency on the same line.
    static func keepingAmountsWhole(_ sentence: String, _ currency: Currency) -> String {
        sentence.replacingOccurrences(of: " \(currency.code)", with: "\u{00A0}\(currency.code)")
    }

    /// A drink kind's name as a page shows it: a built-in kind's in the reader's language
    /// ("Wasser"), a kind the person added as they wrote it, capitalized.
    static func kindName(_ name: String) -> String {
        switch name.lowercased() {
        case "water": t("Water")
        case "coffee": t("Coffee")
        case "tea": t("Tea")
        case "juice": t("Juice")
        case "milk": t("Milk")
        case "soda": t("Soda")
        case "other": t("Other")
        default: name.capitalized
        }
    }

    /// A drink kind's name inside a sentence: as it is stored in English ("250 ml of water"),
    /// the kind's translated name in another language.
    static func kindNameInSentence(_ name: String) -> String {
        Written.current.language == .english ? name : kindName(name)
    }

    /// A volume for display: whole units with the unit, as the CLI shows it (H5).
    static func volume(_ ml: Double, _ unit: VolumeUnit) -> String { Written.current.volume(ml, unit) }

    /// "2026-11-26T21:05:00Z": an instant for a machine (a `datetime` attribute, a form's hidden
    /// moment). Foundation's own ISO 8601 style: an ISO8601DateFormatter made per row was 40 %
    /// of a day page's time (ICU builds one at each).
    static func instant(_ date: Date) -> String { date.formatted(.iso8601) }

    /// The options of a unit's select, `chosen` selected: millilitres or ounces for a typed number
    /// (a unit typed with it, "8oz", wins), each with its millilitres for the page's script.
    static func unitOptions(_ chosen: VolumeUnit) -> HTML {
        let options = VolumeUnit.allCases.map { unit -> HTML in
            "<option value=\"\(unit.rawValue)\" data-ml=\"\(unit.toMilliliters(1))\"\(HTML.flag("selected", unit == chosen))>\(unit.rawValue)</option>"
        }
        return "\(options)"
    }

    /// A number for an input field in `unit`, with at most one decimal.
    static func inputValue(_ ml: Double, _ unit: VolumeUnit, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> String {
        let value = unit.fromMilliliters(ml)
        let rounded = (value * 10).rounded(rule) / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
