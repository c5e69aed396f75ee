import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyImport
import TallyRepositories
import TallyServices

/// A person's data in and out (A2): their drinks as CSV, and everything as one backup.
struct DataController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.on(API.exportDrinksCSV, use: exportDrinksCSV)
        group.on(API.importDrinksCSV, use: importDrinksCSV)
        group.on(API.exportBackup, use: exportBackup)
        group.on(API.restoreBackup, use: restoreBackup)
    }

    @Sendable func exportBackup(_ request: Request, context: SignedInContext) async throws -> Response {
        try await PersonBackupTransfer.download(services.hydration(context), services.spending(context))
    }

    /// The body is the backup itself; `merge=true` adds it to an account that has data.
    @Sendable func restoreBackup(_ request: Request, context: SignedInContext) async throws -> JSONBody<BackupRestoreReport> {
        let merge = try request.query("merge", { ["true": true, "false": false][$0] }, form: Phrase("true or false")) ?? false
        let (hydration, spending) = (services.hydration(context), services.spending(context))
        let report = try await services.uploads.run(for: context.user.id, receiving: request) { request in
            try await PersonBackupTransfer.restoring(request.body, merge: merge, hydration, spending)
        }
        return JSONBody(report, status: .ok)
    }

    @Sendable func exportDrinksCSV(_ request: Request, context: SignedInContext) async throws -> Response {
        try await DrinkCSVUpload.download(services.hydration(context))
    }

    /// The body is the CSV itself; `unit` (ml or oz) is the amount's unit when the file does not say it.
    @Sendable func importDrinksCSV(_ request: Request, context: SignedInContext) async throws -> JSONBody<DrinkCSVImportReport> {
        let unit = try request.query("unit", { VolumeUnit(typed: $0) }, form: Phrase("ml or oz"))
        let hydration = services.hydration(context)
        let report = try await services.uploads.run(for: context.user.id, receiving: request) { request in
            try await DrinkCSVUpload.importing(request.body, into: hydration, unit: unit)
        }
        return JSONBody(report, status: report.drinksAdded + report.removalsAdded > 0 ? .created : .ok)
    }
}
