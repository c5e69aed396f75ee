import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// A ledger's recurring expenses: set up, listed, changed (paused, resumed, ended, edited) and
/// deleted by its members.
struct RecurringController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.on(API.recurringExpenses, use: list)
        group.on(API.addRecurringExpense, use: add)
        group.on(API.recurringExpense, use: show)
        group.on(API.changeRecurringExpense, use: change)
        group.on(API.deleteRecurringExpense, use: delete)
    }

    @Sendable func list(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<RecurringExpenseList> {
        let expenses = try await services.spending(context).recurringExpenses(in: try context.parameters.ledger)
        return JSONBody(RecurringExpenseList(items: try expenses.map(RecurringExpenseJSON.init)))
    }

    @Sendable func add(_ body: NewRecurringExpense, _ request: Request, context: SignedInContext) async throws -> JSONBody<RecurringExpenseJSON> {
        let expense = try await services.spending(context).addRecurringExpense(to: try context.parameters.ledger, body)
        return JSONBody(try RecurringExpenseJSON(expense), status: .created)
    }

    @Sendable func show(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<RecurringExpenseJSON> {
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id(Phrase("recurring expense")))
        return JSONBody(try RecurringExpenseJSON(try await services.spending(context).recurringExpense(id, in: ledger)))
    }

    @Sendable func change(_ body: RecurringExpenseChange, _ request: Request, context: SignedInContext) async throws -> JSONBody<RecurringExpenseJSON> {
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id(Phrase("recurring expense")))
        return JSONBody(try RecurringExpenseJSON(try await services.spending(context).changeRecurringExpense(id, in: ledger, body)))
    }

    @Sendable func delete(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<NoBody> {
        let (ledger, id) = (try context.parameters.ledger, try context.parameters.id(Phrase("recurring expense")))
        try await services.spending(context).deleteRecurringExpense(id, in: ledger)
        return .empty()
    }
}
