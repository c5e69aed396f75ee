import Foundation

/// Sign-in through the household's OpenID Connect provider (TALLY_OIDC_…): where it is, who
/// Tally is to it, and what the sign-in button calls it.
public struct OpenIDSettings: Sendable {
    /// The provider's issuer, exactly as configured (some end in "/", and `iss` must match it to
    /// the character); its configuration is read from `{issuer without a final /}/.well-known/openid-configuration`.
    public let issuer: String
    let discovery: URL
    public let clientID: String
    public let clientSecret: String
    /// "Sign in with {name}".
    public let name: String

    /// Checks the settings: an https issuer (http only on this machine, for a provider run
    /// beside Tally), and a client id and secret.
    public init(issuer: String, clientID: String, clientSecret: String, name: String?) throws {
        let trimmed = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        guard let url = URL(string: trimmed), let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil,
              let discovery = URL(string: trimmed + "/.well-known/openid-configuration"),
              url.scheme == "https" || (url.scheme == "http" && Self.loopback.contains(host)) else {
            throw OpenIDSettingsError("The OpenID issuer must be an https URL such as https://id.example.com/realms/home (http only on 127.0.0.1 or localhost); \"\(issuer)\" is not.")
        }
        guard !clientID.isEmpty, !clientSecret.isEmpty else {
            throw OpenIDSettingsError("Sign-in through an OpenID provider needs its client id and client secret (TALLY_OIDC_CLIENT_ID, TALLY_OIDC_CLIENT_SECRET).")
        }
        let name = name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard name.count <= 40, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw OpenIDSettingsError("The provider's name is shown on the sign-in button: at most 40 characters, such as \"Authentik\".")
        }
        self.issuer = issuer
        self.discovery = discovery
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.name = name.isEmpty ? host : name
    }

    private static let loopback: Set<String> = ["127.0.0.1", "localhost", "[::1]", "::1"]
}

public struct OpenIDSettingsError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
