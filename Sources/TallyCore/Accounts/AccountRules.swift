import Foundation

/// What a user name and a password must be (A1).
public enum AccountRules {
    public static let nameLength = 3...32
    /// bcrypt reads at most 72 bytes: a longer password would be silently cut.
    public static let passwordBytes = 8...72

    /// The name, trimmed; letters, digits, ".", "_" and "-" only.
    public static func validateName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard nameLength.contains(trimmed.count), trimmed.unicodeScalars.allSatisfy(isNameCharacter) else {
            throw TallyError.invalid("A user name has 3 to 32 letters, digits, dots, dashes or underscores.")
        }
        return trimmed
    }

    /// What a user name is written with.
    static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar)
    }

    public static func validatePassword(_ password: String) throws {
        guard password.utf8.count >= passwordBytes.lowerBound else {
            throw TallyError.invalid("A password needs at least 8 characters.")
        }
        guard password.utf8.count <= passwordBytes.upperBound else {
            throw TallyError.invalid("A password can be at most 72 bytes long.")
        }
    }

    /// The names a first sign-in through an OpenID provider may take, best first, from what the
    /// provider offers (its user name, the person's name, the e-mail's local part): written in
    /// Latin letters without accents, spaces as "-", anything else left out, 3 to 32 long; then
    /// the first of them with "-2", "-3"… for when those are taken. "user" when nothing is left.
    public static func providerNames(from offered: [String]) -> [String] {
        var names: [String] = []
        for text in offered.map({ String($0.prefix(128)) }) {
            let latin = (text.applyingTransform(.toLatin, reverse: false) ?? text).applyingTransform(.stripDiacritics, reverse: false) ?? text
            let kept = latin.unicodeScalars.compactMap { $0 == " " ? "-" : isNameCharacter($0) ? $0 : nil }
            var name = String(String.UnicodeScalarView(kept).prefix(nameLength.upperBound))
            name = name.trimmingCharacters(in: CharacterSet(charactersIn: "-."))
            if nameLength.contains(name.count), !names.contains(name) { names.append(name) }
        }
        let base = names.first ?? "user"
        if names.isEmpty { names.append(base) }
        return names + (2...99).map { number in String(base.prefix(nameLength.upperBound - 1 - String(number).count)) + "-\(number)" }
    }
}

/// The slow-down after repeated failed sign-ins (A1): the first few attempts cost nothing, then
/// each one doubles the wait before the next try, up to 15 minutes. Counted per account and
/// client address together, per client address, and per account across every address: the
/// last is a ceiling that a crowd of addresses reaches, and it does not hold back an address
/// that signed in to the account before, so that nobody can lock the owner out by guessing.
public enum SignInThrottle {
    /// Per account name from one address: a person who mistypes a few times is not slowed.
    public static let freeAttemptsPerAccountAndAddress = 5
    /// Per client address: a household behind one address signs in often.
    public static let freeAttemptsPerAddress = 20
    /// Per account name from all addresses together, except those it trusts.
    public static let freeAttemptsPerAccount = 100
    /// Sign-ups per client address, each counted whether it succeeds or not.
    public static let freeSignUpsPerAddress = 10
    public static let longestWait: TimeInterval = 15 * 60
    /// Attempts older than this are forgotten.
    public static let memory: TimeInterval = 24 * 3600
    /// How long an address that signed in to an account stays trusted by it.
    public static let trust: TimeInterval = 30 * 24 * 3600

    /// The keys attempts are counted under; names are compared without case.
    public static func accountKey(_ name: String) -> String { "account:" + name.lowercased() }
    public static func pairKey(_ name: String, _ address: String) -> String { "pair:" + name.lowercased() + "|" + address }
    public static func addressKey(_ address: String) -> String { "address:" + address }
    public static func signUpKey(_ address: String) -> String { "sign-up:" + address }
    /// Recorded when a sign-in from the address succeeds; kept for `trust`, not `memory`.
    public static func trustKey(_ name: String, _ address: String) -> String { trustPrefix + name.lowercased() + "|" + address }
    public static let trustPrefix = "trusted:"

    /// How long from `now` the key must wait before another try, or nil if it may try now.
    public static func wait(attempts: Int, lastAttempt: Date?, now: Date, free: Int) -> TimeInterval? {
        guard attempts >= free, let lastAttempt else { return nil }
        let wait = min(longestWait, pow(2, Double(attempts - free)))
        let remaining = lastAttempt.addingTimeInterval(wait).timeIntervalSince(now)
        return remaining > 0 ? remaining : nil
    }
}
