import Foundation
import Hummingbird
import TallyCore
import TallyStore

/// Drinks and removals (H1–H3).
struct EntryController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<TallyRequestContext>) {
        group.post("intakes", use: logDrink)
        group.get("intakes/:id", use: intake)
        group.patch("intakes/:id", use: editDrink)
        group.post("removals", use: remove)
        group.get("entries", use: entries)
        group.delete("entries/:id", use: delete)
    }

    @Sendable func logDrink(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<EntryResult> {
        let hydration = try services.hydration(context)
        let body = try await request.decodeJSON(NewIntake.self, context: context)
        let result = try await hydration.logDrinkResult(.init(
            volumeMl: body.volumeMl, kindName: body.kind, at: body.at, note: body.note, id: body.id))
        return JSONBody(result, status: result.created ? .created : .ok)
    }

    @Sendable func intake(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<DayEntry> {
        let hydration = try services.hydration(context)
        let id = try context.parameters.id("drink")
        guard let entry = try await hydration.store.entry(id: id, of: hydration.user), case .intake = entry else {
            throw TallyError.notFound("There is no drink with the id \(id).")
        }
        return JSONBody(entry)
    }

    @Sendable func editDrink(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<EntryResult> {
        let hydration = try services.hydration(context)
        let id = try context.parameters.id("drink")
        let body = try await request.decodeJSON(IntakeChange.self, context: context)
        let intake = try await hydration.editDrink(id: id, .init(volumeMl: body.volumeMl, kindName: body.kind, at: body.at, note: body.note))
        return JSONBody(try await hydration.result(.intake(intake), created: false))
    }

    @Sendable func remove(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<EntryResult> {
        let hydration = try services.hydration(context)
        let body = try await request.decodeJSON(NewRemoval.self, context: context)
        let (removal, created) = try await hydration.remove(volumeMl: body.volumeMl, at: body.at, id: body.id)
        return JSONBody(try await hydration.result(.removal(removal), created: created), status: created ? .created : .ok)
    }

    /// A day's drinks and removals, oldest first, a page at a time (A4).
    @Sendable func entries(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<EntryPage> {
        let hydration = try services.hydration(context)
        let date = try request.query("date", LocalDate.init, form: "a date like 2025-03-30")
        let limit = try request.pageLimit(default: 100)
        let offset = try request.pageOffset
        let all = try await hydration.daySummary(on: date).entries
        let page = Array(all.dropFirst(offset).prefix(limit))
        let next = offset + page.count < all.count ? String(offset + page.count) : nil
        return JSONBody(EntryPage(items: page, nextCursor: next))
    }

    @Sendable func delete(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<DeletedEntry> {
        let hydration = try services.hydration(context)
        let entry = try await hydration.deleteEntry(id: try context.parameters.id("entry"))
        return JSONBody(try await hydration.deleted(entry))
    }
}
