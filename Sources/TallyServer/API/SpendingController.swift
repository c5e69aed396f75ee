import Foundation
import Hummingbird
import TallyCore
import TallyStore

/// Expenses, payments, the summary and the activity log of a ledger (S2–S5).
struct SpendingController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<TallyRequestContext>) {
        group.post("ledgers/:ledger/expenses", use: addExpense)
        group.post("ledgers/:ledger/payments", use: recordPayment)
        group.get("ledgers/:ledger/entries", use: entries)
        group.get("ledgers/:ledger/entries/:id", use: entry)
        group.patch("ledgers/:ledger/entries/:id", use: edit)
        group.delete("ledgers/:ledger/entries/:id", use: delete)
        group.post("ledgers/:ledger/entries/:id/restore", use: restore)
        group.get("ledgers/:ledger/summary", use: summary)
        group.get("ledgers/:ledger/activity", use: activity)
    }

    @Sendable func addExpense(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<EntryJSON> {
        let spending = try services.spending(context)
        let ledger = try context.parameters.ledger
        let body = try await request.decodeJSON(NewExpense.self, context: context)
        let (entry, created) = try await spending.addExpense(to: ledger, .init(
            amount: body.amount.input, payer: body.payer.map { .id($0) }, date: body.date, description: body.description,
            category: body.category, split: body.split?.input ?? .init(), id: body.id))
        return JSONBody(try EntryJSON(entry), status: created ? .created : .ok)
    }

    @Sendable func recordPayment(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<EntryJSON> {
        let spending = try services.spending(context)
        let ledger = try context.parameters.ledger
        let body = try await request.decodeJSON(NewPayment.self, context: context)
        let (entry, created) = try await spending.recordPayment(
            in: ledger, from: body.from.map { .id($0) }, to: .id(body.to), amount: body.amount.input,
            date: body.date, note: body.note, id: body.id)
        return JSONBody(try EntryJSON(entry), status: created ? .created : .ok)
    }

    /// Newest first, a page at a time; `deleted=true` includes deleted entries (S5).
    @Sendable func entries(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<EntryListJSON> {
        let spending = try services.spending(context)
        let ledger = try context.parameters.ledger
        let limit = try request.pageLimit(default: 50)
        // The cursor is the id of the last entry of the page before.
        let after = try request.query("cursor", UUID.init(uuidString:), form: "the nextCursor of an earlier page")
        let deleted = try request.query("deleted", Bool.init, form: "true or false") ?? false
        // One more than the page tells whether there is a next page.
        let page = try await spending.entries(in: ledger, deleted ? .all : .current, limit: limit + 1, after: after)
        let items = try page.prefix(limit).map(EntryJSON.init)
        return JSONBody(EntryListJSON(items: items, nextCursor: page.count > limit ? items.last?.id.uuidString : nil))
    }

    @Sendable func entry(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<EntryJSON> {
        let spending = try services.spending(context)
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id("expense or payment"))
        return JSONBody(try EntryJSON(try await spending.entry(id, in: ledger)))
    }

    @Sendable func edit(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<EntryJSON> {
        let spending = try services.spending(context)
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id("expense or payment"))
        let body = try await request.decodeJSON(EntryChangeBody.self, context: context)
        return JSONBody(try EntryJSON(try await spending.editEntry(id, in: ledger, body.change)))
    }

    /// Deletes softly: the entry leaves the balances and can be restored (S5).
    @Sendable func delete(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<EntryJSON> {
        let spending = try services.spending(context)
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id("expense or payment"))
        return JSONBody(try EntryJSON(try await spending.deleteEntry(id, in: ledger)))
    }

    @Sendable func restore(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<EntryJSON> {
        let spending = try services.spending(context)
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id("expense or payment"))
        return JSONBody(try EntryJSON(try await spending.restoreEntry(id, in: ledger)))
    }

    @Sendable func summary(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<SummaryJSON> {
        let spending = try services.spending(context)
        return JSONBody(SummaryJSON(try await spending.summary(of: try context.parameters.ledger)))
    }

    @Sendable func activity(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<ActivityList> {
        let spending = try services.spending(context)
        let limit = try request.pageLimit(default: 100)
        let offset = try request.pageOffset
        // One more than the page tells whether there is a next page.
        let items = try await spending.activity(in: try context.parameters.ledger, limit: limit + 1, offset: offset)
        return JSONBody(ActivityList(items: items.prefix(limit).map(ActivityJSON.init),
                                     nextCursor: items.count > limit ? String(offset + limit) : nil))
    }
}
