import Foundation
import Hummingbird
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// The admin's page (A1): sign-up, invites and accounts. Its addresses answer 404 to everyone
/// else, signed in or not, as if they did not exist: so they are not behind the sign-in page.
struct AdminWebController {
    let services: APIServices

    func addRoutes(to web: some RouterMethods<TallyRequestContext>) {
        web.get(SitePath.admin, use: admin)
        web.post(SitePath.signUpMode, use: setSignUpMode)
        web.post(SitePath.invites, use: createInvite)
        web.post(SitePath.deleteInvite, use: deleteInvite)
        web.post(SitePath.disableAccount, use: disable)
        web.post(SitePath.enableAccount, use: enable)
        web.post(SitePath.resetPassword, use: setPassword)
        web.post(SitePath.clearSignInLock, use: clearSignInLock)
    }

    private var accounts: AccountService { services.accounts }

    /// The signed-in admin, or the same 404 as an unknown address for anyone else. A session
    /// only: the admin's API token opens the API, not this page.
    private func requireAdmin(_ context: TallyRequestContext) async throws -> User {
        guard let user = context.user, context.credential == .session, try await accounts.isAdmin(user) else { throw HTTPError(.notFound) }
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
            mode: try await accounts.signUpMode(), invites: try await accounts.signUpInvites(),
            accounts: try await accounts.accounts(), newInvite: newInvite, origin: context.origin.origin,
            zone: try await services.hydration(for: user).settings().zone)
        return Web.html(page.render(Web.pageContext(request, context), notice: notice, error: error.map { Written.current.say($0.phrase) }), status: Web.status(of: error))
    }

    @Sendable func setSignUpMode(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await adminAction(request, context) { form in
            guard let mode = form["mode"].flatMap(SignUpMode.init(rawValue:)) else {
                throw TallyError.invalid("Choose open, invite or closed.")
            }
            try await accounts.setSignUpMode(mode)
            return switch mode {
            case .open: t("Sign-up is now open.")
            case .invite: t("Sign-up is now by invite.")
            case .closed: t("Sign-up is now closed.")
            }
        }
    }

    /// A new invite's code is on the page that answers, this once.
    @Sendable func createInvite(_ request: Request, context: TallyRequestContext) async throws -> Response {
        _ = try await requireAdmin(context)
        return try await Web.formAction(request, context) { form in
            guard let days = form["days"].flatMap({ Int($0) }), let uses = form["uses"].flatMap({ Int($0) }) else {
                throw TallyError.invalid("Give the days and the uses as whole numbers.")
            }
            let (_, code) = try await accounts.createSignUpInvite(days: days, uses: uses)
            return try await adminPage(request, context, newInvite: code)
        } refused: { _, refusal in
            try await adminPage(request, context, error: refusal.error)
        }
    }

    @Sendable func deleteInvite(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await adminAction(request, context) { _ in
            try await accounts.deleteSignUpInvite(id: context.parameters.get("id") ?? "")
            return t("The invite is deleted.")
        }
    }

    @Sendable func disable(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await adminAction(request, context) { _ in
            let account = try await accounts.setDisabled(context.parameters.get("name") ?? "", true)
            return t("\(account.user.name) is disabled: signed out everywhere, and their tokens stopped working.")
        }
    }

    @Sendable func enable(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await adminAction(request, context) { _ in
            let account = try await accounts.setDisabled(context.parameters.get("name") ?? "", false)
            return t("\(account.user.name) can sign in again.")
        }
    }

    @Sendable func setPassword(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await adminAction(request, context) { form in
            let name = context.parameters.get("name") ?? ""
            try await accounts.resetPassword(named: name, to: form["password"] ?? "")
            return t("\(name) has a new password, was signed out everywhere, and their API tokens stopped working.")
        }
    }

    @Sendable func clearSignInLock(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await adminAction(request, context) { _ in
            let name = context.parameters.get("name") ?? ""
            try await accounts.clearSignInLock(named: name)
            return t("\(name) can sign in again at once, from any address.")
        }
    }

    /// Checks that the admin asks and the form, acts, and shows the admin's page with what happened.
    private func adminAction(_ request: Request, _ context: TallyRequestContext,
                             _ action: (FormFields) async throws -> String) async throws -> Response {
        _ = try await requireAdmin(context)
        return try await Web.formAction(request, context) { form in
            try await adminPage(request, context, notice: try await action(form))
        } refused: { _, refusal in
            try await adminPage(request, context, error: refusal.error)
        }
    }
}
