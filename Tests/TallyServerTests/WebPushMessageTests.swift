import Crypto
import Foundation
import Testing
@testable import TallyServer

/// Web Push's message encryption (RFC 8291) and the VAPID signature (RFC 8292), checked
/// against the RFC's own example and by a receiver written here from the RFCs' text.
@Suite("Web Push messages (H11)")
struct WebPushMessageTests {
    static func data(_ text: String) -> Data { Data(base64URL: text)! }

    /// The example of RFC 8291, appendix A.
    enum Example {
        static let plaintext = "When I grow up, I want to be a watermelon"
        static let serverPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
        static let browserPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
        static let browserPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
        static let auth = "BTBZMqHH6r4Tts7J_aSIgg"
        static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
        static let body = "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    }

    @Test("RFC 8291 appendix A: the same keys and salt give the RFC's body byte for byte")
    func rfcExample() throws {
        let body = try WebPushMessage.encrypt(
            Data(Example.plaintext.utf8), p256dh: Self.data(Example.browserPublic), auth: Self.data(Example.auth),
            salt: Self.data(Example.salt), serverKey: try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.data(Example.serverPrivate)))
        #expect(body.base64URL == Example.body)
    }

    /// What a browser does with a push body (RFC 8291 section 3, RFC 8188), written from the
    /// RFCs with HMAC directly rather than with the sender's code.
    static func decrypt(_ body: Data, browserKey: P256.KeyAgreement.PrivateKey, auth: Data) throws -> String {
        let salt = body.prefix(16)
        let idLength = Int(body[body.startIndex + 20])
        let serverPublic = body.subdata(in: body.startIndex + 21 ..< body.startIndex + 21 + idLength)
        let record = body.suffix(from: body.startIndex + 21 + idLength)
        let shared = try browserKey.sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(x963Representation: serverPublic))
        func hmac(_ key: Data, _ message: Data) -> Data { Data(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))) }
        let ecdh = shared.withUnsafeBytes { Data($0) }
        let keyInfo = Data("WebPush: info\0".utf8) + browserKey.publicKey.x963Representation + serverPublic
        let ikm = hmac(hmac(auth, ecdh), keyInfo + Data([1]))
        let prk = hmac(Data(salt), ikm)
        let cek = hmac(prk, Data("Content-Encoding: aes128gcm\0".utf8) + Data([1])).prefix(16)
        let nonce = hmac(prk, Data("Content-Encoding: nonce\0".utf8) + Data([1])).prefix(12)
        let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce), ciphertext: record.dropLast(16), tag: record.suffix(16))
        var plain = try AES.GCM.open(box, using: SymmetricKey(data: cek))
        // The last record ends with 0x02 and any padding zeros before it.
        while plain.last == 0 { plain.removeLast() }
        #expect(plain.last == 2)
        return String(decoding: plain.dropLast(), as: UTF8.self)
    }

    @Test("RFC 8291: a receiver with the subscription's private key reads the message; another key cannot")
    func roundTrip() throws {
        let browser = P256.KeyAgreement.PrivateKey()
        let auth = WebPushMessage.randomBytes(16)
        let body = try WebPushMessage.encrypt(Data("Time for a glass of water".utf8),
                                              p256dh: browser.publicKey.x963Representation, auth: auth)
        #expect(try Self.decrypt(body, browserKey: browser, auth: auth) == "Time for a glass of water")
        #expect(throws: (any Error).self) { try Self.decrypt(body, browserKey: P256.KeyAgreement.PrivateKey(), auth: auth) }
        #expect(throws: (any Error).self) { try Self.decrypt(body, browserKey: browser, auth: WebPushMessage.randomBytes(16)) }
    }

    @Test("RFC 8292: the JWT is signed by the key it names, for the endpoint's origin, for 12 hours")
    func vapid() throws {
        let vapid = VAPID(key: P256.Signing.PrivateKey(), subject: "mailto:admin@tally.example")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let header = try vapid.authorization(for: URL(string: "https://push.example.net:8443/send/abc?x=1")!, now: now)
        let parts = header.split(separator: " ")
        #expect(parts.first == "vapid")
        let token = String(parts[1].dropFirst(2).dropLast()) // "t=….," → the JWT
        let key = String(parts[2].dropFirst(2))
        #expect(key == vapid.publicKey && Self.data(key).count == 65)
        let pieces = token.split(separator: ".").map(String.init)
        #expect(pieces.count == 3)
        let publicKey = try P256.Signing.PublicKey(x963Representation: Self.data(key))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: Self.data(pieces[2]))
        #expect(publicKey.isValidSignature(signature, for: Data((pieces[0] + "." + pieces[1]).utf8)))
        let claims = try JSONSerialization.jsonObject(with: Self.data(pieces[1])) as! [String: Any]
        #expect(claims["aud"] as? String == "https://push.example.net:8443")
        #expect(claims["sub"] as? String == "mailto:admin@tally.example")
        #expect(claims["exp"] as? Int == 1_800_000_000 + 12 * 3600)
        let jose = try JSONSerialization.jsonObject(with: Self.data(pieces[0])) as! [String: String]
        #expect(jose == ["typ": "JWT", "alg": "ES256"])
    }
}
