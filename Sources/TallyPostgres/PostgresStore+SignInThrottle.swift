import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

// The sign-in throttle (A1), shared by every instance on the database: its check and its record
// of an attempt happen under the `.server` lock, so parallel guesses, on one instance or on
// several, are counted one after the other and cannot all pass before any is recorded.
extension PostgresStore {
    public func reserveSignInAttempt(_ keys: [ThrottleKey], now: Date) async throws {
        try await write(locking: .server) { [self] connection in
            let trusted = SignInThrottle.trustPrefix
            try await connection.run("""
                DELETE FROM signInAttempt WHERE at < \(now.addingTimeInterval(-SignInThrottle.memory)) AND NOT starts_with(key, \(trusted))
                """, logger: logger)
            try await connection.run("""
                DELETE FROM signInAttempt WHERE at < \(now.addingTimeInterval(-SignInThrottle.trust)) AND starts_with(key, \(trusted))
                """, logger: logger)
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
                    throw signInThrottled(wait)
                }
            }
            try await connection.run("INSERT INTO signInAttempt (key, at) SELECT unnest(\(names)::text[]), \(now)", logger: logger)
        }
    }

    public func signInSucceeded(forgetting: [String], releasing: [String], trusting: String?, at: Date) async throws {
        try await write(locking: .server) { [self] connection in
            try await connection.run("DELETE FROM signInAttempt WHERE key = ANY(\(forgetting + (trusting.map { [$0] } ?? [])))", logger: logger)
            for key in releasing {
                try await connection.run("""
                    DELETE FROM signInAttempt WHERE id = (SELECT max(id) FROM signInAttempt WHERE key = \(key) AND at = \(at))
                    """, logger: logger)
            }
            if let trusting {
                try await connection.run("INSERT INTO signInAttempt (key, at) VALUES (\(trusting), \(at))", logger: logger)
            }
        }
    }

    public func isTrusted(_ key: String, now: Date) async throws -> Bool {
        try await read { [self] connection in
            try await connection.row("""
                SELECT 1 FROM signInAttempt WHERE key = \(key) AND at >= \(now.addingTimeInterval(-SignInThrottle.trust))
                """, logger: logger) != nil
        }
    }

    public func clearSignInAttempts(account name: String) async throws {
        try await write(locking: .server) { [self] connection in
            try await connection.run("""
                DELETE FROM signInAttempt WHERE key = \(SignInThrottle.accountKey(name)) OR starts_with(key, \(SignInThrottle.pairKey(name, "")))
                """, logger: logger)
        }
    }
}
