import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyImport
import TallyRepositories
import TallyServices

/// Apple Health's export brought in (A2): water as drinks, sleep records for the reminders.
struct HealthImportController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.on(API.importAppleHealth, use: importAppleHealth)
        group.on(API.forgetDeletedImports, use: forgetDeletedImports)
    }

    /// The body is `export.zip` as the Health app shares it, or the `export.xml` inside it.
    @Sendable func importAppleHealth(_ request: Request, context: SignedInContext) async throws -> JSONBody<AppleHealthImportReport> {
        let hydration = services.hydration(context)
        let report = try await services.uploads.run(for: hydration.user, receiving: request) { request in
            try await HealthUpload.importing(request.body, into: hydration)
        }
        return JSONBody(report, status: report.drinksAdded + report.sleepRecordsAdded > 0 ? .created : .ok)
    }

    /// Lets the imported drinks deleted since come back with the next import; the drinks still
    /// there stay remembered, so that none is added twice.
    @Sendable func forgetDeletedImports(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<ForgottenImports> {
        JSONBody(try await services.hydration(context).forgetDeletedImports())
    }
}
