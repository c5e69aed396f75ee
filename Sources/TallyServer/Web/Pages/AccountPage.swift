import Foundation
import TallyAPI
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// Your account: the password, where you are signed in, and your API tokens (A1).
struct AccountPage {
    var sessions: [SessionInfo]
    /// The listed id of the session that asks ("this browser").
    var current: String?
    var tokens: [APITokenInfo]
    var isAdmin: Bool
    /// A token just created: its secret is shown this once.
    var newToken: String?
    var zone: TimeZone
    /// The server's OpenID provider and this account's link to it; nil when there is none.
    var provider: Provider?
    /// Whether the account has a password (one a provider's sign-in made has none yet).
    var hasPassword = true

    struct Provider {
        var name: String
        /// When the account was linked; nil: not linked.
        var linkedAt: Date?
        /// Whether the server takes passwords (else the link stays, and no password is shown).
        var passwords: Bool
    }

    func render(_ context: PageContext, notice: String? = nil, error: String? = nil) -> HTML {
        let link: HTML = "<a href=\"\(SitePath.admin.link)\">\(t("Server administration"))</a>"
        let administration: HTML = isAdmin ? "<p>\(HTML.sentence("{0}: sign-up, invites and accounts.", link))</p>" : ""
        return Layout.page(t("Account"), context, notice: notice, error: error, """
        <h1>\(t("Your account"))</h1>
        \(administration)
        \(providerSection(context))
        \(provider?.passwords == false ? "" : passwordSection(context))
        \(sessionSection(context))
        \(tokenSection(context))
        """)
    }

    /// Signing in through the server's OpenID provider: link the account, or undo the link.
    private func providerSection(_ context: PageContext) -> HTML {
        guard let provider else { return "" }
        let name = provider.name
        let body: HTML
        if let linkedAt = provider.linkedAt {
            // The link goes only while a password is there to sign in with.
            let unlink: HTML = provider.passwords && hasPassword ? """
            <form method="post" action="\(SitePath.unlinkProvider.link)">\(Layout.csrfField(context))\
            <button type="submit">\(t("Unlink \(name)"))</button></form>
            """ : ""
            body = """
            <p>\(t("You sign in with \(name) (linked \(Self.date(linkedAt, zone)))."))</p>
            \(unlink)
            """
        } else {
            body = """
            <p>\(t("Link your account to \(name), then sign in with it instead of a password."))</p>
            <form method="post" action="\(SitePath.linkProvider.link)">\(Layout.csrfField(context))\
            <button type="submit" class="primary">\(t("Link \(name)"))</button></form>
            """
        }
        return """
        <section id="provider" aria-labelledby="provider-title">
        <h2 id="provider-title">\(t("Sign in with \(name)"))</h2>
        \(body)
        </section>
        """
    }

    private func passwordSection(_ context: PageContext) -> HTML {
        let current: HTML = hasPassword ? """
        <label for="current-password">\(t("Current password"))</label>
        <input id="current-password" name="current" type="password" autocomplete="current-password" required>
        """ : "<p>\(t("Your account has no password yet: set one to sign in without your provider too."))</p>"
        return """
        <section aria-labelledby="password-title">
        <h2 id="password-title">\(t("Password"))</h2>
        <form method="post" action="\(SitePath.changePassword.link)" class="stack">
        \(Layout.csrfField(context))
        \(current)
        <label for="new-password">\(t("New password"))</label>
        <input id="new-password" name="new" type="password" autocomplete="new-password" required minlength="8" aria-describedby="new-password-help">
        <p id="new-password-help" class="help">\(t("At least 8 characters. Every other browser signed in as you is signed out."))</p>
        <button type="submit" class="primary">\(t("Change password"))</button>
        </form>
        </section>
        """
    }

    private func sessionSection(_ context: PageContext) -> HTML {
        let rows = sessions.map { session -> HTML in
            let here: HTML = session.id == current ? " <strong>\(t("(this browser)"))</strong>" : ""
            let signedIn = Self.date(session.createdAt, zone)
            let seen = session.lastSeenAt.map { t("signed in \(signedIn), last seen \(Self.date($0, zone))") } ?? t("signed in \(signedIn), last seen never")
            return "<li>\(DeviceName.shown(session.device))\(here)<br><span class=\"help\">\(seen)</span></li>"
        }
        return """
        <section aria-labelledby="sessions-title">
        <h2 id="sessions-title">\(t("Where you are signed in"))</h2>
        <ul class="kinds">\(rows)</ul>
        <form method="post" action="\(SitePath.signOutElsewhere.link)" class="row">
        \(Layout.csrfField(context))
        <button type="submit" class="secondary">\(t("Sign out everywhere else"))</button>
        </form>
        </section>
        """
    }

    private func tokenSection(_ context: PageContext) -> HTML {
        let rows = tokens.filter { $0.revokedAt == nil }.map { token -> HTML in
            let expiry = token.expiresAt.map { t("expires \(Self.date($0, zone))") } ?? t("never expires")
            let created = Self.date(token.createdAt, zone)
            let use = token.lastUsedAt.map { t("created \(created), last used \(Self.date($0, zone)), \(expiry)") }
                ?? t("created \(created), last used never, \(expiry)")
            return """
            <li><form method="post" action="\(SitePath.revokeToken.link(token.id))" class="inline">
            \(Layout.csrfField(context))
            <span><strong>\(token.name)</strong> (\(Self.scopeWords(token.scope)))<br><span class="help">\(use)</span></span>
            <button type="submit" class="delete" aria-label="\(t("Revoke \(token.name)"))">\(t("Revoke"))</button>
            </form></li>
            """
        }
        let revokeAll: HTML = rows.isEmpty ? "" : """
            <form method="post" action="\(SitePath.revokeAllTokens.link)">
            \(Layout.csrfField(context))
            <button type="submit" class="delete">\(t("Revoke all tokens"))</button>
            </form>
            """
        let scopes = TokenScope.allCases.map { scope -> HTML in
            """
            <input type="radio" id="scope-\(scope.rawValue)" name="scope" value="\(scope.rawValue)"\(HTML.flag("checked", scope == .write))>
            <label for="scope-\(scope.rawValue)">\(Self.scopeWords(scope))</label><br>
            """
        }
        let created: HTML = newToken.map { secret in """
            <p role="status">\(HTML.sentence("Your new token (shown only this once): {0}", HTML("<strong class=\"code secret\">\(secret)</strong>")))</p>
            """ } ?? ""
        return """
        <section aria-labelledby="tokens-title">
        <h2 id="tokens-title">\(t("API tokens"))</h2>
        <p class="help">\(HTML.sentence("For the command line ({0}) and scripts.", "<code>tally --server … --token …</code>"))</p>
        \(created)
        <ul class="kinds">\(rows)</ul>
        \(revokeAll)
        <form method="post" action="\(SitePath.tokens.link)" class="stack">
        \(Layout.csrfField(context))
        <label for="token-name">\(t("Name"))</label>
        <input id="token-name" name="name" required maxlength="60" placeholder="\(t("laptop"))">
        <label for="token-days">\(t("Expires after (days, empty for never)"))</label>
        <input id="token-days" name="days" inputmode="numeric" pattern="[0-9]*">
        <fieldset><legend>\(t("It may"))</legend>
        \(scopes)
        </fieldset>
        <button type="submit" class="secondary">\(t("Create a token"))</button>
        </form>
        </section>
        """
    }

    /// What a token of `scope` may do, in a few words.
    static func scopeWords(_ scope: TokenScope) -> String {
        switch scope {
        case .read: t("read only")
        case .write: t("read and change everything")
        case .drinks: t("log drinks and read today only")
        }
    }

    static func date(_ date: Date, _ zone: TimeZone) -> String {
        Written.current.moment(date, in: zone)
    }
}

/// The server's administration, for its admin only: who may sign up, invites, accounts (A1).
struct AdminPage {
    var mode: SignUpMode
    var invites: [SignUpInviteInfo]
    var accounts: [Account]
    /// An invite just created: its link is shown this once.
    var newInvite: String?
    var origin: String
    var zone: TimeZone

    func render(_ context: PageContext, notice: String? = nil, error: String? = nil) -> HTML {
        let modes = SignUpMode.allCases.map { choice -> HTML in
            let label = switch choice {
            case .open: t("Open: anyone who reaches the server")
            case .invite: t("By invite: with a server invite link")
            case .closed: t("Closed: you create the accounts")
            }
            return """
            <input type="radio" id="mode-\(choice.rawValue)" name="mode" value="\(choice.rawValue)"\(HTML.flag("checked", choice == mode))>
            <label for="mode-\(choice.rawValue)">\(label)</label><br>
            """
        }
        let created: HTML = newInvite.map { code -> HTML in
            let link: HTML = "<a class=\"invite-link secret\" href=\"\(SitePath.signUp.link)?invite=\(code)\">\(origin)\(SitePath.signUp.link)?invite=\(code)</a>"
            return "<p role=\"status\">\(HTML.sentence("The invite link (shown only this once): {0}", link))</p>"
        } ?? ""
        let inviteRows = invites.map { invite -> HTML in
            let until = AccountPage.date(invite.expiresAt, zone)
            return """
            <li><form method="post" action="\(SitePath.deleteInvite.link(invite.id))" class="inline">
            \(Layout.csrfField(context))
            <span>\(t(one: "until \(until), \(invite.usesLeft) use left", other: "until \(until), \(invite.usesLeft) uses left"))</span>
            <button type="submit" class="delete" aria-label="\(t("Delete the invite \(invite.id)"))">\(t("Delete"))</button>
            </form></li>
            """
        }
        return Layout.page(t("Administration"), context, notice: notice, error: error, """
        <h1>\(t("Server administration"))</h1>
        <section aria-labelledby="signup-title">
        <h2 id="signup-title">\(t("Sign-up"))</h2>
        <form method="post" action="\(SitePath.signUpMode.link)" class="stack">
        \(Layout.csrfField(context))
        <fieldset><legend>\(t("Who may create an account"))</legend>\(modes)</fieldset>
        <button type="submit" class="primary">\(t("Save"))</button>
        </form>
        </section>
        <section aria-labelledby="invites-title">
        <h2 id="invites-title">\(t("Invites"))</h2>
        \(created)
        <ul class="kinds">\(inviteRows)</ul>
        <form method="post" action="\(SitePath.invites.link)" class="stack">
        \(Layout.csrfField(context))
        <label for="invite-days">\(t("Works for (days)"))</label>
        <input id="invite-days" name="days" inputmode="numeric" value="7" required>
        <label for="invite-uses">\(t("Accounts it can create"))</label>
        <input id="invite-uses" name="uses" inputmode="numeric" value="1" required>
        <button type="submit" class="secondary">\(t("Create an invite"))</button>
        </form>
        </section>
        <section aria-labelledby="accounts-title">
        <h2 id="accounts-title">\(t("Accounts"))</h2>
        <ul class="kinds">\(accounts.map { accountRow($0, context) })</ul>
        </section>
        """)
    }

    private func accountRow(_ account: Account, _ context: PageContext) -> HTML {
        let name = account.user.name
        let state: HTML = account.isAdmin ? " \(t("(admin)"))" : account.disabledAt != nil ? " <strong>\(t("(disabled)"))</strong>" : ""
        let toggle: HTML = account.isAdmin ? "" : """
            <form method="post" action="\((account.disabledAt == nil ? SitePath.disableAccount : SitePath.enableAccount).link(name))" class="inline">
            \(Layout.csrfField(context))
            <button type="submit" class="secondary">\(account.disabledAt == nil ? t("Disable \(name)") : t("Enable \(name)"))</button>
            </form>
            """
        return """
        <li><span>\(name)\(state)</span>
        \(toggle)
        <form method="post" action="\(SitePath.resetPassword.link(name))" class="inline">
        \(Layout.csrfField(context))
        <span id="password-\(name)-name" class="visually-hidden">\(t("New password for \(name)"))</span>
        <input id="password-\(name)" aria-labelledby="password-\(name)-name" name="password" type="password" autocomplete="new-password" minlength="8" required placeholder="\(t("new password"))">
        <button type="submit" class="secondary">\(t("Set password"))</button>
        </form>
        <form method="post" action="\(SitePath.clearSignInLock.link(name))" class="inline">
        \(Layout.csrfField(context))
        <button type="submit" class="secondary">\(t("Clear sign-in lock of \(name)"))</button>
        </form></li>
        """
    }
}
