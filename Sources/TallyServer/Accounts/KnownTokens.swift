import Foundation
import Synchronization
import TallyRepositories
import TallyServices

/// The API tokens this server has found valid lately, by hash, with their holders: who asks is
/// then known without a read, and the token is checked again inside the request's own first
/// transaction (`TokenAdmission`), so that a revocation is still seen at once, on every instance.
/// A user's row never changes (names are for good), nor does a token's scope or end, so what is
/// kept here is never stale.
///
/// An entry lasts five minutes, after which the token is looked up again on its own, and its
/// "last used" time kept as before. Only tokens found valid are kept, and at most `capacity`:
/// when full it starts again empty.
final class KnownTokens: Sendable {
    static let lifetime: TimeInterval = 300
    let capacity: Int
    private let tokens = Mutex<[Data: (user: User, grant: TokenGrant, since: Date)]>([:])

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// The holder of a token found valid within the last five minutes, and what it may do.
    func holder(of tokenHash: Data, at now: Date) -> (User, TokenGrant)? {
        tokens.withLock { tokens in
            guard let known = tokens[tokenHash] else { return nil }
            let age = now.timeIntervalSince(known.since)
            return (0..<Self.lifetime).contains(age) ? (known.user, known.grant) : nil
        }
    }

    func remember(_ tokenHash: Data, holder: User, grant: TokenGrant, at now: Date) {
        tokens.withLock { tokens in
            if tokens.count >= capacity { tokens.removeAll(keepingCapacity: true) }
            tokens[tokenHash] = (holder, grant, now)
        }
    }

    func forget(_ tokenHash: Data) {
        _ = tokens.withLock { $0.removeValue(forKey: tokenHash) }
    }
}
