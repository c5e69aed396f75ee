import Crypto
import Foundation
import Hummingbird

/// One sign-in through the provider, from the redirect to the provider until its answer comes
/// back: the secrets that tie the answer to this browser (state, nonce, PKCE verifier) and what
/// the sign-in is for. It waits in the browser, in a cookie sealed with a key of the server's
/// (ChaCha20-Poly1305: neither readable nor changeable there), for ten minutes at most.
struct OpenIDFlow: Codable, Equatable, Sendable {
    enum Purpose: String, Codable, Sendable {
        /// Signing in, or up on a first sign-in.
        case signIn
        /// Linking the provider to the account signed in (`account`).
        case link
    }

    var purpose: Purpose
    var state: String
    var nonce: String
    var verifier: String
    var startedAt: Date
    /// The account to link, for `link`.
    var account: UUID?
    /// A server invite's code, for a first sign-in on a server that takes accounts by invite.
    var invite: String?
    /// A ledger invite's code: the new account joins that ledger next.
    var join: String?
    /// Where the provider sends the answer, as the start wrote it: the token request must name
    /// the same address, whichever host the answer arrives at.
    var redirect: String = ""

    init(purpose: Purpose, startedAt: Date, account: UUID? = nil, invite: String? = nil, join: String? = nil) {
        self.purpose = purpose
        state = AccountService.newSecret()
        nonce = AccountService.newSecret()
        verifier = AccountService.newSecret()
        self.startedAt = startedAt
        self.account = account
        self.invite = invite
        self.join = join
    }

    /// PKCE's S256 challenge (RFC 7636 §4.2).
    var challenge: String {
        Data(SHA256.hash(data: Data(verifier.utf8))).base64URL
    }

    static let lifetime: TimeInterval = 600
    /// How far behind another instance's clock may be when the answer reaches it.
    static let skew: TimeInterval = 5
    static let cookieName = "tally_oidc"

    /// The cookie that carries a sealed flow, or (nil) ends it. It goes back only to the
    /// answer's address, and with SameSite=Lax: the answer is a top-level visit from the provider.
    static func cookie(_ sealed: String?, secure: Bool) -> Cookie {
        Cookie(name: cookieName, value: sealed ?? "", maxAge: sealed == nil ? 0 : Int(lifetime), path: "/signin/oidc", secure: secure,
               httpOnly: true, sameSite: .lax)
    }

    func sealed(with key: SymmetricKey) throws -> String {
        try ChaChaPoly.seal(JSONEncoder().encode(self), using: key).combined.base64URL
    }

    /// The flow of a cookie sealed with `key` and not yet ten minutes old; nil for anything else.
    static func opened(_ cookie: String?, with key: SymmetricKey, now: Date) -> OpenIDFlow? {
        guard let cookie, let data = Data(base64URL: cookie), let box = try? ChaChaPoly.SealedBox(combined: data),
              let plain = try? ChaChaPoly.open(box, using: key), let flow = try? JSONDecoder().decode(OpenIDFlow.self, from: plain),
              flow.startedAt <= now.addingTimeInterval(skew), now.timeIntervalSince(flow.startedAt) < lifetime else { return nil }
        return flow
    }

    /// The key flows are sealed with: derived from the server's CSRF key, so that every instance
    /// of a server opens the flows of the others.
    static func key(from serverKey: Data) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: serverKey), info: Data("tally openid flow".utf8), outputByteCount: 32)
    }
}
