import Foundation
import Hummingbird
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// The bottle page (H10): plain forms and redirects; with JavaScript the page swaps in place.
struct BottleWebController {
    let services: APIServices

    func addRoutes(to web: some RouterMethods<SignedInPageContext>) {
        web.get(SitePath.bottle, use: page)
        web.post(SitePath.bottleSip, use: sip)
        web.post(SitePath.bottleLevel, use: level)
        web.post(SitePath.bottleSettings, use: settings)
    }

    @Sendable func page(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await bottlePage(request, context)
    }

    private func bottlePage(_ request: Request, _ context: SignedInPageContext, error: TallyError? = nil,
                            retry: FormFields? = nil, field: String? = nil) async throws -> Response {
        let hydration = services.hydration(for: context.user)
        let page = BottlePage(bottle: try await hydration.bottle(), unit: try await hydration.settings().unit,
                              retry: retry?.all ?? [:], refusedField: field)
        return Web.html(page.render(Web.pageContext(request, context), error: error?.said), status: Web.status(of: error))
    }

    @Sendable func sip(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await action(request, context) { form, hydration in
            _ = try await hydration.sip(id: form["id"].flatMap(UUID.init(uuidString:)))
        }
    }

    @Sendable func level(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await action(request, context) { form, hydration in
            if form["fill"] == "yes" {
                _ = try await hydration.fillBottle()
            } else {
                _ = try await hydration.adjustBottle(levelMl: try form.number("levelMl", Phrase("the level")))
            }
        }
    }

    @Sendable func settings(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await action(request, context) { form, hydration in
            let unit = try await hydration.settings().unit
            // The inputs hold volumes as typed ("750 ml", "25 oz"); the service's refusal names
            // capacityMl or sipMl, and the page shows it at that input.
            let capacity = try TallyError.about("capacityMl") {
                try VolumeInput.milliliters(from: try form.requireNumeral("capacity", Phrase("what the bottle holds")), defaultUnit: unit)
            }
            let sip = try TallyError.about("sipMl") {
                try VolumeInput.milliliters(from: try form.requireNumeral("sip", Phrase("the sip size")), defaultUnit: unit)
            }
            _ = try await hydration.adjustBottle(capacityMl: capacity, sipMl: sip)
        }
    }

    /// A form of the bottle page: done, then the page again; refused, the page with the reason,
    /// at its field and with what was typed when it is about one.
    private func action(_ request: Request, _ context: SignedInPageContext,
                        _ body: (FormFields, HydrationService) async throws -> Void) async throws -> Response {
        try await Web.formAction(request, context) { form in
            try await body(form, services.hydration(for: context.user))
            return Web.redirect(SitePath.bottle.link)
        } refused: { form, refusal in
            try await bottlePage(request, context, error: refusal.error, retry: refusal.field == nil ? nil : form, field: refusal.field)
        }
    }
}
