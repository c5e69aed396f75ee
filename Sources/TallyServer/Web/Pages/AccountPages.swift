import Foundation
import TallyCore
import TallyStore

/// Sign-up, sign-in and onboarding (A1, H12).
enum AccountPages {
    static func signIn(_ context: PageContext, name: String = "", error: String? = nil) -> HTML {
        Layout.page("Sign in", context, error: error, """
        <h1>Sign in</h1>
        <form method="post" action="\(SitePath.signIn.link)" class="stack">
        \(Layout.csrfField(context))
        <label for="name">User name</label>
        <input id="name" name="name" autocomplete="username" required value="\(name)" autocapitalize="none">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required>
        <button type="submit" class="primary">Sign in</button>
        </form>
        <p>New here? <a href="\(SitePath.signUp.link)">Create an account</a>.</p>
        """)
    }

    /// The sign-up form as the server's mode allows it: with an invite field when invites are
    /// needed, a sentence instead of the form when sign-up is closed (A1).
    static func signUp(_ context: PageContext, mode: SignUpMode, name: String = "", invite: String = "", error: String? = nil) -> HTML {
        guard mode != .closed else {
            return Layout.page("Create an account", context, error: error, """
            <h1>Create an account</h1>
            <p>This server does not take new accounts: ask its admin to create one for you.</p>
            <p>Have an account? <a href="\(SitePath.signIn.link)">Sign in</a>.</p>
            """)
        }
        let inviteField: HTML = mode == .invite ? """
        <label for="invite">Invite code</label>
        <input id="invite" name="invite" required autocomplete="off" autocapitalize="none" spellcheck="false" value="\(invite)"
               aria-describedby="invite-help">
        <p id="invite-help" class="help">This server takes new accounts by invite: the code is in the link you were given.</p>
        """ : ""
        return Layout.page("Create an account", context, error: error, """
        <h1>Create an account</h1>
        <form method="post" action="\(SitePath.signUp.link)" class="stack">
        \(Layout.csrfField(context))
        \(inviteField)
        <label for="name">User name</label>
        <input id="name" name="name" autocomplete="username" required minlength="3" maxlength="32"
               pattern="[A-Za-z0-9._-]{3,32}" aria-describedby="name-help" value="\(name)" autocapitalize="none">
        <p id="name-help" class="help">3 to 32 letters, digits, dots, dashes or underscores.</p>
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" aria-describedby="password-help">
        <p id="password-help" class="help">At least 8 characters.</p>
        <input type="hidden" name="timeZone" value="" data-time-zone>
        <button type="submit" class="primary">Create account</button>
        </form>
        <p>Have an account? <a href="\(SitePath.signIn.link)">Sign in</a>.</p>
        """)
    }

    /// First run: age, weight and activity give a goal with its breakdown; can be skipped (H12).
    static func onboarding(_ context: PageContext, preview: GoalBreakdown?, age: String = "", weight: String = "",
                           activity: ActivityLevel = .moderate, error: String? = nil) -> HTML {
        Layout.page("Welcome", context, error: error, """
        <h1>Your daily goal</h1>
        <p>Tally suggests a goal from your age, weight and activity. You can change it any time, or skip this.</p>
        <form method="post" action="\(SitePath.onboarding.link)" class="stack" data-goal-preview>
        \(Layout.csrfField(context))
        \(SettingsPages.profileFields(age: age, weight: weight, activity: activity))
        <output class="breakdown" id="goal-preview" for="age weight activity" aria-live="polite">\(preview.map { SettingsPages.breakdown($0) } ?? "")</output>
        <div class="row">
        <button type="submit" class="primary" name="action" value="save">Use this goal</button>
        <button type="submit" class="secondary" name="action" value="preview">Show the goal</button>
        </div>
        </form>
        <p><a href="\(SitePath.today.link)">Skip for now</a> (the goal stays at 2500 ml).</p>
        """)
    }
}
