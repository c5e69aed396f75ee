import Foundation
import HTTPTypes
import Hummingbird
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// A quick add from the home screen: the manifest's shortcuts open `/quick/N`, the person's
/// N-th quick-add button, which logs that amount once and says so.
///
/// Why a form, and not a GET that logs: a GET must not change anything. Anyone's page can make a
/// browser GET an address (a link, a redirect; the session cookie is SameSite=Lax, which is sent
/// on a top-level navigation from another site), and browsers and link previews fetch addresses
/// ahead of time (prefetch, prerender). A GET that logged a drink would log drinks nobody drank.
///
/// So the GET only shows a page: a form, with the CSRF token like every form, and a new id for
/// the drink. Posting it logs the drink under that id; drinks are idempotent by id (H1), so the
/// same form sent twice (a double tap, a resent form) logs one drink and the answer says
/// "Already logged". The answer is a redirect (POST-redirect-GET) to an address that names the
/// drink (`?logged=ID`): reloading it, or the app coming back to it, only shows what was logged.
///
/// For the shortcut to log without a second tap, app.js sends the form as the page opens; inline
/// scripts are forbidden by the CSP. It does so only when the server marked the form
/// (`data-auto-submit`) and only on a fresh visit (not a reload, not back or forward, not a
/// prerendered page before it is shown). The server marks it only when the person opened the
/// address themselves: `Sec-Fetch-Site: none` (a home-screen shortcut, a typed address, a
/// bookmark) or from Tally's own pages, and never for a prefetch. Opened from another site, or
/// by a browser that does not say where a request comes from, the page asks for a tap: another
/// site can show the question, not answer it (frame-ancestors 'none' keeps it out of frames).
///
/// Each opening of the shortcut is a new drink (it is how a person logs a glass from the home
/// screen twice a day); what never logs twice is the same opening, reloaded or restored.
struct QuickAddWebController {
    let services: APIServices

    func addRoutes(to web: some RouterMethods<SignedInPageContext>) {
        web.get(SitePath.quickAdd, use: show)
        web.post(SitePath.quickAdd, use: log)
    }

    @Sendable func show(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let hydration = services.hydration(for: context.user)
        guard let page = try await page(context, hydration) else { return missing(request, context) }
        let query = request.uri.queryParameters
        for (name, again) in [("logged", false), ("already", true)] {
            if let id = query.get(name).flatMap(UUID.init(uuidString:)),
               case .intake(let intake)? = try await hydration.entry(id: id) {
                return try await answer(page, .logged(intake, again: again), request, context, hydration)
            }
        }
        return try await answer(page, .ask(id: UUID(), sendsItself: Self.openedByThePerson(request)), request, context, hydration)
    }

    @Sendable func log(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let hydration = services.hydration(for: context.user)
        let page = try await page(context, hydration)
        return try await Web.formAction(request, context) { form in
            guard let page else { return missing(request, context) }
            guard let id = form["id"].flatMap(UUID.init(uuidString:)) else {
                throw TallyError.invalid("This quick add has no drink id; open it again.")
            }
            let (intake, created) = try await hydration.logDrink(.init(volumeMl: try form.number("volumeMl", Phrase("the amount")), id: id))
            return Web.redirect(SitePath.quickAdd.link(page.button) + "?\(created ? "logged" : "already")=\(intake.id.uuidString)")
        } refused: { _, refusal in
            guard let page else { return missing(request, context) }
            return try await answer(page, .ask(id: UUID(), sendsItself: false), request, context, hydration, error: refusal.error)
        }
    }

    /// Whether the person opened the address themselves (see above): the only case in which the
    /// page sends its form by itself.
    static func openedByThePerson(_ request: Request) -> Bool {
        let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!]
        let purpose = request.headers[HTTPField.Name("Sec-Purpose")!] ?? request.headers[HTTPField.Name("Purpose")!] ?? ""
        return (site == "none" || site == "same-origin") && !purpose.contains("prefetch")
    }

    /// The page of the button the address names, or nil when the person has no such button.
    private func page(_ context: SignedInPageContext, _ hydration: HydrationService) async throws -> QuickAddPage? {
        let settings = try await hydration.settings()
        let amounts = settings.presets.amountsMl
        guard let button = context.parameters.get("button").flatMap({ Int($0) }), amounts.indices.contains(button - 1) else {
            return nil
        }
        return QuickAddPage(button: button, amountMl: amounts[button - 1], unit: settings.unit, zone: settings.zone)
    }

    private func answer(_ page: QuickAddPage, _ outcome: QuickAddPage.Outcome, _ request: Request, _ context: SignedInPageContext,
                        _ hydration: HydrationService, error: TallyError? = nil) async throws -> Response {
        let settings = try await hydration.settings()
        let today = LocalDate(containing: services.clock.now, in: settings.zone)
        let html = page.render(Web.pageContext(request, context), outcome, day: try await hydration.daySummary(on: today), error: error?.said)
        return Web.html(html, status: Web.status(of: error))
    }

    private func missing(_ request: Request, _ context: SignedInPageContext) -> Response {
        Web.html(QuickAddPage.missing(Web.pageContext(request, context), button: context.parameters.get("button") ?? ""), status: .notFound)
    }
}
