import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyImport

/// The settings screen's "Your data" (A2): every drink out as CSV, and drinks in from a CSV.
struct YourDataSection {
    var unit: VolumeUnit

    func render(_ context: PageContext) -> HTML {
        let section = SettingsSection.yourData.rawValue
        return """
        <section id="\(section)" aria-labelledby="your-data-title">
        <h1 id="your-data-title">Your data</h1>
        <p class="help">Take every drink and removal with you, for a spreadsheet or another app.</p>
        <p><a class="button" href="\(SitePath.drinksCSV.link)" download>Download drinks (CSV)</a></p>
        <p class="help">Bring drinks in from Tally's CSV, or from another app's: a first line that names a date, \
        a time and an amount (date,time,amount,unit). Nothing is imported when a line is wrong, and importing \
        a file twice adds nothing twice.</p>
        <form method="post" action="\(SitePath.importCSV.link)" enctype="multipart/form-data" class="stack" data-upload>
        \(Layout.csrfField(context))
        <label for="csv-unit">Amounts in, when the file does not say</label>
        <select id="csv-unit" name="unit">\(Layout.unitOptions(unit))</select>
        <label for="drinks-csv">CSV of drinks</label>
        <input id="drinks-csv" name="file" type="file" accept=".csv,text/csv" required>
        <progress class="upload-progress" max="100" value="0" hidden aria-label="Sent so far"></progress>
        <button type="submit" class="primary">Import drinks</button>
        </form>
        <h2>Everything, as a backup</h2>
        <p class="help">One file with your settings, goals, drink kinds, drinks, bottle, reminders, sleep records and \
        the ledgers you own.</p>
        <p><a class="button" href="\(SitePath.backupJSON.link)" download>Download a backup (JSON)</a></p>
        <p class="help">Restore a backup into a new account; into one that has data already, only by merging, \
        which adds what is not there yet and keeps your settings.</p>
        <form method="post" action="\(SitePath.restoreBackup.link)" enctype="multipart/form-data" class="stack" data-upload>
        \(Layout.csrfField(context))
        <div class="row"><input type="checkbox" id="backup-merge" name="merge" value="yes"><label for="backup-merge">Merge into the data I have</label></div>
        <label for="backup-file">Backup (JSON)</label>
        <input id="backup-file" name="file" type="file" accept=".json,application/json" required>
        <progress class="upload-progress" max="100" value="0" hidden aria-label="Sent so far"></progress>
        <button type="submit">Restore</button>
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
            let drinks = AppleHealthImportReport.counted(count("restored"), "drink")
            let removals = AppleHealthImportReport.counted(count("removals"), "removal")
            var sentences = ["Restored \(drinks) and \(removals) from the backup."]
            if count("already") > 0 {
                sentences.append("\(AppleHealthImportReport.counted(count("already"), "entry", plural: "entries")) \(count("already") == 1 ? "was" : "were") there already.")
            }
            sentences += Self.newKinds(count("kinds"))
            if count("ledgerEntries") > 0 {
                sentences.append("It added \(AppleHealthImportReport.counted(count("ledgerEntries"), "entry", plural: "entries")) to your ledgers.")
            }
            if count("recurring") > 0 {
                sentences.append("It set up \(AppleHealthImportReport.counted(count("recurring"), "recurring expense")) again.")
            }
            sentences.append(count("merged") == 1 ? "Your settings stay as they were." : "Your settings are the backup's.")
            return sentences.joined(separator: " ")
        }
        guard let drinks = query.get("drinks").flatMap({ Int($0) }) else { return nil }
        let sentences = DrinkCSVImportReport(drinksAdded: max(0, drinks), removalsAdded: count("removals"), alreadyThere: count("already"),
                                             newKinds: []).sentences + Self.newKinds(count("kinds"))
        return sentences.joined(separator: " ")
    }

    private static func newKinds(_ count: Int) -> [String] {
        switch count {
        case 0: []
        case 1: ["It added 1 drink kind: see Drink kinds."]
        default: ["It added \(count) drink kinds: see Drink kinds."]
        }
    }
}
