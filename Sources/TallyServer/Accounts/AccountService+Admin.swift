import Foundation
import TallyCore
import TallyRepositories
import TallyServices

/// What the admin's page reads and changes besides accounts' sign-in: the sign-up mode, the
/// server's invites, every account.
extension AccountService {
    public func setSignUpMode(_ mode: SignUpMode) async throws {
        try await store.setSignUpMode(mode)
    }

    /// The invites that can still be used.
    public func signUpInvites() async throws -> [SignUpInviteInfo] {
        try await store.signUpInvites(now: clock.now)
    }

    public func deleteSignUpInvite(id: String) async throws {
        try await store.deleteSignUpInvite(id: id)
    }

    public func accounts() async throws -> [Account] {
        try await store.accounts()
    }

    /// The admin gives an account a new password; every session and API token of it ends.
    public func resetPassword(named name: String, to password: String) async throws {
        guard let account = try await store.account(named: name) else {
            throw TallyError.notFound("There is no account named \(name).")
        }
        try await setPassword(of: account.user, to: password)
        _ = try await store.deleteSessions(of: account.user.id, except: nil)
        _ = try await store.revokeAPITokens(of: account.user.id, at: clock.now)
    }

    /// The admin lifts the sign-in throttle on an account: the attempts counted against its
    /// name, from every address, are forgotten.
    public func clearSignInLock(named name: String) async throws {
        guard let account = try await store.account(named: name) else {
            throw TallyError.notFound("There is no account named \(name).")
        }
        try await store.clearSignInAttempts(account: account.user.name)
    }
}
