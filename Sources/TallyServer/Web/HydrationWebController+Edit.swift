import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

extension HydrationWebController {
    /// A drink's page to change its amount, kind, day, time and note, or to delete it.
    @Sendable func editDrink(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await drinkPage(request, context)
    }

    @Sendable func saveDrink(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let hydration = services.hydration(for: context.user)
        let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) ?? UUID()
        return try await Web.formAction(request, context) { form in
            let settings = try await hydration.settings()
            let unit = form["unit"].flatMap(VolumeUnit.init(rawValue:)) ?? settings.unit
            let ml = try VolumeInput.milliliters(from: try form.requireNumeral("amount", Phrase("the amount")), defaultUnit: unit)
            let at = try EntryTime.instant(from: "\(try form.require("date", Phrase("the day"))) \(try form.require("time", Phrase("the time")))",
                                           now: services.clock.now, zone: settings.zone)
            // An emptied note is cleared; a form without the field leaves it as it is.
            let note: Patch<String> = form.all["note"].map { .set($0) } ?? .unchanged
            let drink = try await hydration.editDrink(id: id, IntakeChange(volumeMl: ml, kind: form["kind"], at: at, note: note))
            let today = LocalDate(containing: services.clock.now, in: settings.zone)
            return Web.redirect(drink.day == today ? SitePath.today.link : SitePath.day.link(drink.day))
        } refused: { form, refusal in
            try await drinkPage(request, context, error: refusal.error, retry: form.all)
        }
    }

    private func drinkPage(_ request: Request, _ context: SignedInPageContext, error: TallyError? = nil,
                           retry: [String: String] = [:]) async throws -> Response {
        let hydration = services.hydration(for: context.user)
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
              case .intake(let drink)? = try await hydration.entry(id: id) else {
            throw TallyError.notFound("That drink no longer exists.")
        }
        let settings = try await hydration.settings()
        let page = DrinkEditPage(drink: drink, kinds: try await hydration.drinkKinds(), unit: settings.unit, zone: settings.zone,
                                 today: LocalDate(containing: services.clock.now, in: settings.zone), retry: retry)
        return Web.html(page.render(Web.pageContext(request, context), error: error?.said), status: Web.status(of: error))
    }
}
