import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// Drinks and removals (H1–H3).
struct EntryController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.on(API.logDrink, use: logDrink)
        group.on(API.drink, use: drink)
        group.on(API.editDrink, use: editDrink)
        group.on(API.remove, use: remove)
        group.on(API.entries, use: entries)
        group.on(API.deleteEntry, use: delete)
    }

    @Sendable func logDrink(_ body: NewIntake, _ request: Request, context: SignedInContext) async throws -> JSONBody<EntryResult> {
        let result = try await services.hydration(context).logDrinkResult(.init(
            volume: try body.volume(), kindName: body.kind, at: body.at, note: body.note, id: body.id))
        return JSONBody(result, status: result.created ? .created : .ok)
    }

    @Sendable func drink(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<DayEntry> {
        let id = try context.parameters.id(Phrase("drink"))
        return JSONBody(try await services.hydration(context).drink(id: id))
    }

    @Sendable func editDrink(_ body: IntakeChange, _ request: Request, context: SignedInContext) async throws -> JSONBody<EntryResult> {
        let hydration = services.hydration(context)
        let id = try context.parameters.id(Phrase("drink"))
        let intake = try await hydration.editDrink(id: id, body)
        return JSONBody(try await hydration.result(.intake(intake), created: false))
    }

    @Sendable func remove(_ body: NewRemoval, _ request: Request, context: SignedInContext) async throws -> JSONBody<EntryResult> {
        let hydration = services.hydration(context)
        let (removal, created) = try await hydration.remove(try body.volume(), at: body.at, id: body.id)
        return JSONBody(try await hydration.result(.removal(removal), created: created), status: created ? .created : .ok)
    }

    /// A day's drinks and removals, oldest first, a page at a time (A4).
    @Sendable func entries(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<EntryPage> {
        let date = try request.query("date", LocalDate.init, form: Phrase("a date like 2025-03-30"))
        let limit = try request.pageLimit(default: 100)
        let offset = try request.pageOffset
        let all = try await services.hydration(context).daySummary(on: date).entries
        let page = Array(all.dropFirst(offset).prefix(limit))
        let next = offset + page.count < all.count ? String(offset + page.count) : nil
        return JSONBody(EntryPage(items: page, nextCursor: next))
    }

    @Sendable func delete(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<DeletedEntry> {
        let hydration = services.hydration(context)
        let entry = try await hydration.deleteEntry(id: try context.parameters.id(Phrase("entry")))
        return JSONBody(try await hydration.deleted(entry))
    }
}
