import Foundation
import Hummingbird
import TallyCore
import TallyStore

/// Unit, time zone, presets and drink kinds (H2, H4, H5, H6).
struct SettingsController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<TallyRequestContext>) {
        group.get("settings", use: settings)
        group.patch("settings", use: changeSettings)
        group.put("presets", use: setPresets)
        group.get("kinds", use: kinds)
        group.post("kinds", use: addKind)
        group.patch("kinds/:id", use: changeKind)
        group.put("kinds/factors", use: useFactors)
    }

    @Sendable func settings(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<SettingsView> {
        JSONBody(SettingsView(try await services.hydration(context).settings()))
    }

    @Sendable func changeSettings(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<SettingsView> {
        let hydration = try services.hydration(context)
        let change = try await request.decodeJSON(SettingsChange.self, context: context)
        // Check the zone before changing anything, so a bad zone leaves the unit as it was too.
        if let zone = change.timeZone { _ = try UserTimeZone.validated(zone) }
        var settings = try await hydration.settings()
        if let unit = change.unit { settings = try await hydration.setUnit(unit) }
        if let zone = change.timeZone { settings = try await hydration.setTimeZone(zone) }
        return JSONBody(SettingsView(settings))
    }

    @Sendable func setPresets(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<SettingsView> {
        let hydration = try services.hydration(context)
        let change = try await request.decodeJSON(PresetsChange.self, context: context)
        return JSONBody(SettingsView(try await hydration.setPresets(change.amountsMl)))
    }

    @Sendable func kinds(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<[DrinkKind]> {
        JSONBody(try await services.hydration(context).drinkKinds())
    }

    @Sendable func addKind(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<DrinkKind> {
        let hydration = try services.hydration(context)
        let body = try await request.decodeJSON(NewKind.self, context: context)
        return JSONBody(try await hydration.addDrinkKind(name: body.name, factor: body.factor), status: .created)
    }

    @Sendable func changeKind(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<DrinkKind> {
        let hydration = try services.hydration(context)
        let id = try context.parameters.id("drink kind")
        let body = try await request.decodeJSON(KindChange.self, context: context)
        return JSONBody(try await hydration.changeDrinkKind(id: id, name: body.name, factor: body.factor, retired: body.retired))
    }

    @Sendable func useFactors(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<[DrinkKind]> {
        let hydration = try services.hydration(context)
        let body = try await request.decodeJSON(FactorSetChange.self, context: context)
        return JSONBody(try await hydration.useFactors(body.set))
    }
}
