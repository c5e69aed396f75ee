import Foundation
import Hummingbird
import TallyCore
import TallyStore

/// The account page (password, sessions, tokens) and the admin's page (sign-up, invites,
/// accounts). The admin's addresses answer 404 to everyone else, as if they did not exist.
struct AccountWebController {
    let services: APIServices

    func addRoutes(to router: Router<TallyRequestContext>) {
        let web = router.group()
            .add(middleware: AuthenticationMiddleware(accounts: services.accounts))
            .add(middleware: CSRFCookieMiddleware())
        web.get("account", use: account)
        web.post("account/password", use: changePassword)
        web.post("account/sessions", use: signOutElsewhere)
        web.post("account/tokens", use: createToken)
        web.post("account/tokens/:id/revoke", use: revokeToken)
        web.get("admin", use: admin)
        web.post("admin/signup", use: setSignUpMode)
        web.post("admin/invites", use: createInvite)
        web.post("admin/invites/:id/delete", use: deleteInvite)
        web.post("admin/accounts/:name/disable", use: disable)
        web.post("admin/accounts/:name/enable", use: enable)
        web.post("admin/accounts/:name/password", use: setPassword)
    }

    private var accounts: AccountService { services.accounts }

    // MARK: - Your account

    @Sendable func account(_ request: Request, context: TallyRequestContext) async throws -> Response {
        let notice = request.uri.queryParameters.get("saved").map { _ in "Saved." }
        return try await accountPage(request, context, notice: notice)
    }

    private func accountPage(_ request: Request, _ context: TallyRequestContext, notice: String? = nil, error: TallyError? = nil,
                             newToken: String? = nil) async throws -> Response {
        guard let user = context.user else { return Response.redirect(to: "/signin", type: .normal) }
        let page = AccountPage(
            sessions: try await accounts.sessions(of: user), current: context.session.map { SessionInfo.id(of: AccountService.hash($0)) },
            tokens: try await accounts.apiTokens(of: user), isAdmin: try await isAdmin(user), newToken: newToken,
            zone: try await services.hydration(for: user).settings().zone)
        return Web.html(page.render(Web.pageContext(request, context), notice: notice, error: error?.message), status: Web.status(of: error))
    }

    @Sendable func changePassword(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await accountAction(request, context) { form, user in
            let ended = try await accounts.changePassword(of: user, current: form["current"] ?? "", new: form["new"] ?? "",
                                                          keeping: context.session)
            return "Your password is changed" + (ended == 0 ? "." : "; \(ended) other session\(ended == 1 ? " was" : "s were") signed out.")
        }
    }

    @Sendable func signOutElsewhere(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await accountAction(request, context) { _, user in
            let ended = try await accounts.signOutEverywhere(user, except: context.session)
            return ended == 0 ? "You were signed in nowhere else." : "Signed out of \(ended) other session\(ended == 1 ? "" : "s")."
        }
    }

    @Sendable func createToken(_ request: Request, context: TallyRequestContext) async throws -> Response {
        guard let user = context.user else { return Response.redirect(to: "/signin", type: .normal) }
        let form = try await Web.checkedForm(request, context)
        do {
            let days = try form["days"].flatMap { $0.isEmpty ? nil : $0 }.map { text -> TimeInterval in
                guard let days = Int(text) else { throw TallyError.invalid("The expiry is a number of days, such as 90.") }
                return TimeInterval(days) * 86_400
            }
            let (_, secret) = try await accounts.createAPIToken(for: user, name: form["name"] ?? "", lifetime: days)
            return try await accountPage(request, context, newToken: secret)
        } catch let error as TallyError {
            return try await accountPage(request, context, error: error)
        }
    }

    @Sendable func revokeToken(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await accountAction(request, context) { _, user in
            try await accounts.revokeAPIToken(id: try context.parameters.id("token"), of: user)
            return "The token is revoked: it stopped working."
        }
    }

    /// Checks the form, acts, and shows the account page with what happened.
    private func accountAction(_ request: Request, _ context: TallyRequestContext,
                               _ action: (FormFields, User) async throws -> String) async throws -> Response {
        guard let user = context.user else { return Response.redirect(to: "/signin", type: .normal) }
        let form = try await Web.checkedForm(request, context)
        do {
            return try await accountPage(request, context, notice: try await action(form, user))
        } catch let error as TallyError {
            return try await accountPage(request, context, error: error)
        }
    }

    // MARK: - The admin's page

    private func isAdmin(_ user: User) async throws -> Bool {
        try await services.store.account(named: user.name)?.isAdmin == true
    }

    /// The signed-in admin, or the same 404 as an unknown address for anyone else.
    private func requireAdmin(_ context: TallyRequestContext) async throws -> User {
        guard let user = context.user, try await isAdmin(user) else { throw HTTPError(.notFound) }
        return user
    }

    @Sendable func admin(_ request: Request, context: TallyRequestContext) async throws -> Response {
        _ = try await requireAdmin(context)
        return try await adminPage(request, context)
    }

    private func adminPage(_ request: Request, _ context: TallyRequestContext, notice: String? = nil, error: TallyError? = nil,
                           newInvite: String? = nil) async throws -> Response {
        let user = try await requireAdmin(context)
        let page = AdminPage(
            mode: try await services.store.signUpMode(), invites: try await services.store.signUpInvites(now: services.clock.now),
            accounts: try await services.store.accounts(), newInvite: newInvite, origin: context.origin.origin,
            zone: try await services.hydration(for: user).settings().zone)
        return Web.html(page.render(Web.pageContext(request, context), notice: notice, error: error?.message), status: Web.status(of: error))
    }

    @Sendable func setSignUpMode(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await adminAction(request, context) { form in
            guard let mode = form["mode"].flatMap(SignUpMode.init(rawValue:)) else {
                throw TallyError.invalid("Choose open, invite or closed.")
            }
            try await services.store.setSignUpMode(mode)
            return "Sign-up is now \(mode == .invite ? "by invite" : mode.rawValue)."
        }
    }

    @Sendable func createInvite(_ request: Request, context: TallyRequestContext) async throws -> Response {
        _ = try await requireAdmin(context)
        let form = try await Web.checkedForm(request, context)
        do {
            guard let days = form["days"].flatMap({ Int($0) }), let uses = form["uses"].flatMap({ Int($0) }) else {
                throw TallyError.invalid("Give the days and the uses as whole numbers.")
            }
            let (_, code) = try await accounts.createSignUpInvite(days: days, uses: uses)
            return try await adminPage(request, context, newInvite: code)
        } catch let error as TallyError {
            return try await adminPage(request, context, error: error)
        }
    }

    @Sendable func deleteInvite(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await adminAction(request, context) { _ in
            try await services.store.deleteSignUpInvite(id: context.parameters.get("id") ?? "")
            return "The invite is deleted."
        }
    }

    @Sendable func disable(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await adminAction(request, context) { _ in
            let account = try await accounts.setDisabled(context.parameters.get("name") ?? "", true)
            return "\(account.user.name) is disabled: signed out everywhere, and their tokens stopped working."
        }
    }

    @Sendable func enable(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await adminAction(request, context) { _ in
            let account = try await accounts.setDisabled(context.parameters.get("name") ?? "", false)
            return "\(account.user.name) can sign in again."
        }
    }

    @Sendable func setPassword(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await adminAction(request, context) { form in
            let name = context.parameters.get("name") ?? ""
            guard let account = try await services.store.account(named: name) else {
                throw TallyError.notFound("There is no account named \(name).")
            }
            try await accounts.setPassword(of: account.user, to: form["password"] ?? "")
            try await services.store.deleteSessions(of: account.user.id, except: nil)
            return "\(name) has a new password, and was signed out everywhere."
        }
    }

    /// Checks that the admin asks and the form, acts, and shows the admin's page with what happened.
    private func adminAction(_ request: Request, _ context: TallyRequestContext,
                             _ action: (FormFields) async throws -> String) async throws -> Response {
        _ = try await requireAdmin(context)
        let form = try await Web.checkedForm(request, context)
        do {
            return try await adminPage(request, context, notice: try await action(form))
        } catch let error as TallyError {
            return try await adminPage(request, context, error: error)
        }
    }
}
