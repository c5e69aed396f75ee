import Crypto
import Foundation
import TallyCore
import TallyStore

/// The server's push identity and sender: the VAPID key is made on first use and kept in the
/// database, so every instance and every restart signs with the same key that browsers
/// subscribed with.
struct PushCenter: Sendable {
    let store: any TallyStorage
    let contact: String
    var endpoints = PushEndpointPolicy.publicHTTPS

    func vapid() async throws -> VAPID {
        let raw = try await store.serverKey(named: "vapid") { P256.Signing.PrivateKey().rawRepresentation }
        return VAPID(key: try P256.Signing.PrivateKey(rawRepresentation: raw), subject: contact)
    }

    func sender() async throws -> PushSender {
        PushSender(vapid: try await vapid(), store: store, policy: endpoints)
    }
}
