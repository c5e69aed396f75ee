import Foundation
import Hummingbird
import TallyCore
import TallyImport
import TallyLanguages
import TallyRepositories
import TallyServices

extension SettingsWebController {
    /// Every drink and removal as a CSV download, streamed.
    @Sendable func downloadDrinksCSV(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await DrinkCSVUpload.download(services.hydration(for: context.user))
    }

    /// The settings page's CSV upload.
    @Sendable func importDrinksCSV(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await receive(request, context, maxSize: DrinkCSVUpload.maxSize, empty: Phrase("Choose a CSV file of drinks, then Import drinks.")) { file, upload in
            let unit = upload.fields["unit"].flatMap(VolumeUnit.init(typed:))
            return YourDataSection.importedLink(try await DrinkCSVUpload.importing(file, into: services.hydration(for: context.user), unit: unit))
        }
    }

    /// Everything of the person as a backup download, streamed.
    @Sendable func downloadBackup(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await PersonBackupTransfer.download(services.hydration(for: context.user), services.spending(for: context.user))
    }

    /// The settings page's restore, merged when the box is ticked.
    @Sendable func restoreBackup(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await receive(request, context, maxSize: PersonBackupTransfer.maxSize, empty: Phrase("Choose the backup file that Tally wrote, then Restore.")) { file, upload in
            YourDataSection.restoredLink(try await PersonBackupTransfer.restoring(
                file, merge: upload.fields["merge"] == "yes", services.hydration(for: context.user), services.spending(for: context.user)))
        }
    }

    /// A "Your data" upload: a plain file form, streamed to a temporary file once its CSRF token
    /// (sent before the file) has been checked, then `use`d; the answer is the page `use` names,
    /// or the settings page with the refusal in the section.
    private func receive(_ request: Request, _ context: SignedInPageContext, maxSize: Int64, empty: Phrase,
                         _ use: @escaping @Sendable (URL, FileUpload) async throws -> String) async throws -> Response {
        let file = HealthUpload.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            let next = try await services.uploads.run(for: context.user.id, receiving: request) { request in
                let upload = try await FileUpload.receive(request, fileField: "file", to: file, maxSize: maxSize) { fields in
                    try Web.checkCSRF(context, sent: fields["csrf"])
                }
                guard upload.fileSize > 0 else { throw TallyError.invalid(empty) }
                return try await use(file, upload)
            }
            return Web.redirect(next)
        } catch let error as TallyError {
            return try await settingsPage(request, context, error: error, section: .yourData)
        }
    }
}
