import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// Unit, time zone, presets and drink kinds (H2, H4, H5, H6).
struct SettingsController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.on(API.settings, use: settings)
        group.on(API.changeSettings, use: changeSettings)
        group.on(API.setPresets, use: setPresets)
        group.on(API.kinds, use: kinds)
        group.on(API.addKind, use: addKind)
        group.on(API.changeKind, use: changeKind)
        group.on(API.useFactors, use: useFactors)
    }

    @Sendable func settings(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<SettingsView> {
        JSONBody(SettingsView(try await services.hydration(context).settings()))
    }

    @Sendable func changeSettings(_ change: SettingsChange, _ request: Request, context: SignedInContext) async throws -> JSONBody<SettingsView> {
        JSONBody(SettingsView(try await services.hydration(context).changeSettings(unit: change.unit, timeZone: change.timeZone)))
    }

    @Sendable func setPresets(_ change: PresetsChange, _ request: Request, context: SignedInContext) async throws -> JSONBody<SettingsView> {
        JSONBody(SettingsView(try await services.hydration(context).setPresets(change.amountsMl)))
    }

    @Sendable func kinds(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<[DrinkKind]> {
        JSONBody(try await services.hydration(context).drinkKinds())
    }

    @Sendable func addKind(_ body: NewKind, _ request: Request, context: SignedInContext) async throws -> JSONBody<DrinkKind> {
        JSONBody(try await services.hydration(context).addDrinkKind(name: body.name, factor: body.factor), status: .created)
    }

    @Sendable func changeKind(_ body: KindChange, _ request: Request, context: SignedInContext) async throws -> JSONBody<DrinkKind> {
        let id = try context.parameters.id(Phrase("drink kind"))
        return JSONBody(try await services.hydration(context).changeDrinkKind(id: id, name: body.name, factor: body.factor, retired: body.retired))
    }

    @Sendable func useFactors(_ body: FactorSetChange, _ request: Request, context: SignedInContext) async throws -> JSONBody<[DrinkKind]> {
        JSONBody(try await services.hydration(context).useFactors(body.set))
    }
}
