import Foundation

/// What a user name and a password must be (A1).
public enum AccountRules {
    public static let nameLength = 3...32
    /// bcrypt reads at most 72 bytes: a longer password would be silently cut.
    public static let passwordBytes = 8...72

    /// The name, trimmed; letters, digits, ".", "_" and "-" only.
    public static func validateName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        let allowed = trimmed.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)
        }
        guard nameLength.contains(trimmed.count), allowed else {
            throw TallyError.invalid("A user name has 3 to 32 letters, digits, dots, dashes or underscores.")
        }
        return trimmed
    }

    public static func validatePassword(_ password: String) throws {
        guard password.utf8.count >= passwordBytes.lowerBound else {
            throw TallyError.invalid("A password needs at least 8 characters.")
        }
        guard password.utf8.count <= passwordBytes.upperBound else {
            throw TallyError.invalid("A password can be at most 72 bytes long.")
        }
    }
}

/// The slow-down after repeated failed sign-ins (A1): the first few attempts cost nothing, then
/// each one doubles the wait before the next try, up to 15 minutes. Counted per account and
/// per client address, each with its own number of free attempts.
public enum SignInThrottle {
    /// Per account name: a person who mistypes a few times is not slowed.
    public static let freeAttemptsPerAccount = 5
    /// Per client address: a household behind one address signs in often.
    public static let freeAttemptsPerAddress = 20
    public static let longestWait: TimeInterval = 15 * 60
    /// Attempts older than this are forgotten.
    public static let memory: TimeInterval = 24 * 3600

    /// How long from `now` the key must wait before another try, or nil if it may try now.
    public static func wait(attempts: Int, lastAttempt: Date?, now: Date, free: Int) -> TimeInterval? {
        guard attempts >= free, let lastAttempt else { return nil }
        let wait = min(longestWait, pow(2, Double(attempts - free)))
        let remaining = lastAttempt.addingTimeInterval(wait).timeIntervalSince(now)
        return remaining > 0 ? remaining : nil
    }
}
