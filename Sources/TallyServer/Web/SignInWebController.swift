import Foundation
import HTTPTypes
import Hummingbird
import TallyCore
import TallyStore

/// Signing up, in and out (A1), and the onboarding that follows a sign-up (H12). Signing in and
/// up are for someone not signed in; onboarding is for the new account.
struct SignInWebController {
    let services: APIServices

    func addRoutes(to web: some RouterMethods<TallyRequestContext>, signedIn: some RouterMethods<SignedInPageContext>) {
        web.get(SitePath.signIn, use: signInPage)
        web.post(SitePath.signIn, use: signIn)
        web.get(SitePath.signUp, use: signUpPage)
        web.post(SitePath.signUp, use: signUp)
        web.post(SitePath.signOut, use: signOut)
        signedIn.get(SitePath.onboarding, use: onboardingPage)
        signedIn.post(SitePath.onboarding, use: onboarding)
    }

    // MARK: - Signing in and out

    @Sendable func signInPage(_ request: Request, context: TallyRequestContext) async throws -> Response {
        if context.user != nil { return Web.redirect(SitePath.today.link) }
        return Web.html(AccountPages.signIn(Web.pageContext(request, context)))
    }

    @Sendable func signIn(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await Web.formAction(request, context) { form in
            let session = try await newSession(name: form["name"] ?? "", password: form["password"] ?? "", request, context)
            return signedIn(session, context, to: SitePath.today.link)
        } refused: { form, refusal in
            Web.html(AccountPages.signIn(Web.pageContext(request, context), name: form["name"] ?? "", error: refusal.error.message),
                     status: Web.status(of: refusal.error))
        }
    }

    /// A new session for the browser, replacing the one it had; throttled per name and per address.
    private func newSession(name: String, password: String, _ request: Request, _ context: TallyRequestContext) async throws -> String {
        try await services.accounts.signIn(
            name: name, password: password, client: context.origin.client?.description,
            device: DeviceName.from(userAgent: request.headers[.userAgent]), replacing: request.cookies[Cookies.session]?.value).session
    }

    private func signedIn(_ session: String, _ context: TallyRequestContext, to location: String) -> Response {
        var response = Web.redirect(location)
        response.setCookie(Cookies.make(Cookies.session, value: session, maxAge: Int(services.accounts.sessionLifetime),
                                        secure: context.origin.isSecure))
        return response
    }

    @Sendable func signOut(_ request: Request, context: TallyRequestContext) async throws -> Response {
        _ = try await Web.checkedForm(request, context)
        if let session = request.cookies[Cookies.session]?.value { try await services.accounts.signOut(session: session) }
        var response = Web.redirect(SitePath.signIn.link)
        response.setCookie(Cookies.make(Cookies.session, value: "", maxAge: 0, secure: context.origin.isSecure))
        // A shared device keeps nothing of this person: "storage" empties the service worker's
        // page cache, the offline queue and the worker itself (and with it this device's push
        // subscription); "cache" the HTTP cache. Not "cookies": that would reach every site of
        // the domain, and the session cookie is already gone.
        response.headers[HTTPField.Name("Clear-Site-Data")!] = #""cache", "storage""#
        return response
    }

    // MARK: - Signing up

    @Sendable func signUpPage(_ request: Request, context: TallyRequestContext) async throws -> Response {
        if context.user != nil { return Web.redirect(SitePath.today.link) }
        let mode = try await services.accounts.signUpMode()
        return Web.html(AccountPages.signUp(Web.pageContext(request, context), mode: mode,
                                            invite: request.uri.queryParameters.get("invite") ?? ""))
    }

    @Sendable func signUp(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await Web.formAction(request, context) { form in
            let name = form["name"] ?? ""
            let zone = form["timeZone"].flatMap { try? UserTimeZone.validated($0) }
            _ = try await services.accounts.signUp(name: name, password: form["password"] ?? "", timeZone: zone, invite: form["invite"],
                                                  client: context.origin.client?.description)
            let session = try await newSession(name: name, password: form["password"] ?? "", request, context)
            // First sign-in: offer onboarding (H12).
            return signedIn(session, context, to: SitePath.onboarding.link)
        } refused: { form, refusal in
            let mode = try await services.accounts.signUpMode()
            return Web.html(AccountPages.signUp(Web.pageContext(request, context), mode: mode, name: form["name"] ?? "",
                                                invite: form["invite"] ?? "", error: refusal.error.message),
                            status: Web.status(of: refusal.error))
        }
    }

    // MARK: - Onboarding

    @Sendable func onboardingPage(_ request: Request, context: SignedInPageContext) async throws -> Response {
        Web.html(AccountPages.onboarding(Web.pageContext(request, context), preview: nil))
    }

    /// The profile, previewed (the goal it gives, and why) or saved.
    @Sendable func onboarding(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let page = Web.pageContext(request, context)
        return try await Web.formAction(request, context) { form in
            let profile = try form.profile()
            guard form["action"] == "save" else {
                return Web.html(AccountPages.onboarding(page, preview: GoalCalculator.goal(for: profile), age: form["age"] ?? "",
                                                        weight: form["weight"] ?? "", activity: Self.activity(form)))
            }
            _ = try await services.hydration(for: context.user).setProfile(profile)
            return Web.redirect(SitePath.today.link)
        } refused: { form, refusal in
            Web.html(AccountPages.onboarding(page, preview: nil, age: form["age"] ?? "", weight: form["weight"] ?? "",
                                             activity: Self.activity(form), error: refusal.error.message),
                     status: Web.status(of: refusal.error))
        }
    }

    private static func activity(_ form: FormFields) -> ActivityLevel {
        form["activity"].flatMap(ActivityLevel.init(rawValue:)) ?? .moderate
    }
}
