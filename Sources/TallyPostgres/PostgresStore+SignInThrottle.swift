import Foundation
import PostgresNIO
import TallyCore
import TallyStore

// The sign-in throttle (A1), shared by every instance on the database: its check and its record
// of an attempt happen under the `.server` lock, so parallel guesses, on one instance or on
// several, are counted one after the other and cannot all pass before any is recorded.
extension PostgresStore {
    public func reserveSignInAttempt(_ keys: [ThrottleKey], now: Date) async throws {
        try await write(locking: .server) { connection in
            try await connection.run("DELETE FROM signInAttempt WHERE at < \(now.addingTimeInterval(-SignInThrottle.memory))",
                                     logger: logger)
            let names = keys.map(\.key)
            var recent: [String: (attempts: Int, last: Date)] = [:]
            for row in try await connection.rows("""
                SELECT key, count(*), max(at) FROM signInAttempt WHERE key = ANY(\(names)) GROUP BY key
                """, logger: logger) {
                let (key, attempts, last) = try row.decode((String, Int, Date).self)
                recent[key] = (attempts, last)
            }
            for key in keys {
                let seen = recent[key.key]
                if let wait = SignInThrottle.wait(attempts: seen?.attempts ?? 0, lastAttempt: seen?.last, now: now, free: key.freeAttempts) {
                    let seconds = Int(wait.rounded(.up))
                    throw TallyError(.tooManyRequests, "Too many sign-in attempts; try again in \(seconds) second\(seconds == 1 ? "" : "s").",
                                     retryAfter: seconds)
                }
            }
            try await connection.run("INSERT INTO signInAttempt (key, at) SELECT unnest(\(names)::text[]), \(now)", logger: logger)
        }
    }

    public func signInSucceeded(account: String, others: [String], at: Date) async throws {
        try await write(locking: .server) { connection in
            try await connection.run("DELETE FROM signInAttempt WHERE key = \(account)", logger: logger)
            for key in others {
                try await connection.run("""
                    DELETE FROM signInAttempt WHERE id = (SELECT max(id) FROM signInAttempt WHERE key = \(key) AND at = \(at))
                    """, logger: logger)
            }
        }
    }
}
