import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// Who is signed in, and their personal API tokens (A1).
struct AccountController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.on(API.me, use: me)
        group.on(API.tokens, use: tokens)
        group.on(API.createToken, use: createToken)
        group.on(API.revokeToken, use: revokeToken)
        group.on(API.changePassword, use: changePassword)
        group.on(API.sessions, use: sessions)
        group.on(API.signOutElsewhere, use: signOutElsewhere)
    }

    @Sendable func me(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<Me> {
        let user = context.user
        return JSONBody(Me(id: user.id, name: user.name, isAdmin: try await services.accounts.isAdmin(user)))
    }

    @Sendable func tokens(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<[APITokenInfo]> {
        JSONBody(try await services.accounts.apiTokens(of: context.user))
    }

    @Sendable func createToken(_ body: NewToken, _ request: Request, context: SignedInContext) async throws -> JSONBody<CreatedToken> {
        let (info, secret) = try await services.accounts.createAPIToken(
            for: context.user, name: body.name, scope: body.scope ?? .write, lifetime: body.expiresInDays.map { TimeInterval($0) * 86_400 },
            by: context.token)
        return JSONBody(CreatedToken(token: info, secret: secret), status: .created)
    }

    @Sendable func revokeToken(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<NoBody> {
        try await services.accounts.revokeAPIToken(id: try context.parameters.id(Phrase("token")), of: context.user)
        return .empty()
    }

    /// Every session but the one asking ends: someone who knew the old password is signed out.
    @Sendable func changePassword(_ body: PasswordChange, _ request: Request, context: SignedInContext) async throws -> JSONBody<SignedOut> {
        let ended = try await services.accounts.changePassword(of: context.user, current: body.current, new: body.new, keeping: context.session)
        return JSONBody(SignedOut(signedOut: ended))
    }

    @Sendable func sessions(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<[SessionInfo]> {
        JSONBody(try await services.accounts.sessions(of: context.user))
    }

    /// Signs out every browser of the user but the one asking.
    @Sendable func signOutElsewhere(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<SignedOut> {
        JSONBody(SignedOut(signedOut: try await services.accounts.signOutEverywhere(context.user, except: context.session)))
    }
}
