import Crypto
import Foundation

/// A push message's body encrypted for one browser subscription (RFC 8291, aes128gcm of
/// RFC 8188): only the browser that holds the subscription's private key can read it.
enum WebPushMessage {
    /// The record size announced in the header; one record holds any reminder.
    static let recordSize: UInt32 = 4096

    /// Encrypts `payload` for the subscription's public key (`p256dh`, 65 bytes) and `auth`
    /// secret (16 bytes). `salt` and `serverKey` are fresh for every message; tests fix them.
    static func encrypt(_ payload: Data, p256dh: Data, auth: Data,
                        salt: Data = randomBytes(16),
                        serverKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey()) throws -> Data {
        let browserKey = try P256.KeyAgreement.PublicKey(x963Representation: p256dh)
        let serverPublic = serverKey.publicKey.x963Representation
        let shared = try serverKey.sharedSecretFromKeyAgreement(with: browserKey)
        let (key, nonce) = keys(shared: shared, auth: auth, salt: salt, browserPublic: p256dh, serverPublic: serverPublic)
        // One record, the last: the payload and the delimiter 0x02, no padding.
        let sealed = try AES.GCM.seal(payload + Data([2]), using: key, nonce: AES.GCM.Nonce(data: nonce))
        var header = salt
        withUnsafeBytes(of: recordSize.bigEndian) { header.append(contentsOf: $0) }
        header.append(UInt8(serverPublic.count))
        header.append(serverPublic)
        return header + sealed.ciphertext + sealed.tag
    }

    /// The content key and nonce both sides derive (RFC 8291 section 3.4, RFC 8188 section 2.2).
    static func keys(shared: SharedSecret, auth: Data, salt: Data, browserPublic: Data, serverPublic: Data) -> (SymmetricKey, Data) {
        let info = Data("WebPush: info".utf8) + Data([0]) + browserPublic + serverPublic
        let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: auth, sharedInfo: info, outputByteCount: 32)
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let key = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Data("Content-Encoding: aes128gcm".utf8) + Data([0]), outputByteCount: 16)
        let nonce = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Data("Content-Encoding: nonce".utf8) + Data([0]), outputByteCount: 12)
        return (key, nonce.withUnsafeBytes { Data($0) })
    }

    static func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}

extension Data {
    /// base64url without padding (RFC 4648 section 5), as Web Push writes keys and secrets.
    init?(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }

    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
