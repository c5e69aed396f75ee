import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// Ledgers, their members and invites (S1).
struct LedgerController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.on(API.ledgers, use: list)
        group.on(API.createLedger, use: create)
        group.on(API.joinLedger, use: join)
        group.on(API.ledger, use: show)
        group.on(API.changeLedger, use: change)
        group.on(API.addMember, use: addMember)
        group.on(API.renameMember, use: renameMember)
        group.on(API.removeMember, use: removeMember)
        group.on(API.transferOwnership, use: transferOwnership)
        group.on(API.openInvite, use: openInvite)
        group.on(API.revokeInvite, use: revokeInvite)
        group.on(API.ledgerNotifications, use: notifications)
        group.on(API.setLedgerNotifications, use: setNotifications)
    }

    @Sendable func notifications(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<LedgerNotifications> {
        JSONBody(LedgerNotifications(changes: try await services.spending(context).changeNotifications(in: try context.parameters.ledger)))
    }

    @Sendable func setNotifications(_ body: LedgerNotifications, _ request: Request,
                                    context: SignedInContext) async throws -> JSONBody<LedgerNotifications> {
        try await services.spending(context).setChangeNotifications(body.changes, in: try context.parameters.ledger)
        return JSONBody(body)
    }

    private func view(_ details: LedgerDetails, _ context: SignedInContext, status: HTTPResponse.Status = .ok) -> JSONBody<LedgerJSON> {
        JSONBody(LedgerJSON(details, user: context.user.id), status: status)
    }

    @Sendable func list(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<LedgerList> {
        JSONBody(LedgerList(items: try await services.spending(context).ledgers().map { LedgerJSON($0, user: context.user.id) }))
    }

    @Sendable func create(_ body: NewLedger, _ request: Request, context: SignedInContext) async throws -> JSONBody<LedgerJSON> {
        view(try await services.spending(context).createLedger(name: body.name, currency: body.currency, memberNames: body.members),
             context, status: .created)
    }

    @Sendable func join(_ body: JoinRequest, _ request: Request, context: SignedInContext) async throws -> JSONBody<LedgerJSON> {
        let member = body.member.map { SpendingService.MemberRef.id($0) } ?? body.memberName.map { .name($0) }
        return view(try await services.spending(context).join(code: body.code, as: member, newName: body.name), context)
    }

    @Sendable func show(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<LedgerJSON> {
        view(try await services.spending(context).ledger(try context.parameters.ledger), context)
    }

    @Sendable func change(_ body: LedgerChange, _ request: Request, context: SignedInContext) async throws -> JSONBody<LedgerJSON> {
        view(try await services.spending(context).changeLedger(try context.parameters.ledger, name: body.name, currency: body.currency), context)
    }

    @Sendable func addMember(_ body: MemberName, _ request: Request, context: SignedInContext) async throws -> JSONBody<LedgerJSON> {
        view(try await services.spending(context).addMember(to: try context.parameters.ledger, name: body.name), context, status: .created)
    }

    @Sendable func renameMember(_ body: MemberName, _ request: Request, context: SignedInContext) async throws -> JSONBody<LedgerJSON> {
        let (ledger, member) = (try context.parameters.ledger, try context.parameters.member)
        return view(try await services.spending(context).renameMember(member, in: ledger, to: body.name), context)
    }

    @Sendable func removeMember(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<LedgerJSON> {
        let (ledger, member) = (try context.parameters.ledger, try context.parameters.member)
        return view(try await services.spending(context).removeMember(member, from: ledger), context)
    }

    @Sendable func transferOwnership(_ body: NewOwner, _ request: Request, context: SignedInContext) async throws -> JSONBody<LedgerJSON> {
        view(try await services.spending(context).transferOwnership(of: try context.parameters.ledger, to: .id(body.member)), context)
    }

    /// A new invite; its code is in this answer only. No body: the default terms.
    @Sendable func openInvite(_ body: InviteRequest, _ request: Request, context: SignedInContext) async throws -> JSONBody<LedgerJSON> {
        let terms = try LedgerInviteTerms(days: body.days, uses: body.uses)
        return view(try await services.spending(context).openInvite(try context.parameters.ledger, terms: terms), context)
    }

    @Sendable func revokeInvite(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<LedgerJSON> {
        view(try await services.spending(context).revokeInvite(try context.parameters.ledger), context)
    }
}
