import Foundation
import TallyAPI
import TallyCore
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

    func render(_ context: PageContext, notice: String? = nil, error: String? = nil) -> HTML {
        let administration: HTML = isAdmin ? "<p><a href=\"\(SitePath.admin.link)\">Server administration</a>: sign-up, invites and accounts.</p>" : ""
        return Layout.page("Account", context, notice: notice, error: error, """
        <h1>Your account</h1>
        \(administration)
        \(passwordSection(context))
        \(sessionSection(context))
        \(tokenSection(context))
        """)
    }

    private func passwordSection(_ context: PageContext) -> HTML {
        """
        <section aria-labelledby="password-title">
        <h2 id="password-title">Password</h2>
        <form method="post" action="\(SitePath.changePassword.link)" class="stack">
        \(Layout.csrfField(context))
        <label for="current-password">Current password</label>
        <input id="current-password" name="current" type="password" autocomplete="current-password" required>
        <label for="new-password">New password</label>
        <input id="new-password" name="new" type="password" autocomplete="new-password" required minlength="8" aria-describedby="new-password-help">
        <p id="new-password-help" class="help">At least 8 characters. Every other browser signed in as you is signed out.</p>
        <button type="submit" class="primary">Change password</button>
        </form>
        </section>
        """
    }

    private func sessionSection(_ context: PageContext) -> HTML {
        let rows = sessions.map { session -> HTML in
            let here: HTML = session.id == current ? " <strong>(this browser)</strong>" : ""
            return "<li>\(session.device)\(here)<br><span class=\"help\">signed in \(Self.date(session.createdAt, zone)), last seen \(session.lastSeenAt.map { Self.date($0, zone) } ?? "never")</span></li>"
        }
        return """
        <section aria-labelledby="sessions-title">
        <h2 id="sessions-title">Where you are signed in</h2>
        <ul class="kinds">\(rows)</ul>
        <form method="post" action="\(SitePath.signOutElsewhere.link)" class="row">
        \(Layout.csrfField(context))
        <button type="submit" class="secondary">Sign out everywhere else</button>
        </form>
        </section>
        """
    }

    private func tokenSection(_ context: PageContext) -> HTML {
        let rows = tokens.filter { $0.revokedAt == nil }.map { token -> HTML in
            let expiry = token.expiresAt.map { "expires \(Self.date($0, zone))" } ?? "never expires"
            return """
            <li><form method="post" action="\(SitePath.revokeToken.link(token.id))" class="inline">
            \(Layout.csrfField(context))
            <span><strong>\(token.name)</strong> (\(Self.scopeWords(token.scope)))<br><span class="help">created \(Self.date(token.createdAt, zone)), \
            last used \(token.lastUsedAt.map { Self.date($0, zone) } ?? "never"), \(expiry)</span></span>
            <button type="submit" class="delete" aria-label="Revoke \(token.name)">Revoke</button>
            </form></li>
            """
        }
        let revokeAll: HTML = rows.isEmpty ? "" : """
            <form method="post" action="\(SitePath.revokeAllTokens.link)">
            \(Layout.csrfField(context))
            <button type="submit" class="delete">Revoke all tokens</button>
            </form>
            """
        let scopes = TokenScope.allCases.map { scope -> HTML in
            """
            <input type="radio" id="scope-\(scope.rawValue)" name="scope" value="\(scope.rawValue)"\(HTML.flag("checked", scope == .write))>
            <label for="scope-\(scope.rawValue)">\(Self.scopeWords(scope))</label><br>
            """
        }
        let created: HTML = newToken.map { secret in """
            <p role="status">Your new token (shown only this once): <strong class="code secret">\(secret)</strong></p>
            """ } ?? ""
        return """
        <section aria-labelledby="tokens-title">
        <h2 id="tokens-title">API tokens</h2>
        <p class="help">For the command line (<code>tally --server … --token …</code>) and scripts.</p>
        \(created)
        <ul class="kinds">\(rows)</ul>
        \(revokeAll)
        <form method="post" action="\(SitePath.tokens.link)" class="stack">
        \(Layout.csrfField(context))
        <label for="token-name">Name</label>
        <input id="token-name" name="name" required maxlength="60" placeholder="laptop">
        <label for="token-days">Expires after (days, empty for never)</label>
        <input id="token-days" name="days" inputmode="numeric" pattern="[0-9]*">
        <fieldset><legend>It may</legend>
        \(scopes)
        </fieldset>
        <button type="submit" class="secondary">Create a token</button>
        </form>
        </section>
        """
    }

    /// What a token of `scope` may do, in a few words.
    static func scopeWords(_ scope: TokenScope) -> String {
        switch scope {
        case .read: "read only"
        case .write: "read and change everything"
        case .drinks: "log drinks and read today only"
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
            case .open: "Open: anyone who reaches the server"
            case .invite: "By invite: with a server invite link"
            case .closed: "Closed: you create the accounts"
            }
            return """
            <input type="radio" id="mode-\(choice.rawValue)" name="mode" value="\(choice.rawValue)"\(HTML.flag("checked", choice == mode))>
            <label for="mode-\(choice.rawValue)">\(label)</label><br>
            """
        }
        let created: HTML = newInvite.map { code in """
            <p role="status">The invite link (shown only this once): <a class="invite-link secret" href="\(SitePath.signUp.link)?invite=\(code)">\(origin)\(SitePath.signUp.link)?invite=\(code)</a></p>
            """ } ?? ""
        let inviteRows = invites.map { invite -> HTML in
            """
            <li><form method="post" action="\(SitePath.deleteInvite.link(invite.id))" class="inline">
            \(Layout.csrfField(context))
            <span>until \(AccountPage.date(invite.expiresAt, zone)), \(invite.usesLeft) use\(invite.usesLeft == 1 ? "" : "s") left</span>
            <button type="submit" class="delete" aria-label="Delete the invite \(invite.id)">Delete</button>
            </form></li>
            """
        }
        return Layout.page("Administration", context, notice: notice, error: error, """
        <h1>Server administration</h1>
        <section aria-labelledby="signup-title">
        <h2 id="signup-title">Sign-up</h2>
        <form method="post" action="\(SitePath.signUpMode.link)" class="stack">
        \(Layout.csrfField(context))
        <fieldset><legend>Who may create an account</legend>\(modes)</fieldset>
        <button type="submit" class="primary">Save</button>
        </form>
        </section>
        <section aria-labelledby="invites-title">
        <h2 id="invites-title">Invites</h2>
        \(created)
        <ul class="kinds">\(inviteRows)</ul>
        <form method="post" action="\(SitePath.invites.link)" class="stack">
        \(Layout.csrfField(context))
        <label for="invite-days">Works for (days)</label>
        <input id="invite-days" name="days" inputmode="numeric" value="7" required>
        <label for="invite-uses">Accounts it can create</label>
        <input id="invite-uses" name="uses" inputmode="numeric" value="1" required>
        <button type="submit" class="secondary">Create an invite</button>
        </form>
        </section>
        <section aria-labelledby="accounts-title">
        <h2 id="accounts-title">Accounts</h2>
        <ul class="kinds">\(accounts.map { accountRow($0, context) })</ul>
        </section>
        """)
    }

    private func accountRow(_ account: Account, _ context: PageContext) -> HTML {
        let name = account.user.name
        let state: HTML = account.isAdmin ? " (admin)" : account.disabledAt != nil ? " <strong>(disabled)</strong>" : ""
        let toggle: HTML = account.isAdmin ? "" : """
            <form method="post" action="\((account.disabledAt == nil ? SitePath.disableAccount : SitePath.enableAccount).link(name))" class="inline">
            \(Layout.csrfField(context))
            <button type="submit" class="secondary">\(account.disabledAt == nil ? "Disable" : "Enable") \(name)</button>
            </form>
            """
        return """
        <li><span>\(name)\(state)</span>
        \(toggle)
        <form method="post" action="\(SitePath.resetPassword.link(name))" class="inline">
        \(Layout.csrfField(context))
        <span id="password-\(name)-name" class="visually-hidden">New password for \(name)</span>
        <input id="password-\(name)" aria-labelledby="password-\(name)-name" name="password" type="password" autocomplete="new-password" minlength="8" required placeholder="new password">
        <button type="submit" class="secondary">Set password</button>
        </form>
        <form method="post" action="\(SitePath.clearSignInLock.link(name))" class="inline">
        \(Layout.csrfField(context))
        <button type="submit" class="secondary">Clear sign-in lock of \(name)</button>
        </form></li>
        """
    }
}
