import Foundation
import Testing

/// The admin's commands on the server's database (A1): the sign-up mode, server invites,
/// disabling accounts, tokens that expire.
@Suite("server administration")
struct ServerAdminCommandTests {
    @Test func signUpModeInvitesAndDisabledAccounts() throws {
        let tally = try Sandbox()
        let env = tally.environment()
        let created = try CLI.run(["user", "create", "ada", "--json"], env: env, in: tally.folder, input: "correct horse\n")
        try #require(created.exitCode == 0, "\(created)")
        _ = try CLI.run(["user", "create", "bob"], env: env, in: tally.folder, input: "battery staple\n")

        #expect(try tally.object(["server", "signup"])["signUp"] as? String == "invite", "invite after the first account")
        #expect(try tally.ok(["server", "signup", "closed"]).stdout.contains("Sign-up is closed"))
        #expect(try tally.object(["server", "signup"])["signUp"] as? String == "closed")
        let message = try tally.refused(["server", "signup", "everyone"])
        #expect(message.contains("open, invite or closed"))

        let invite = try tally.object(["server", "invite", "--days", "3", "--uses", "2"])
        #expect((invite["code"] as? String)?.count ?? 0 >= 40 && invite["uses"] as? String == "2")
        try tally.refused(["server", "invite", "--days", "0"])

        #expect(try tally.ok(["user", "disable", "bob"]).stdout.contains("Disabled bob."))
        #expect(try tally.ok(["user", "list"]).stdout.contains("bob (disabled)"))
        try tally.refused(["user", "disable", "ada"], exit: 3)
        try tally.refused(["user", "disable", "nobody"], exit: 2)
        #expect(try tally.ok(["user", "enable", "bob"]).stdout.contains("Enabled bob."))

        let token = try tally.object(["token", "create", "--user", "ada", "--name", "ci", "--expires", "90d"])
        #expect(token["expiresAt"] != nil)
        #expect(try tally.ok(["token", "list", "--user", "ada"]).stdout.contains("expires"))
        let refused = try tally.refused(["token", "create", "--user", "ada", "--expires", "forever"])
        #expect(refused.contains("number of days"))
        #expect(token["scope"] as? String == "write")
        let shortcut = try tally.object(["token", "create", "--user", "ada", "--name", "phone", "--scope", "drinks"])
        #expect(shortcut["scope"] as? String == "drinks")
        #expect(try tally.ok(["token", "list", "--user", "ada"]).stdout.contains("phone  drinks"))
        #expect(try tally.refused(["token", "create", "--user", "ada", "--scope", "admin"]).contains("read, write or drinks"))
    }

    @Test func unlockLiftsTheSignInThrottle() throws {
        let tally = try Sandbox()
        _ = try CLI.run(["user", "create", "ada"], env: tally.environment(), in: tally.folder, input: "correct horse\n")
        #expect(try tally.ok(["user", "unlock", "ada"]).stdout.contains("ada can sign in again at once."))
        try tally.refused(["user", "unlock", "nobody"], exit: 2)
    }
}
