import Foundation
import HummingbirdBcrypt
import NIOConcurrencyHelpers
import TallyCore
import TallyRepositories
import TallyServices

/// bcrypt, a few hashes at a time. Each hash holds a core for about a quarter of a second on
/// purpose; without a bound, a stream of sign-ins or sign-ups would take every core, so beyond
/// it the server answers "busy, try again in a second" (503 with Retry-After).
final class PasswordHasher: Sendable {
    let cost: Int
    let limit: Int
    private let inFlight = NIOLockedValueBox(0)
    private let checks = NIOLockedValueBox(0)
    private let hashes = NIOLockedValueBox(0)
    private let decoy = NIOLockedValueBox<String?>(nil)

    init(cost: Int, limit: Int = max(2, 2 * ProcessInfo.processInfo.activeProcessorCount)) {
        self.cost = cost
        self.limit = limit
    }

    /// How many passwords were checked so far: tests count what reached the hash.
    var checked: Int { checks.withLockedValue { $0 } }
    /// How many new hashes were made so far (sign-ups, new passwords).
    var hashed: Int { hashes.withLockedValue { $0 } }
    /// How many hashes run now.
    var running: Int { inFlight.withLockedValue { $0 } }

    func hash(_ password: String) async throws -> String {
        let cost = UInt8(cost)
        defer { hashes.withLockedValue { $0 += 1 } }
        return try await bounded { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` matches `hash`. With no hash (an unknown name) a decoy of the same
    /// cost is checked instead, so that the time taken does not tell which names exist.
    func verify(_ password: String, against hash: String?) async throws -> Bool {
        let usable = hash.flatMap { Self.isUsable($0) ? $0 : nil }
        let target: String
        if let usable { target = usable } else { target = try await decoyHash() }
        let matches = try await bounded { Bcrypt.verify(password, hash: target) }
        checks.withLockedValue { $0 += 1 }
        return usable != nil && matches
    }

    /// What an account made through an OpenID provider keeps in place of a hash: no password
    /// matches it (it is checked like an unknown name's, against the decoy).
    static let noPassword = "!no password: signs in through its provider"

    static func isUsable(_ hash: String) -> Bool { !hash.hasPrefix("!") }

    /// A hash of no one's password at the real cost, made once: at start (`beforeServerStarts`),
    /// so that the first unknown name does not pay for it and stand out.
    @discardableResult
    func decoyHash() async throws -> String {
        if let made = decoy.withLockedValue({ $0 }) { return made }
        let made = try await hash(AccountService.newSecret())
        decoy.withLockedValue { $0 = $0 ?? made }
        return made
    }

    /// Runs `work` off Swift's few cooperative threads, refused when `limit` hashes run already.
    private func bounded<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        let admitted = inFlight.withLockedValue { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard admitted else {
            throw TallyError(.busy, "The server is busy checking other passwords; try again in a second.", retryAfter: 1)
        }
        defer { inFlight.withLockedValue { $0 -= 1 } }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }
}

/// The server's own secrets that live in the database (so that every instance shares them),
/// read once per process.
final class ServerSecrets: Sendable {
    private let store: any TallyStorage
    private let csrf = NIOLockedValueBox<Data?>(nil)

    init(store: any TallyStorage) { self.store = store }

    /// The key CSRF tokens are made with.
    func csrfKey() async throws -> Data {
        if let key = csrf.withLockedValue({ $0 }) { return key }
        let key = try await store.serverKey(named: "csrf") { Data(AccountService.randomBytes(32)) }
        csrf.withLockedValue { $0 = key }
        return key
    }
}

extension Account {
    /// Whether the account has a password of its own (see `PasswordHasher.noPassword`).
    var hasPassword: Bool { PasswordHasher.isUsable(passwordHash) }
}
