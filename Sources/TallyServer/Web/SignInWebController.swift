import Foundation
import HTTPTypes
import Hummingbird
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

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
        let next = Self.next(request.uri.queryParameters.get("next"))
        if context.user != nil { return Web.redirect(next ?? SitePath.today.link) }
        return Web.html(AccountPages.signIn(Web.pageContext(request, context), choices: services.accounts.signInChoices, next: next))
    }

    @Sendable func signIn(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await Web.formAction(request, context) { form in
            let session = try await newSession(name: form["name"] ?? "", password: form["password"] ?? "", request, context)
            return signedIn(session, context, to: Self.next(form["next"]) ?? SitePath.today.link)
        } refused: { form, refusal in
            Web.html(AccountPages.signIn(Web.pageContext(request, context), choices: services.accounts.signInChoices, name: form["name"] ?? "", next: Self.next(form["next"]),
                                         error: Written.current.say(refusal.error.phrase)),
                     status: Web.status(of: refusal.error))
        }
    }

    /// Where a sign-in goes on to: only a ledger's invite page (/join/CODE), so that no link can
    /// send someone who signs in to another site or anywhere else unasked.
    static func next(_ path: String?) -> String? {
        guard let path, SitePath.invitation.matches(path), path.hasPrefix("/join/"),
              path.dropFirst(6).allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { return nil }
        return path
    }

    /// A new session for the browser, replacing the one it had; throttled per name and per address.
    private func newSession(name: String, password: String, _ request: Request, _ context: TallyRequestContext) async throws -> String {
        try await services.accounts.signIn(
            name: name, password: password, client: context.origin.client?.description,
            device: DeviceName.from(userAgent: request.headers[.userAgent]), replacing: request.cookies[Cookies.session]?.value).session
    }

    /// To `location` with the new session's cookie: after a password here, after the provider there.
    func signedIn(_ session: String, _ context: TallyRequestContext, to location: String) -> Response {
        var response = Web.redirect(location)
        response.setCookie(Cookies.make(Cookies.session, value: session, maxAge: Int(services.accounts.sessionLifetime),
                                        secure: context.origin.isSecure))
        return response
    }

    /// The code of the ledger invite a sign-in goes on to (`next`), if any.
    static func inviteCode(next path: String?) -> String? {
        next(path).map { String($0.dropFirst("/join/".count)) }
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
        let join = request.uri.queryParameters.get("join").map { String($0) }
        if context.user != nil { return Web.redirect(join.map { SitePath.invitation.link(InviteCode.normalize($0)) } ?? SitePath.today.link) }
        let mode = try await services.accounts.signUpMode()
        return Web.html(AccountPages.signUp(Web.pageContext(request, context), mode: mode, choices: services.accounts.signInChoices,
                                            invite: request.uri.queryParameters.get("invite") ?? "",
                                            joining: try await joining(join)))
    }

    /// A ledger invite's code and what it opens (nil inside when it opens nothing any more).
    private func joining(_ code: String?) async throws -> AccountPages.Joining? {
        guard let code, !code.isEmpty else { return nil }
        let normalized = InviteCode.normalize(code)
        return AccountPages.Joining(code: normalized, ledger: try await services.accounts.ledgerInvitation(code: normalized))
    }

    @Sendable func signUp(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await Web.formAction(request, context) { form in
            let name = form["name"] ?? ""
            let zone = form["timeZone"].flatMap { try? UserTimeZone.validated($0) }
            let join = form["join"].flatMap { $0.isEmpty ? nil : InviteCode.normalize($0) }
            // Into the ledger as the member chosen, in the account's own transaction: a choice
            // the ledger refuses (a member taken meanwhile) makes no account and spends no use.
            let member = form["member"].flatMap(MemberID.init).map { SpendingService.MemberRef.id($0) }
            let newName = form["member"] == "new" ? (form["memberName"].flatMap { $0.isEmpty ? nil : $0 } ?? name) : nil
            var ledger: UUID?
            if let join { ledger = try await services.accounts.ledgerInvitation(code: join)?.ledger.id }
            _ = try await services.accounts.signUp(
                name: name, password: form["password"] ?? "", timeZone: zone, invite: join == nil ? form["invite"] : nil,
                joining: join.map { ($0, SpendingService.joining(as: member, newName: newName)) }, client: context.origin.client?.description)
            let session = try await newSession(name: name, password: form["password"] ?? "", request, context)
            guard join != nil else {
                // First sign-in: offer onboarding (H12).
                return signedIn(session, context, to: SitePath.onboarding.link)
            }
            return signedIn(session, context, to: ledger.map { SitePath.ledger.link($0) } ?? SitePath.today.link)
        } refused: { form, refusal in
            let mode = try await services.accounts.signUpMode()
            return Web.html(AccountPages.signUp(Web.pageContext(request, context), mode: mode, choices: services.accounts.signInChoices,
                                                name: form["name"] ?? "",
                                                invite: form["invite"] ?? "", joining: try await joining(form["join"]),
                                                chosen: form["member"], memberName: form["memberName"] ?? "", error: Written.current.say(refusal.error.phrase)),
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
                                             activity: Self.activity(form), error: Written.current.say(refusal.error.phrase)),
                     status: Web.status(of: refusal.error))
        }
    }

    private static func activity(_ form: FormFields) -> ActivityLevel {
        form["activity"].flatMap(ActivityLevel.init(rawValue:)) ?? .moderate
    }
}
