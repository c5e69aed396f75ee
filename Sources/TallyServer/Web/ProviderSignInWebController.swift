import Foundation
import HTTPTypes
import Hummingbird
import TallyCore
import TallyLanguages
import TallyRepositories

/// Signing in through the household's OpenID provider (authorization code with PKCE): the way
/// there (`/signin/oidc`, or the account page's "Link"), the provider's answer
/// (`/signin/oidc/callback`); the account page undoes a link. Nothing of the exchange reaches a log or an
/// address but the code and state the protocol puts there, and those work once.
struct ProviderSignInWebController {
    let services: APIServices

    func addRoutes(to web: some RouterMethods<TallyRequestContext>, signedIn: some RouterMethods<SignedInPageContext>) {
        guard services.accounts.provider != nil else { return }
        web.get(SitePath.providerSignIn, use: start)
        web.get(SitePath.providerAnswer, use: answer)
        signedIn.post(SitePath.linkProvider, use: startLink)
    }

    private var provider: OpenIDProvider { services.accounts.provider! }

    /// To the provider, to sign in (or up, with a server or ledger invite from the sign-up page).
    @Sendable func start(_ request: Request, context: TallyRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        if context.user != nil { return Web.redirect(SitePath.today.link) }
        // Only what an invite page's address can hold (as for `next`), nothing else goes along.
        let join = SignInWebController.inviteCode(next: query.get("join").map { "/join/" + InviteCode.normalize($0) })
            ?? SignInWebController.inviteCode(next: query.get("next"))
        let invite = query.get("invite").map { String($0.prefix(200)) }
        return try await toProvider(OpenIDFlow(purpose: .signIn, startedAt: services.clock.now, invite: invite, join: join), context)
    }

    /// To the provider, to link the account signed in.
    @Sendable func startLink(_ request: Request, context: SignedInPageContext) async throws -> Response {
        _ = try await Web.checkedForm(request, context)
        return try await toProvider(OpenIDFlow(purpose: .link, startedAt: services.clock.now, account: context.user.id), context)
    }

    private func toProvider(_ flow: OpenIDFlow, _ context: some WebRequestContext) async throws -> Response {
        let origin = context.origin
        var flow = flow
        flow.redirect = Self.redirect(origin)
        let location = try await provider.authorizationURL(for: flow, redirect: flow.redirect)
        var response = Web.redirect(location)
        response.setCookie(OpenIDFlow.cookie(try flow.sealed(with: try await services.accounts.flowKey()), secure: origin.isSecure))
        return response
    }

    /// The address the provider sends the browser back to; registered with the provider as is.
    static func redirect(_ origin: RequestOrigin) -> String {
        origin.origin + SitePath.providerAnswer.link
    }

    /// The provider's answer: the flow's cookie opened and its state compared, the code
    /// exchanged, the ID token checked; then signed in, signed up or linked. The flow's cookie
    /// goes whatever happens, so that an answer is taken once.
    @Sendable func answer(_ request: Request, context: TallyRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let flow = OpenIDFlow.opened(request.cookies[OpenIDFlow.cookieName]?.value, with: try await services.accounts.flowKey(),
                                     now: services.clock.now)
        var response: Response
        do {
            response = try await finish(flow, code: query.get("code"), state: query.get("state"), error: query.get("error"), request, context)
        } catch let error as TallyError {
            response = Web.html(AccountPages.signIn(Web.pageContext(request, context), choices: services.accounts.signInChoices,
                                                    error: Written.current.say(error.phrase)),
                                status: Web.status(of: error))
        }
        response.setCookie(OpenIDFlow.cookie(nil, secure: context.origin.isSecure))
        return response
    }

    private func finish(_ flow: OpenIDFlow?, code: String?, state: String?, error: String?, _ request: Request,
                        _ context: TallyRequestContext) async throws -> Response {
        guard let flow, let state, Cookies.constantTimeEqual(state, flow.state) else {
            throw TallyError.invalid("This sign-in's answer does not belong to this browser, or came too late: sign in again.")
        }
        if let error {
            throw TallyError.invalid("Your provider did not sign you in (\(OpenIDProvider.printable(error))).")
        }
        guard let code, !code.isEmpty else { throw TallyError.invalid("Your provider's answer held no code: sign in again.") }
        // Each answer asks the provider once: counted per address like a sign-in's guesses.
        let attempt = try await services.accounts.reserveProviderAnswer(client: context.origin.client?.description)
        let identity = try await provider.identity(code: code, flow: flow, redirect: flow.redirect, now: services.clock.now)
        try await services.accounts.release(attempt)
        switch flow.purpose {
        case .link:
            guard let user = context.user, user.id == flow.account else {
                throw TallyError.invalid("Sign in to the account to link first, then link it again from its page.")
            }
            try await services.accounts.link(user, to: identity)
            return Web.redirect(SitePath.account.link + "#provider")
        case .signIn:
            let signedIn = try await services.accounts.signIn(
                as: identity, flow: flow, client: context.origin.client?.description,
                device: DeviceName.from(userAgent: request.headers[.userAgent]), replacing: request.cookies[Cookies.session]?.value)
            let location = flow.join.map { SitePath.invitation.link($0) } ?? (signedIn.isNew ? SitePath.onboarding.link : SitePath.today.link)
            return SignInWebController(services: services).signedIn(signedIn.session, context, to: location)
        }
    }
}
