import Foundation
import Hummingbird
import TallyCore
import TallyStore

/// Who is signed in, and their personal API tokens (A1).
struct AccountController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<TallyRequestContext>) {
        group.get("me", use: me)
        group.get("tokens", use: tokens)
        group.post("tokens", use: createToken)
        group.delete("tokens/:id", use: revokeToken)
        group.put("me/password", use: changePassword)
        group.get("sessions", use: sessions)
        group.delete("sessions", use: signOutElsewhere)
    }

    @Sendable func me(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<Me> {
        let user = try context.requireUser()
        let account = try await services.store.account(named: user.name)
        return JSONBody(Me(id: user.id, name: user.name, isAdmin: account?.isAdmin ?? false))
    }

    @Sendable func tokens(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<[APITokenInfo]> {
        JSONBody(try await services.accounts.apiTokens(of: try context.requireUser()))
    }

    @Sendable func createToken(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<CreatedToken> {
        let user = try context.requireUser()
        let body = try await request.decodeJSON(NewToken.self, context: context)
        let (info, secret) = try await services.accounts.createAPIToken(
            for: user, name: body.name, lifetime: body.expiresInDays.map { TimeInterval($0) * 86_400 })
        return JSONBody(CreatedToken(token: info, secret: secret), status: .created)
    }

    @Sendable func revokeToken(_ request: Request, context: TallyRequestContext) async throws -> Response {
        let user = try context.requireUser()
        try await services.accounts.revokeAPIToken(id: try context.parameters.id("token"), of: user)
        return Response(status: .noContent)
    }

    /// Every session but the one asking ends: someone who knew the old password is signed out.
    @Sendable func changePassword(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<[String: Int]> {
        let user = try context.requireUser()
        let body = try await request.decodeJSON(PasswordChange.self, context: context)
        let ended = try await services.accounts.changePassword(of: user, current: body.current, new: body.new, keeping: context.session)
        return JSONBody(["signedOut": ended])
    }

    @Sendable func sessions(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<[SessionInfo]> {
        JSONBody(try await services.accounts.sessions(of: try context.requireUser()))
    }

    /// Signs out every browser of the user but the one asking.
    @Sendable func signOutElsewhere(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<[String: Int]> {
        let ended = try await services.accounts.signOutEverywhere(try context.requireUser(), except: context.session)
        return JSONBody(["signedOut": ended])
    }
}
