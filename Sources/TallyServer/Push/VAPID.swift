import Crypto
import Foundation
import TallyCore

/// The server's identity towards push services (RFC 8292): a P-256 key whose public half the
/// browser is given when it subscribes, and a signed JWT on every push request.
struct VAPID: Sendable {
    /// The private key's 32 bytes (swift-crypto's key type is not Sendable on Linux).
    let privateKey: Data
    /// Who runs this server, for push services to contact ("mailto:…" or an https URL).
    let subject: String

    init(key: P256.Signing.PrivateKey, subject: String) {
        privateKey = key.rawRepresentation
        self.subject = subject
    }

    private var key: P256.Signing.PrivateKey { try! P256.Signing.PrivateKey(rawRepresentation: privateKey) }

    /// The public key as the browser's PushManager wants it: 65 bytes, base64url.
    var publicKey: String { key.publicKey.x963Representation.base64URL }

    /// The Authorization header for a push to `endpoint`, valid for 12 hours.
    func authorization(for endpoint: URL, now: Date) throws -> String {
        guard let scheme = endpoint.scheme, let host = endpoint.host else {
            throw TallyError.invalid("A push endpoint must be an absolute URL.")
        }
        let audience = "\(scheme)://\(host)" + (endpoint.port.map { ":\($0)" } ?? "")
        let header = Data(#"{"typ":"JWT","alg":"ES256"}"#.utf8).base64URL
        let claims = try JSONSerialization.data(withJSONObject: [
            "aud": audience, "exp": Int(now.timeIntervalSince1970) + 12 * 3600, "sub": subject,
        ], options: [.sortedKeys])
        let unsigned = header + "." + claims.base64URL
        let signature = try key.signature(for: Data(unsigned.utf8)).rawRepresentation
        return "vapid t=\(unsigned).\(signature.base64URL), k=\(publicKey)"
    }
}
