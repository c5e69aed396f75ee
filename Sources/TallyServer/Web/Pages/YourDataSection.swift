import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyImport
import TallyLanguages

/// The settings screen's "Your data" (A2): every drink out as CSV, and drinks in from a CSV.
struct YourDataSection {
    var unit: VolumeUnit

    func render(_ context: PageContext) -> HTML {
        let section = SettingsSection.yourData.rawValue
        return """
        <section id="\(section)" aria-labelledby="your-data-title">
        <h1 id="your-data-title">\(t("Your data"))</h1>
        <p class="help">\(t("Take every drink and removal with you, for a spreadsheet or another app."))</p>
        <p><a class="button" href="\(SitePath.drinksCSV.link)" download>\(t("Download drinks (CSV)"))</a></p>
        <p class="help">\(t("Bring drinks in from Tally's CSV, or from another app's: a first line that names a date, a time and an amount (date,time,amount,unit).")) \
        \(t("Nothing is imported when a line is wrong, and importing a file twice adds nothing twice."))</p>
        <form method="post" action="\(SitePath.importCSV.link)" enctype="multipart/form-data" class="stack" data-upload>
        \(Layout.csrfField(context))
        <label for="csv-unit">\(t("Amounts in, when the file does not say"))</label>
        <select id="csv-unit" name="unit">\(Layout.unitOptions(unit))</select>
        <label for="drinks-csv">\(t("CSV of drinks"))</label>
        <input id="drinks-csv" name="file" type="file" accept=".csv,text/csv" required>
        <progress class="upload-progress" max="100" value="0" hidden aria-label="\(t("Sent so far"))"></progress>
        <button type="submit" class="primary">\(t("Import drinks"))</button>
        </form>
        <h2>\(t("Everything, as a backup"))</h2>
        <p class="help">\(t("One file with your settings, goals, drink kinds, drinks, bottle, reminders, sleep records and the ledgers you own."))</p>
        <p><a class="button" href="\(SitePath.backupJSON.link)" download>\(t("Download a backup (JSON)"))</a></p>
        <p class="help">\(t("Restore a backup into a new account; into one that has data already, only by merging, which adds what is not there yet and keeps your settings."))</p>
        <form method="post" action="\(SitePath.restoreBackup.link)" enctype="multipart/form-data" class="stack" data-upload>
        \(Layout.csrfField(context))
        <div class="row"><input type="checkbox" id="backup-merge" name="merge" value="yes"><label for="backup-merge">\(t("Merge into the data I have"))</label></div>
        <label for="backup-file">\(t("Backup (JSON)"))</label>
        <input id="backup-file" name="file" type="file" accept=".json,application/json" required>
        <progress class="upload-progress" max="100" value="0" hidden aria-label="\(t("Sent so far"))"></progress>
        <button type="submit">\(t("Restore"))</button>
        </form>
        </section>
        """
    }

    /// The settings page after an import, opened at this section and saying what it did.
    static func importedLink(_ report: DrinkCSVImportReport) -> String {
        SettingsSection.yourData.saved + "&drinks=\(report.drinksAdded)&removals=\(report.removalsAdded)"
            + "&already=\(report.alreadyThere)&kinds=\(report.newKinds.count)"
    }

    /// The settings page after a restore, opened at this section and saying what it did.
    static func restoredLink(_ report: BackupRestoreReport) -> String {
        SettingsSection.yourData.saved + "&restored=\(report.drinksAdded)&removals=\(report.removalsAdded)"
            + "&already=\(report.alreadyThere)&kinds=\(report.newKinds.count)&ledgerEntries=\(report.ledgerEntriesAdded)"
            + "&recurring=\(report.recurringExpensesAdded)&merged=\(report.settingsRestored ? 0 : 1)"
    }

    /// What an import did, in sentences; nil when the page is not the answer to one.
    static func notice(_ query: Parameters) -> String? {
        guard query.get("saved") == SettingsSection.yourData.rawValue else { return nil }
        let count = { (name: String) in max(0, query.get(name).flatMap { Int($0) } ?? 0) }
        if query.get("restored") != nil {
            let (drinks, removals) = (count("restored"), count("removals"))
            var sentences = [t("Restored \(Self.drinks(drinks)) and \(Self.removals(removals)) from the backup.")]
            sentences += Self.alreadyThere(count("already")) + Self.newKinds(count("kinds"))
            let entries = count("ledgerEntries"), recurring = count("recurring")
            if entries > 0 {
                sentences.append(t(one: "It added \(entries) entry to your ledgers.", other: "It added \(entries) entries to your ledgers."))
            }
            if recurring > 0 {
                sentences.append(t(one: "It set up \(recurring) recurring expense again.", other: "It set up \(recurring) recurring expenses again."))
            }
            sentences.append(count("merged") == 1 ? t("Your settings stay as they were.") : t("Your settings are the backup's."))
            return sentences.joined(separator: " ")
        }
        // The drink CSV import's report (DrinkCSVImportReport.sentences), said here in the reader's language.
        guard let drinks = query.get("drinks").flatMap({ Int($0) }) else { return nil }
        let sentences = [t("Imported \(Self.drinks(max(0, drinks))) and \(Self.removals(count("removals"))).")]
            + Self.alreadyThere(count("already")) + Self.newKinds(count("kinds"))
        return sentences.joined(separator: " ")
    }

    /// "1 drink", "2 drinks".
    private static func drinks(_ count: Int) -> String { t(one: "\(count) drink", other: "\(count) drinks") }

    /// "1 removal", "2 removals".
    private static func removals(_ count: Int) -> String { t(one: "\(count) removal", other: "\(count) removals") }

    private static func alreadyThere(_ count: Int) -> [String] {
        count > 0 ? [t(one: "\(count) entry was there already.", other: "\(count) entries were there already.")] : []
    }

    private static func newKinds(_ count: Int) -> [String] {
        count > 0 ? [t(one: "It added \(count) drink kind: see Drink kinds.", other: "It added \(count) drink kinds: see Drink kinds.")] : []
    }
}
