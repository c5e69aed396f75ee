import Foundation
import Hummingbird
import TallyImport

/// The settings screen's Apple Health import (A2): water as drinks, sleep for the reminders.
struct HealthImportSection {
    func render(_ context: PageContext) -> HTML {
        """
        <section id="apple-health" aria-labelledby="health-title">
        <h2 id="health-title">Apple Health</h2>
        <p class="help">On your iPhone, open Health, tap your picture, then Export All Health Data, and save export.zip. \
        Its water becomes drinks here, and its sleep can set your reminders' waking hours. Importing it again adds nothing twice.</p>
        <form method="post" action="\(SitePath.appleHealth.link)" enctype="multipart/form-data" class="stack">
        \(Layout.csrfField(context))
        <label for="health-export">Apple Health export (export.zip or export.xml)</label>
        <input id="health-export" name="export" type="file" accept=".zip,.xml,application/zip,text/xml" required>
        <button type="submit" class="primary">Import</button>
        </form>
        \(SettingsSection.backToIndex)
        </section>
        """
    }

    /// The redirect's query after an import, read back by `notice`.
    static func query(_ report: AppleHealthImporter.Report) -> String {
        "imported=\(report.drinksAdded)&already=\(report.drinksAlreadyThere)&sleep=\(report.sleepRecordsAdded)&skipped=\(report.skipped)"
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
