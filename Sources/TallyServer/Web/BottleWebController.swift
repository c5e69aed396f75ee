import Foundation
import Hummingbird
import TallyCore
import TallyStore

/// The bottle page (H10): plain forms and redirects; with JavaScript the page swaps in place.
struct BottleWebController {
    let services: APIServices

    func addRoutes(to router: Router<TallyRequestContext>) {
        let web = router.group()
            .add(middleware: AuthenticationMiddleware(accounts: services.accounts))
            .add(middleware: CSRFCookieMiddleware())
        web.get("bottle", use: page)
        web.post("bottle/sip", use: sip)
        web.post("bottle/level", use: level)
        web.post("bottle/settings", use: settings)
    }

    @Sendable func page(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await bottlePage(request, context)
    }

    private func bottlePage(_ request: Request, _ context: TallyRequestContext, error: TallyError? = nil,
                            retry: FormFields? = nil, field: String? = nil) async throws -> Response {
        guard let user = context.user else { return Response.redirect(to: "/signin", type: .normal) }
        let hydration = services.hydration(for: user)
        let page = BottlePage(bottle: try await hydration.bottle(), unit: try await hydration.settings().unit,
                              retry: retry?.all ?? [:], refusedField: field)
        return Web.html(page.render(Web.pageContext(request, context), error: error?.message), status: Web.status(of: error))
    }

    @Sendable func sip(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await action(request, context) { form, hydration in
            _ = try await hydration.sip(id: form["id"].flatMap(UUID.init(uuidString:)))
        }
    }

    @Sendable func level(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await action(request, context) { form, hydration in
            if form["fill"] == "yes" {
                _ = try await hydration.fillBottle()
            } else {
                _ = try await hydration.adjustBottle(levelMl: try form.number("levelMl", "the level"))
            }
        }
    }

    @Sendable func settings(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await action(request, context) { form, hydration in
            let unit = try await hydration.settings().unit
            let bottle = try await hydration.bottle()
            // Each field checked on its own first, so that a refusal is shown at its field.
            let capacity = try Web.FieldRefusal.at("capacity") {
                let ml = try VolumeInput.milliliters(from: try form.require("capacity", "what the bottle holds"), defaultUnit: unit)
                _ = try bottle.withCapacity(ml, unit: unit)
                return ml
            }
            let sip = try Web.FieldRefusal.at("sip") {
                let ml = try VolumeInput.milliliters(from: try form.require("sip", "the sip size"), defaultUnit: unit)
                _ = try bottle.withCapacity(capacity, unit: unit).withSip(ml, unit: unit)
                return ml
            }
            _ = try await hydration.adjustBottle(capacityMl: capacity, sipMl: sip)
        }
    }

    private func action(_ request: Request, _ context: TallyRequestContext,
                        _ body: (FormFields, HydrationService) async throws -> Void) async throws -> Response {
        guard let user = context.user else { return Response.redirect(to: "/signin", type: .normal) }
        let form = try await Web.checkedForm(request, context)
        do {
            try await body(form, services.hydration(for: user))
        } catch let refusal as Web.FieldRefusal {
            return try await bottlePage(request, context, error: refusal.error, retry: form, field: refusal.field)
        } catch let error as TallyError {
            return try await bottlePage(request, context, error: error)
        }
        return Response.redirect(to: "/bottle", type: .normal)
    }
}
