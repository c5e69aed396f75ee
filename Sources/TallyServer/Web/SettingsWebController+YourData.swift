import Foundation
import Hummingbird
import TallyCore
import TallyImport
import TallyStore

extension SettingsWebController {
    /// Every drink and removal as a CSV download, streamed.
    @Sendable func downloadDrinksCSV(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await DrinkCSVUpload.download(services.hydration(for: context.user))
    }

    /// The settings page's CSV upload: a plain file form, streamed to disk once its CSRF token
    /// (sent before the file) has been checked.
    @Sendable func importDrinksCSV(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let file = HealthUpload.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            let upload = try await FileUpload.receive(request, fileField: "file", to: file, maxSize: DrinkCSVUpload.maxSize) { fields in
                try Web.checkCSRF(context, sent: fields["csrf"])
            }
            guard upload.fileSize > 0 else { throw TallyError.invalid("Choose a CSV file of drinks, then Import drinks.") }
            let unit = upload.fields["unit"].flatMap(VolumeUnit.init(typed:))
            let report = try await DrinkCSVUpload.importing(file, into: services.hydration(for: context.user), unit: unit)
            return Web.redirect(YourDataSection.importedLink(report))
        } catch let error as TallyError {
            return try await settingsPage(request, context, error: error, section: .yourData)
        }
    }
}
