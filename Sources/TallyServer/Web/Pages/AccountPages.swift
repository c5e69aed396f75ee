import Foundation
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// Sign-up, sign-in and onboarding (A1, H12).
enum AccountPages {
    /// A ledger invite being taken up by someone without an account (or not signed in).
    struct Joining {
        var code: String
        /// What the code opens; nil when it opens nothing any more.
        var ledger: LedgerDetails?
    }

    static func signIn(_ context: PageContext, choices: SignInChoices = .passwordsOnly, name: String = "", next: String? = nil,
                       error: String? = nil) -> HTML {
        let code = SignInWebController.inviteCode(next: next)
        let newHere: HTML = code.map { "\(SitePath.signUp.link)?join=\($0)" }.map {
            "<p>\(HTML.sentence("New here? {0}.", "<a href=\"\($0)\">\(t("Create an account and join"))</a>"))</p>"
        } ?? "<p>\(HTML.sentence("New here? {0}.", "<a href=\"\(SitePath.signUp.link)\">\(t("Create an account"))</a>"))</p>"
        let passwordForm: HTML = choices.passwords ? """
        <form method="post" action="\(SitePath.signIn.link)" class="stack">
        \(Layout.csrfField(context))\(next.map { HTML("<input type=\"hidden\" name=\"next\" value=\"\($0)\">") } ?? "")
        <label for="name">\(t("User name"))</label>
        <input id="name" name="name" autocomplete="username" required value="\(name)" autocapitalize="none">
        <label for="password">\(t("Password"))</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required>
        <button type="submit" class="primary">\(t("Sign in"))</button>
        </form>
        \(newHere)
        """ : ""
        return Layout.page(t("Sign in"), context, error: error, """
        <h1>\(t("Sign in"))</h1>
        \(next == nil ? "" : HTML("<p>\(t("Sign in to join the ledger you were invited to."))</p>"))
        \(providerButton(choices, query: code.map { "join=\($0)" }))
        \(passwordForm)
        """)
    }

    /// "Sign in with {provider}", above the password form ("or" between them), when the server
    /// signs people in through its OpenID provider; `query` carries an invite along.
    private static func providerButton(_ choices: SignInChoices, query: String?) -> HTML {
        guard let provider = choices.provider else { return "" }
        let link = SitePath.providerSignIn.link + (query.map { "?" + $0 } ?? "")
        return """
        <p class="provider-sign-in"><a class="button primary" href="\(link)">\(t("Sign in with \(provider)"))</a></p>
        \(choices.passwords ? HTML("<p class=\"or\">\(t("or"))</p>") : "")
        """
    }

    /// The sign-up form as the server's mode allows it: with an invite field when invites are
    /// needed, a sentence instead of the form when sign-up is closed (A1).
    static func signUp(_ context: PageContext, mode: SignUpMode, choices: SignInChoices = .passwordsOnly, name: String = "",
                       invite: String = "", joining: Joining? = nil, chosen: String? = nil, memberName: String = "",
                       error: String? = nil) -> HTML {
        if let joining {
            return join(context, joining, mode: mode, choices: choices, name: name, chosen: chosen, memberName: memberName, error: error)
        }
        guard mode != .closed else {
            return Layout.page(t("Create an account"), context, error: error, """
            <h1>\(t("Create an account"))</h1>
            <p>\(t("This server does not take new accounts: ask its admin to create one for you."))</p>
            <p>\(haveAnAccount(SitePath.signIn.link, t("Sign in")))</p>
            """)
        }
        let inviteField: HTML = mode == .invite ? """
        <label for="invite">\(t("Invite code"))</label>
        <input id="invite" name="invite" required autocomplete="off" autocapitalize="none" spellcheck="false" value="\(invite)"
               aria-describedby="invite-help">
        <p id="invite-help" class="help">\(t("This server takes new accounts by invite: the code is in the link you were given."))</p>
        """ : ""
        let passwordForm: HTML = choices.passwords ? """
        <form method="post" action="\(SitePath.signUp.link)" class="stack">
        \(Layout.csrfField(context))
        \(inviteField)
        \(accountFields(name: name))
        <button type="submit" class="primary">\(t("Create account"))</button>
        </form>
        """ : ""
        let inviteQuery = invite.isEmpty ? nil : "invite=" + (invite.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        return Layout.page(t("Create an account"), context, error: error, """
        <h1>\(t("Create an account"))</h1>
        \(providerButton(choices, query: inviteQuery))
        \(passwordForm)
        <p>\(haveAnAccount(SitePath.signIn.link, t("Sign in")))</p>
        """)
    }

    /// One page from a ledger's invite link to the ledger: who you are in it, a name and a
    /// password. The invite stands for a server invite, but a closed server takes nobody new.
    private static func join(_ context: PageContext, _ joining: Joining, mode: SignUpMode, choices: SignInChoices, name: String,
                             chosen: String?, memberName: String, error: String?) -> HTML {
        let signIn = "\(SitePath.signIn.link)?next=\(SitePath.invitation.link(joining.code))"
        guard let details = joining.ledger else {
            return Layout.page(t("Join a ledger"), context, error: error, """
            <h1>\(t("Join a ledger"))</h1>
            <p id="invitation">\(t("This invite link is not valid any more (revoked, expired or used up): ask for a new one."))</p>
            <p>\(haveAnAccount(SitePath.signIn.link, t("Sign in")))</p>
            """)
        }
        let ledger = details.ledger.name
        let names = details.members.map(\.name).joined(separator: ", ")
        let sentence = HTML.sentence("You are invited to {0} ({1}), kept by {2}.",
                                     "<strong>\(ledger)</strong>", "\(details.ledger.currency.code)", "\(names)")
        let invited: HTML = "<p id=\"invitation\">\(sentence)</p>"
        guard mode != .closed else {
            let signInToJoin: HTML = "<a href=\"\(signIn)\">\(t("sign in to join"))</a>"
            return Layout.page(t("Join \(ledger)"), context, error: error, """
            <h1>\(t("Join \(ledger)"))</h1>
            \(invited)
            <p>\(HTML.sentence("This server does not take new accounts: {0}, or ask its admin for an account.", signInToJoin))</p>
            """)
        }
        let free = details.members.filter { $0.userID == nil }
        let pick = chosen ?? (free.count == 1 ? "\(free[0].id)" : free.isEmpty ? "new" : nil)
        let options = free.map { member -> HTML in
            """
            <li><input type="radio" name="member" id="join-as-\(member.id)" value="\(member.id)" required\(HTML.flag("checked", pick == "\(member.id)"))>\
            <label for="join-as-\(member.id)">\(member.name)</label></li>
            """
        }
        let passwordJoin = passwordJoin(context, joining, ledger: ledger, options: options, pick: pick, name: name, memberName: memberName)
        return Layout.page(t("Join \(ledger)"), context, error: error, """
        <h1>\(t("Join \(ledger)"))</h1>
        \(invited)
        \(providerButton(choices, query: "join=\(joining.code)"))
        \(choices.passwords ? passwordJoin : "")
        <p>\(haveAnAccount(signIn, t("Sign in to join")))</p>
        """)
    }

    private static func passwordJoin(_ context: PageContext, _ joining: Joining, ledger: String, options: [HTML], pick: String?,
                                     name: String, memberName: String) -> HTML {
        """
        <p>\(t("Create an account to join: a name and a password, and who you are in \(ledger)."))</p>
        <form method="post" action="\(SitePath.signUp.link)" class="stack">
        \(Layout.csrfField(context))
        <input type="hidden" name="join" value="\(joining.code)">
        <fieldset><legend>\(t("Who are you in \(ledger)?"))</legend>
        <ul class="among join-as">\(options)
        <li><input type="radio" name="member" id="join-as-new" value="new" required\(HTML.flag("checked", pick == "new"))>\
        <label for="join-as-new">\(t("Someone new"))</label></li>
        </ul>
        </fieldset>
        <label for="member-name">\(t("Your name in the ledger, if you are someone new")) <span class="help">\(t("(your user name if left empty)"))</span></label>
        <input id="member-name" name="memberName" maxlength="\(LedgerRules.memberNameLength.upperBound)" autocomplete="off" value="\(memberName)">
        \(accountFields(name: name))
        <button type="submit" class="primary">\(t("Create account and join"))</button>
        </form>
        """
    }

    /// "Have an account? Sign in.", with `words` the link to `signIn`.
    private static func haveAnAccount(_ signIn: String, _ words: String) -> HTML {
        HTML.sentence("Have an account? {0}.", "<a href=\"\(signIn)\">\(words)</a>")
    }

    /// The new account's name, password and (filled in by the script) time zone.
    private static func accountFields(name: String) -> HTML {
        """
        <label for="name">\(t("User name"))</label>
        <input id="name" name="name" autocomplete="username" required minlength="3" maxlength="32"
               pattern="[A-Za-z0-9._-]{3,32}" aria-describedby="name-help" value="\(name)" autocapitalize="none">
        <p id="name-help" class="help">\(t("3 to 32 letters, digits, dots, dashes or underscores."))</p>
        <label for="password">\(t("Password"))</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" aria-describedby="password-help">
        <p id="password-help" class="help">\(t("At least 8 characters."))</p>
        <input type="hidden" name="timeZone" value="" data-time-zone>
        """
    }

    /// First run: age, weight and activity give a goal with its breakdown; can be skipped (H12).
    static func onboarding(_ context: PageContext, preview: GoalBreakdown?, age: String = "", weight: String = "",
                           activity: ActivityLevel = .moderate, error: String? = nil) -> HTML {
        Layout.page(t("Welcome"), context, error: error, """
        <h1>\(t("Your daily goal"))</h1>
        <p>\(t("Tally suggests a goal from your age, weight and activity. You can change it any time, or skip this."))</p>
        <form method="post" action="\(SitePath.onboarding.link)" class="stack" data-goal-preview>
        \(Layout.csrfField(context))
        \(SettingsPages.profileFields(age: age, weight: weight, activity: activity))
        <output class="breakdown" id="goal-preview" for="age weight activity" aria-live="polite">\(preview.map { SettingsPages.breakdown($0) } ?? "")</output>
        <div class="row">
        <button type="submit" class="primary" name="action" value="save">\(t("Use this goal"))</button>
        <button type="submit" class="secondary" name="action" value="preview">\(t("Show the goal"))</button>
        </div>
        </form>
        <p>\(HTML.sentence("{0} (the goal stays at {1}).", "<a href=\"\(SitePath.today.link)\">\(t("Skip for now"))</a>", "\(Layout.volume(2500, .ml))"))</p>
        """)
    }
}
