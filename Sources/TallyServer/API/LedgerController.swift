import Foundation
import Hummingbird
import TallyCore
import TallyStore

/// Ledgers, their members and invites (S1).
struct LedgerController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<TallyRequestContext>) {
        group.get("ledgers", use: list)
        group.post("ledgers", use: create)
        group.post("ledgers/join", use: join)
        group.get("ledgers/:ledger", use: show)
        group.patch("ledgers/:ledger", use: change)
        group.post("ledgers/:ledger/members", use: addMember)
        group.patch("ledgers/:ledger/members/:member", use: renameMember)
        group.delete("ledgers/:ledger/members/:member", use: removeMember)
        group.put("ledgers/:ledger/owner", use: transferOwnership)
        group.post("ledgers/:ledger/invite", use: openInvite)
        group.delete("ledgers/:ledger/invite", use: revokeInvite)
    }

    @Sendable func list(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<LedgerList> {
        let spending = try services.spending(context)
        return JSONBody(LedgerList(items: try await spending.ledgers().map { LedgerJSON($0, user: spending.user) }))
    }

    @Sendable func create(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<LedgerJSON> {
        let spending = try services.spending(context)
        let body = try await request.decodeJSON(NewLedger.self, context: context)
        let details = try await spending.createLedger(name: body.name, currency: body.currency, memberNames: body.members)
        return JSONBody(LedgerJSON(details, user: spending.user), status: .created)
    }

    @Sendable func join(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<LedgerJSON> {
        let spending = try services.spending(context)
        let body = try await request.decodeJSON(JoinRequest.self, context: context)
        let member = body.member.map { SpendingService.MemberRef.id($0) } ?? body.memberName.map { .name($0) }
        return JSONBody(LedgerJSON(try await spending.join(code: body.code, as: member, newName: body.name), user: spending.user))
    }

    @Sendable func show(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<LedgerJSON> {
        let spending = try services.spending(context)
        return JSONBody(LedgerJSON(try await spending.ledger(try context.parameters.ledger), user: spending.user))
    }

    @Sendable func change(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<LedgerJSON> {
        let spending = try services.spending(context)
        let ledger = try context.parameters.ledger
        let body = try await request.decodeJSON(LedgerChange.self, context: context)
        return JSONBody(LedgerJSON(try await spending.changeLedger(ledger, name: body.name, currency: body.currency), user: spending.user))
    }

    @Sendable func addMember(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<LedgerJSON> {
        let spending = try services.spending(context)
        let ledger = try context.parameters.ledger
        let body = try await request.decodeJSON(MemberName.self, context: context)
        return JSONBody(LedgerJSON(try await spending.addMember(to: ledger, name: body.name), user: spending.user), status: .created)
    }

    @Sendable func renameMember(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<LedgerJSON> {
        let spending = try services.spending(context)
        let (ledger, member) = (try context.parameters.ledger, try context.parameters.member)
        let body = try await request.decodeJSON(MemberName.self, context: context)
        return JSONBody(LedgerJSON(try await spending.renameMember(member, in: ledger, to: body.name), user: spending.user))
    }

    @Sendable func removeMember(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<LedgerJSON> {
        let spending = try services.spending(context)
        let (ledger, member) = (try context.parameters.ledger, try context.parameters.member)
        return JSONBody(LedgerJSON(try await spending.removeMember(member, from: ledger), user: spending.user))
    }

    @Sendable func transferOwnership(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<LedgerJSON> {
        let spending = try services.spending(context)
        let ledger = try context.parameters.ledger
        let body = try await request.decodeJSON(NewOwner.self, context: context)
        return JSONBody(LedgerJSON(try await spending.transferOwnership(of: ledger, to: .id(body.member)), user: spending.user))
    }

    /// A new invite; its code is in this answer only. No body: the default terms.
    @Sendable func openInvite(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<LedgerJSON> {
        let spending = try services.spending(context)
        let ledger = try context.parameters.ledger
        let body = try await request.decodeOptionalJSON(InviteRequest.self, context: context)
        let terms = try LedgerInviteTerms(days: body?.days, uses: body?.uses)
        return JSONBody(LedgerJSON(try await spending.openInvite(ledger, terms: terms), user: spending.user))
    }

    @Sendable func revokeInvite(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<LedgerJSON> {
        let spending = try services.spending(context)
        return JSONBody(LedgerJSON(try await spending.revokeInvite(try context.parameters.ledger), user: spending.user))
    }
}
