import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyImport

/// The settings screen's "Your data" (A2): every drink out as CSV, and drinks in from a CSV.
struct YourDataSection {
    var unit: VolumeUnit

    func render(_ context: PageContext, _ message: HTML = "") -> HTML {
        let section = SettingsSection.yourData.rawValue
        let units = VolumeUnit.allCases.map { choice -> HTML in
            "<option value=\"\(choice.rawValue)\"\(choice == unit ? " selected" : "")>\(choice.rawValue)</option>"
        }
        return """
        <section id="\(section)" aria-labelledby="your-data-title">
        <h2 id="your-data-title">Your data</h2>
        \(message)
        <p class="help">Take every drink and removal with you, for a spreadsheet or another app.</p>
        <p><a class="button" href="\(SitePath.drinksCSV.link)" download>Download drinks (CSV)</a></p>
        <p class="help">Bring drinks in from Tally's CSV, or from another app's: a first line that names a date, \
        a time and an amount (date,time,amount,unit). Nothing is imported when a line is wrong, and importing \
        a file twice adds nothing twice.</p>
        <form method="post" action="\(SitePath.importCSV.link)#\(section)" enctype="multipart/form-data" class="stack" data-upload>
        \(Layout.csrfField(context))
        <label for="csv-unit">Amounts in, when the file does not say</label>
        <select id="csv-unit" name="unit">\(units)</select>
        <label for="drinks-csv">CSV of drinks</label>
        <input id="drinks-csv" name="file" type="file" accept=".csv,text/csv" required>
        <progress class="upload-progress" max="100" value="0" hidden aria-label="Sent so far"></progress>
        <button type="submit" class="primary">Import drinks</button>
        </form>
        \(SettingsSection.backToIndex)
        </section>
        """
    }

    /// The settings page after an import, opened at this section and saying what it did.
    static func importedLink(_ report: DrinkCSVImportReport) -> String {
        SitePath.settings.link + "?saved=\(SettingsSection.yourData.rawValue)&drinks=\(report.drinksAdded)&removals=\(report.removalsAdded)"
            + "&already=\(report.alreadyThere)&kinds=\(report.newKinds.count)#\(SettingsSection.yourData.rawValue)"
    }

    /// What an import did, in sentences; nil when the page is not the answer to one.
    static func notice(_ query: Parameters) -> String? {
        guard query.get("saved") == SettingsSection.yourData.rawValue, let drinks = query.get("drinks").flatMap({ Int($0) }) else { return nil }
        let count = { (name: String) in max(0, query.get(name).flatMap { Int($0) } ?? 0) }
        var sentences = DrinkCSVImportReport(drinksAdded: max(0, drinks), removalsAdded: count("removals"), alreadyThere: count("already"),
                                             newKinds: []).sentences
        switch count("kinds") {
        case 0: break
        case 1: sentences.append("It added 1 drink kind: see Drink kinds.")
        case let kinds: sentences.append("It added \(kinds) drink kinds: see Drink kinds.")
        }
        return sentences.joined(separator: " ")
    }
}
