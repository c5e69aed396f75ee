import Foundation
import Hummingbird
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// The account page: password, sessions, API tokens.
struct AccountWebController {
    let services: APIServices

    func addRoutes(to web: some RouterMethods<SignedInPageContext>) {
        web.get(SitePath.account, use: account)
        web.post(SitePath.changePassword, use: changePassword)
        web.post(SitePath.signOutElsewhere, use: signOutElsewhere)
        web.post(SitePath.tokens, use: createToken)
        web.post(SitePath.revokeToken, use: revokeToken)
        web.post(SitePath.revokeAllTokens, use: revokeAllTokens)
        if accounts.provider != nil { web.post(SitePath.unlinkProvider, use: unlinkProvider) }
    }

    /// Undoes the account's link to the server's OpenID provider (refused while it is the only
    /// way in).
    @Sendable func unlinkProvider(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await accountAction(request, context) { _ in
            try await accounts.unlinkProvider(of: context.user)
            return t("Your account is no longer linked; sign in with your password.")
        }
    }

    private var accounts: AccountService { services.accounts }

    @Sendable func account(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let notice = request.uri.queryParameters.get("saved").map { _ in t("Saved.") }
        return try await accountPage(request, context, notice: notice)
    }

    private func accountPage(_ request: Request, _ context: SignedInPageContext, notice: String? = nil, error: TallyError? = nil,
                             newToken: String? = nil) async throws -> Response {
        let user = context.user
        let account = try await accounts.account(of: user)
        let page = AccountPage(
            sessions: try await accounts.sessions(of: user), current: context.session.map { SessionInfo.id(of: AccountService.hash($0)) },
            tokens: try await accounts.apiTokens(of: user), isAdmin: account?.isAdmin ?? false, newToken: newToken,
            zone: try await services.hydration(for: user).settings().zone,
            provider: try await accounts.providerLink(of: user), hasPassword: account?.hasPassword ?? false)
        var response = Web.html(page.render(Web.pageContext(request, context), notice: notice, error: error.map { Written.current.say($0.phrase) }),
                                status: Web.status(of: error))
        // "Link" posts a form that is redirected to the provider.
        if page.provider?.linkedAt == nil, let origin = await accounts.provider?.authorizationOrigin() {
            response.headers[.contentSecurityPolicy] = SecurityHeadersMiddleware.policy(formActions: [origin])
        }
        return response
    }

    @Sendable func changePassword(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await accountAction(request, context) { form in
            let ended = try await accounts.changePassword(of: context.user, current: form["current"] ?? "", new: form["new"] ?? "",
                                                          keeping: context.session)
            return ended == 0 ? t("Your password is changed.")
                : t(one: "Your password is changed; \(ended) other session was signed out.",
                    other: "Your password is changed; \(ended) other sessions were signed out.")
        }
    }

    @Sendable func signOutElsewhere(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await accountAction(request, context) { _ in
            let ended = try await accounts.signOutEverywhere(context.user, except: context.session)
            return ended == 0 ? t("You were signed in nowhere else.")
                : t(one: "Signed out of \(ended) other session.", other: "Signed out of \(ended) other sessions.")
        }
    }

    /// A new token's secret is on the page that answers, this once.
    @Sendable func createToken(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await Web.formAction(request, context) { form in
            let days = try form["days"].flatMap { $0.isEmpty ? nil : $0 }.map { text -> TimeInterval in
                guard let days = Int(text) else { throw TallyError.invalid("The expiry is a number of days, such as 90.") }
                return TimeInterval(days) * 86_400
            }
            let scope = try form["scope"].flatMap { $0.isEmpty ? nil : $0 }.map { text -> TokenScope in
                guard let scope = TokenScope(rawValue: text) else { throw TallyError.invalid("Choose what the token may do: read, write or drinks.") }
                return scope
            } ?? .write
            let (_, secret) = try await accounts.createAPIToken(for: context.user, name: form["name"] ?? "", scope: scope, lifetime: days)
            return try await accountPage(request, context, newToken: secret)
        } refused: { _, refusal in
            try await accountPage(request, context, error: refusal.error)
        }
    }

    @Sendable func revokeToken(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await accountAction(request, context) { _ in
            try await accounts.revokeAPIToken(id: try context.parameters.id("token"), of: context.user)
            return t("The token is revoked: it stopped working.")
        }
    }

    @Sendable func revokeAllTokens(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await accountAction(request, context) { _ in
            let revoked = try await accounts.revokeAPITokens(of: context.user)
            return revoked == 0 ? t("You had no token that worked.")
                : t(one: "Revoked \(revoked) token: none works any more.", other: "Revoked \(revoked) tokens: none works any more.")
        }
    }

    /// Checks the form, acts, and shows the account page with what happened.
    private func accountAction(_ request: Request, _ context: SignedInPageContext,
                               _ action: (FormFields) async throws -> String) async throws -> Response {
        try await Web.formAction(request, context) { form in
            try await accountPage(request, context, notice: try await action(form))
        } refused: { _, refusal in
            try await accountPage(request, context, error: refusal.error)
        }
    }
}
