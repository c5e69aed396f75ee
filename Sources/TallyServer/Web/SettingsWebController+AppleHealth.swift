import Foundation
import Hummingbird
import TallyCore
import TallyImport
import TallyLanguages
import TallyRepositories
import TallyServices

extension SettingsWebController {
    /// The settings page's Apple Health upload (A2): a plain file form, streamed to disk once
    /// its CSRF token (sent before the file) has been checked.
    @Sendable func importAppleHealth(_ request: Request, context: SignedInPageContext) async throws -> Response {
        do {
            return try await services.uploads.run(for: context.user.id, receiving: request) { request in
                try await receiveAndImport(request, context)
            }
        } catch let error as TallyError {
            return try await settingsPage(request, context, error: error, section: .appleHealth)
        }
    }

    private func receiveAndImport(_ request: Request, _ context: SignedInPageContext) async throws -> Response {
        let file = HealthUpload.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let upload = try await FileUpload.receive(request, fileField: "export", to: file, maxSize: HealthUpload.maxSize) { fields in
            try Web.checkCSRF(context, sent: fields["csrf"])
        }
        do {
            guard upload.fileSize > 0 else { throw TallyError.invalid("Choose the export.zip that the Health app shared, then Import.") }
            let report = try await HealthUpload.importing(file, into: services.hydration(for: context.user))
            return Web.redirect(HealthImportSection.importedLink(report))
        } catch let error as TallyError {
            return try await settingsPage(request, context, error: error, section: .appleHealth)
        }
    }

    /// Lets the drinks deleted after an import come back with the next import of the export.
    @Sendable func forgetDeletedImports(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await Web.formAction(request, context) { _ in
            let forgotten = try await services.hydration(for: context.user).forgetDeletedImports().forgotten
            return Web.redirect(HealthImportSection.forgottenLink(forgotten))
        } refused: { _, refusal in
            try await settingsPage(request, context, error: refusal.error, section: .appleHealth)
        }
    }
}
