import Foundation
import Hummingbird
import TallyImport
import TallyLanguages

/// The settings screen's Apple Health import (A2): water as drinks, sleep for the reminders.
struct HealthImportSection {
    func render(_ context: PageContext) -> HTML {
        """
        <section id="apple-health" aria-labelledby="health-title">
        <h1 id="health-title">\(t("Apple Health"))</h1>
        <p class="help">\(t("On your iPhone, open Health, tap your picture, then Export All Health Data, and save export.zip. Its water becomes drinks here, and its sleep can set your reminders' waking hours. Importing it again adds nothing twice."))</p>
        <form method="post" action="\(SitePath.appleHealth.link)" enctype="multipart/form-data" class="stack">
        \(Layout.csrfField(context))
        <label for="health-export">\(t("Apple Health export (export.zip or export.xml)"))</label>
        <input id="health-export" name="export" type="file" accept=".zip,.xml,application/zip,text/xml" required>
        <button type="submit" class="primary">\(t("Import"))</button>
        </form>
        <p class="help">\(t("Drinks you deleted after importing them stay deleted when you import the same export again. To have them back, forget them here, then import again."))</p>
        <form method="post" action="\(SitePath.forgetDeletedImports.link)">
        \(Layout.csrfField(context))
        <button type="submit">\(t("Forget what I deleted from imports"))</button>
        </form>
        </section>
        """
    }

    /// The section's page after an import, saying what it did (read back by `notice`).
    static func importedLink(_ report: AppleHealthImporter.Report) -> String {
        SettingsSection.appleHealth.link + "?imported=\(report.drinksAdded)&already=\(report.drinksAlreadyThere)&sleep=\(report.sleepRecordsAdded)&skipped=\(report.skipped)"
    }

    /// The settings page at this section, saying how many deleted drinks were forgotten.
    static func forgottenLink(_ forgotten: Int) -> String {
        SettingsSection.appleHealth.saved + "&forgotten=\(forgotten)"
    }

    /// What forgetting did, in a sentence; nil when the page is not the answer to it.
    static func forgottenNotice(_ query: Parameters) -> String? {
        guard let forgotten = query.get("forgotten").flatMap({ Int($0) }), forgotten >= 0 else { return nil }
        guard forgotten > 0 else { return t("No deleted drinks from imports to forget.") }
        return t(one: "\(forgotten) deleted drink from an import is forgotten: importing the export again brings it back.",
                 other: "\(forgotten) deleted drinks from imports are forgotten: importing the export again brings them back.")
    }

    /// What an import did, in sentences; nil when the page is not the answer to one.
    static func notice(_ query: Parameters) -> String? {
        guard let imported = query.get("imported").flatMap({ Int($0) }) else { return nil }
        let count = { (name: String) in query.get(name).flatMap { Int($0) } ?? 0 }
        let report = AppleHealthImporter.Report(drinksAdded: imported, drinksAlreadyThere: count("already"),
                                                sleepRecordsAdded: count("sleep"), skipped: count("skipped"))
        return report.sentences.joined(separator: " ")
    }
}
