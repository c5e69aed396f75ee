import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// Expenses, payments, the summary and the activity log of a ledger (S2–S5).
struct SpendingController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.on(API.addExpense, use: addExpense)
        group.on(API.recordPayment, use: recordPayment)
        group.on(API.ledgerEntries, use: entries)
        group.on(API.ledgerEntry, use: entry)
        group.on(API.editLedgerEntry, use: edit)
        group.on(API.deleteLedgerEntry, use: delete)
        group.on(API.restoreLedgerEntry, use: restore)
        group.on(API.summary, use: summary)
        group.on(API.activity, use: activity)
        group.on(API.ledgerChanges, use: changes)
    }

    /// The ledger's revision, or a stream of it while its page is open.
    @Sendable func changes(_ request: Request, context: SignedInContext) async throws -> Response {
        let (spending, ledger) = (services.spending(context), try context.parameters.ledger)
        return try await services.changes.response(to: request, context: context, following: .ledger(ledger)) { try await spending.revision(of: ledger) }
    }

    @Sendable func addExpense(_ body: NewExpense, _ request: Request, context: SignedInContext) async throws -> JSONBody<EntryJSON> {
        let (entry, created) = try await services.spending(context).addExpense(to: try context.parameters.ledger, body)
        return JSONBody(try EntryJSON(entry), status: created ? .created : .ok)
    }

    @Sendable func recordPayment(_ body: NewPayment, _ request: Request, context: SignedInContext) async throws -> JSONBody<EntryJSON> {
        let (entry, created) = try await services.spending(context).recordPayment(in: try context.parameters.ledger, body)
        return JSONBody(try EntryJSON(entry), status: created ? .created : .ok)
    }

    /// Newest first, a page at a time; `deleted=true` includes deleted entries (S5); the other
    /// parameters search.
    @Sendable func entries(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<EntryListJSON> {
        let ledger = try context.parameters.ledger
        let limit = try request.pageLimit(default: 50)
        // The cursor is the id of the last entry of the page before.
        let after = try request.query("cursor", UUID.init(uuidString:), form: Phrase("the nextCursor of an earlier page"))
        let deleted = try request.query("deleted", Bool.init, form: Phrase("true or false")) ?? false
        let filter = try EntryFilter(
            words: request.uri.queryParameters.get("q"),
            member: try request.query("member", MemberID.init, form: Phrase("a member's id, a whole number")),
            category: request.uri.queryParameters.get("category").flatMap { $0.isEmpty ? nil : $0 },
            from: try request.query("from", LocalDate.init, form: Phrase("a date like 2025-03-30")),
            through: try request.query("through", LocalDate.init, form: Phrase("a date like 2025-03-30")))
        // One more than the page tells whether there is a next page.
        let page = try await services.spending(context).entries(in: ledger, deleted ? .all : .current, matching: filter,
                                                                limit: limit + 1, after: after)
        let items = try page.prefix(limit).map(EntryJSON.init)
        return JSONBody(EntryListJSON(items: items, nextCursor: page.count > limit ? items.last?.id.uuidString : nil))
    }

    @Sendable func entry(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<EntryJSON> {
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id(Phrase("expense or payment")))
        return JSONBody(try EntryJSON(try await services.spending(context).entry(id, in: ledger)))
    }

    @Sendable func edit(_ body: EntryChangeBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<EntryJSON> {
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id(Phrase("expense or payment")))
        return JSONBody(try EntryJSON(try await services.spending(context).editEntry(id, in: ledger, body)))
    }

    /// Deletes softly: the entry leaves the balances and can be restored (S5).
    @Sendable func delete(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<EntryJSON> {
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id(Phrase("expense or payment")))
        return JSONBody(try EntryJSON(try await services.spending(context).deleteEntry(id, in: ledger)))
    }

    @Sendable func restore(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<EntryJSON> {
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id(Phrase("expense or payment")))
        return JSONBody(try EntryJSON(try await services.spending(context).restoreEntry(id, in: ledger)))
    }

    @Sendable func summary(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<SummaryJSON> {
        JSONBody(SummaryJSON(try await services.spending(context).summary(of: try context.parameters.ledger)))
    }

    @Sendable func activity(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<ActivityList> {
        let limit = try request.pageLimit(default: 100)
        let offset = try request.pageOffset
        // One more than the page tells whether there is a next page.
        let items = try await services.spending(context).activity(in: try context.parameters.ledger, limit: limit + 1, offset: offset)
        return JSONBody(ActivityList(items: items.prefix(limit).map(ActivityJSON.init),
                                     nextCursor: items.count > limit ? String(offset + limit) : nil))
    }
}
