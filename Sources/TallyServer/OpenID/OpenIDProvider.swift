import AsyncHTTPClient
import Foundation
import JWTKit
import Logging
import NIOCore
import NIOFoundationCompat
import NIOPosix
import TallyCore
import TallyRepositories

/// The household's OpenID provider as Tally talks to it: its configuration (discovery), its
/// signing keys (JWKS), and the exchange of a sign-in's code for an ID token that is checked
/// before anyone is signed in. The configuration and keys are kept for an hour; an ID token
/// signed with a key not seen yet fetches the keys again, at most once a minute.
actor OpenIDProvider {
    let settings: OpenIDSettings
    private let logger: Logger
    private var configuration: (value: ProviderConfiguration, fetchedAt: ContinuousClock.Instant)?
    private var keys: (value: JWTKeyCollection, algorithms: [String: String?], fetchedAt: ContinuousClock.Instant)?
    /// When the configuration last could not be read: it is not asked again for a while.
    private var failedAt: ContinuousClock.Instant?

    /// The only algorithms taken: what providers sign ID tokens with. Never "none", never a
    /// shared-secret HMAC.
    static let algorithms: Set<String> = ["RS256", "ES256"]
    static let scope = "openid profile email"

    init(settings: OpenIDSettings, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    // MARK: - The sign-in's steps

    /// Where to send the browser: the provider's authorization endpoint with this flow's state,
    /// nonce and PKCE challenge.
    func authorizationURL(for flow: OpenIDFlow, redirect: String) async throws -> String {
        guard var components = URLComponents(url: try await providerConfiguration().authorizationEndpoint, resolvingAgainstBaseURL: false) else {
            throw unreachable("its authorization endpoint is not an address")
        }
        components.queryItems = (components.queryItems ?? []) + [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "client_id", value: settings.clientID),
            URLQueryItem(name: "redirect_uri", value: redirect),
            URLQueryItem(name: "scope", value: Self.scope),
            URLQueryItem(name: "state", value: flow.state),
            URLQueryItem(name: "nonce", value: flow.nonce),
            URLQueryItem(name: "code_challenge", value: flow.challenge),
            URLQueryItem(name: "code_challenge_method", value: "S256"),
        ]
        // "+" in a query is a space to many servers: spell it out.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        guard let address = components.string else { throw unreachable("its authorization endpoint is not an address") }
        return address
    }

    /// The person the provider signed in: the code exchanged (with the flow's PKCE verifier),
    /// and the ID token's signature, issuer, audience, expiry and nonce checked.
    func identity(code: String, flow: OpenIDFlow, redirect: String, now: Date) async throws -> ProviderIdentity {
        let idToken = try await exchange(code: code, verifier: flow.verifier, redirect: redirect)
        return try await verify(idToken, nonce: flow.nonce, now: now)
    }

    /// The origin of the authorization endpoint, which the account page's "Link" form is
    /// redirected to (its policy must name it); nil when the provider cannot be asked now (not
    /// again for every page: see `providerConfiguration`'s back-off).
    func authorizationOrigin() async -> String? {
        guard let endpoint = try? await providerConfiguration().authorizationEndpoint,
              let components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false), let scheme = components.scheme,
              let host = components.percentEncodedHost, host.allSatisfy({ $0.isLetter || $0.isNumber || ".-[]:".contains($0) }) else { return nil }
        return scheme + "://" + host + (components.port.map { ":\($0)" } ?? "")
    }

    // MARK: - The token endpoint

    private func exchange(code: String, verifier: String, redirect: String) async throws -> String {
        let configuration = try await providerConfiguration()
        var form = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirect), ("code_verifier", verifier)]
        var request = HTTPClientRequest(url: configuration.tokenEndpoint.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        if configuration.takesBasicAuthentication {
            // RFC 6749 §2.3.1: each part form-encoded before it is joined.
            let credentials = Self.formEncoded(settings.clientID) + ":" + Self.formEncoded(settings.clientSecret)
            request.headers.add(name: "Authorization", value: "Basic " + Data(credentials.utf8).base64EncodedString())
        } else {
            form += [("client_id", settings.clientID), ("client_secret", settings.clientSecret)]
        }
        let body = form.map { Self.formEncoded($0.0) + "=" + Self.formEncoded($0.1) }.joined(separator: "&")
        request.body = .bytes(ByteBuffer(string: body))
        let (status, data) = try await send(request, what: "token endpoint")
        guard status == 200 else {
            // The provider's own words ("invalid_grant": a code used twice, expired or not its own).
            let error = (try? JSONDecoder().decode(TokenError.self, from: data))?.error ?? "HTTP \(status)"
            logger.notice("The OpenID provider refused a sign-in's code: \(Self.printable(error))")
            throw TallyError.invalid("Your provider did not accept this sign-in (\(Self.printable(error))): it may have been used already. Sign in again.")
        }
        guard let token = try? JSONDecoder().decode(TokenResponse.self, from: data), let idToken = token.idToken else {
            throw TallyError(.unauthorized, "Your provider's answer held no ID token. Nobody was signed in.")
        }
        return idToken
    }

    // MARK: - The ID token

    func verify(_ idToken: String, nonce: String, now: Date) async throws -> ProviderIdentity {
        let configuration = try await providerConfiguration()
        let header = try Self.header(of: idToken)
        guard Self.algorithms.contains(header.alg),
              configuration.idTokenSigningAlgValuesSupported.map({ $0.contains(header.alg) }) ?? true else {
            throw TallyError(.unauthorized, "Your provider's ID token is signed with \(Self.printable(header.alg)), which Tally does not take (RS256 or ES256). Nobody was signed in.")
        }
        let keys = try await signingKeys(knowing: header.kid)
        // The key must be one the provider published under this id (or its only key, for a token
        // without one), and made for this algorithm when it says which.
        guard let kid = header.kid ?? (keys.algorithms.count == 1 ? keys.algorithms.keys.first : nil),
              let declared = keys.algorithms[kid], declared == nil || declared == header.alg else {
            throw TallyError(.unauthorized, "Your provider's ID token is not signed with its keys. Nobody was signed in.")
        }
        let claims: IDTokenClaims
        do {
            claims = try await keys.value.verify(idToken, as: IDTokenClaims.self, expectedAudience: settings.clientID)
        } catch let error as JWTError {
            logger.notice("An ID token was refused: \(error.errorType)")
            if error.errorType == .signatureVerificationFailed {
                throw TallyError(.unauthorized, "Your provider's ID token is not signed with its keys. Nobody was signed in.")
            }
            throw TallyError(.unauthorized, "Your provider's ID token was not made for this server. Nobody was signed in.")
        } catch {
            throw TallyError(.unauthorized, "Your provider's ID token could not be read. Nobody was signed in.")
        }
        guard claims.iss.value == configuration.issuer else { throw TallyError(.unauthorized, "Your provider's ID token names another issuer. Nobody was signed in.") }
        guard claims.exp.value > now.addingTimeInterval(-Self.leeway) else { throw TallyError(.unauthorized, "Your provider's ID token has expired. Nobody was signed in.") }
        if let issued = claims.iat?.value, issued > now.addingTimeInterval(Self.leeway) {
            throw TallyError(.unauthorized, "Your provider's ID token was issued in the future: check the clocks. Nobody was signed in.")
        }
        guard let sent = claims.nonce, Cookies.constantTimeEqual(sent, nonce) else { throw TallyError(.unauthorized, "Your provider's ID token is not the answer to this sign-in. Nobody was signed in.") }
        if let party = claims.azp, party != settings.clientID { throw TallyError(.unauthorized, "Your provider's ID token was not made for this server. Nobody was signed in.") }
        return ProviderIdentity(subject: ProviderSubject(issuer: configuration.issuer, subject: claims.sub.value),
                                names: [claims.preferredUsername, claims.name, claims.email.map { String($0.prefix { $0 != "@" }) }].compactMap { $0 })
    }

    /// How far the provider's clock and this one may disagree.
    static let leeway: TimeInterval = 60

    private struct Header: Decodable {
        var alg: String
        var kid: String?
    }

    private static func header(of token: String) throws -> Header {
        let part = token.split(separator: ".", omittingEmptySubsequences: false)
        guard part.count == 3, let data = Data(base64URL: String(part[0])), let header = try? JSONDecoder().decode(Header.self, from: data) else {
            throw TallyError(.unauthorized, "Your provider's ID token could not be read. Nobody was signed in.")
        }
        return header
    }

    // MARK: - Discovery and keys

    /// The provider's configuration, read again after an hour; while it cannot be read, the
    /// copy from before serves, and a provider never read is asked at most every 30 seconds.
    func providerConfiguration() async throws -> ProviderConfiguration {
        if let configuration, configuration.fetchedAt.duration(to: .now) < .seconds(3600) { return configuration.value }
        if let failedAt, failedAt.duration(to: .now) < .seconds(30) {
            if let configuration { return configuration.value }
            throw unreachable("it could not be reached a moment ago")
        }
        do {
            let value = try await readConfiguration()
            configuration = (value, .now)
            failedAt = nil
            return value
        } catch {
            failedAt = .now
            if let configuration { return configuration.value }
            throw error
        }
    }

    private func readConfiguration() async throws -> ProviderConfiguration {
        let address = settings.discovery.absoluteString
        let (status, data) = try await send(HTTPClientRequest(url: address), what: "configuration")
        guard status == 200, let value = try? JSONDecoder().decode(ProviderConfiguration.self, from: data) else {
            throw unreachable("its configuration at \(address) could not be read (HTTP \(status))")
        }
        guard value.issuer == settings.issuer else {
            throw unreachable("its configuration names the issuer \(Self.printable(value.issuer)), not \(settings.issuer)")
        }
        for endpoint in [value.authorizationEndpoint, value.tokenEndpoint, value.jwksURI] where endpoint.scheme != "https" && endpoint.scheme != settings.discovery.scheme {
            throw unreachable("its configuration names an endpoint that is not https")
        }
        return value
    }

    /// The provider's keys, fetched again when `kid` is not among them (a key rolled over), at
    /// most once a minute. Each key is taken on its own: one of a kind Tally does not check (an
    /// encryption key, another curve) is left out rather than failing the set.
    private func signingKeys(knowing kid: String?) async throws -> (value: JWTKeyCollection, algorithms: [String: String?]) {
        if let keys, keys.fetchedAt.duration(to: .now) < .seconds(3600),
           kid.map { keys.algorithms[$0] != nil } ?? true || keys.fetchedAt.duration(to: .now) < .seconds(60) {
            return (keys.value, keys.algorithms)
        }
        let (status, data) = try await send(HTTPClientRequest(url: try await providerConfiguration().jwksURI.absoluteString), what: "keys")
        guard status == 200, let set = try? JSONDecoder().decode(PublishedKeys.self, from: data) else {
            if let keys { return (keys.value, keys.algorithms) }
            throw unreachable("its signing keys could not be read (HTTP \(status))")
        }
        let collection = JWTKeyCollection()
        var algorithms: [String: String?] = [:]
        let signing = set.keys.compactMap { $0.key }.filter { $0.use != "enc" && ($0.key.keyType == .rsa || $0.key.keyType == .ecdsa) }
        for published in signing {
            let alg = published.key.algorithm?.rawValue
            if let alg, !Self.algorithms.contains(alg) { continue }
            // A lone key without an id is the provider's only key: it gets one here.
            let id = published.key.keyIdentifier?.string ?? (signing.count == 1 ? "only" : nil)
            guard let id else { continue }
            var key = published.key
            key.keyIdentifier = JWKIdentifier(string: id)
            guard (try? await collection.add(jwk: key)) != nil else { continue }
            algorithms[id] = alg
        }
        keys = (collection, algorithms, .now)
        return (collection, algorithms)
    }

    // MARK: - HTTP

    /// One request to the provider: no redirects, 10 seconds, at most 1 MB of answer.
    private func send(_ request: HTTPClientRequest, what: String) async throws -> (status: Int, body: Data) {
        let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
                                configuration: HTTPClient.Configuration(redirectConfiguration: .disallow,
                                                                        timeout: .init(connect: .seconds(5), read: .seconds(10))))
        do {
            let response = try await client.execute(request, timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 20)
            try? await client.shutdown()
            return (Int(response.status.code), Data(buffer: body))
        } catch {
            try? await client.shutdown()
            logger.warning("The OpenID provider's \(what) could not be reached: \(error)")
            throw unreachable("it could not be reached")
        }
    }

    private func unreachable(_ why: String) -> TallyError {
        logger.warning("OpenID sign-in is not available: \(why).")
        return TallyError(.busy, "Signing in through \(settings.name) does not work right now: try again later.", retryAfter: 30)
    }

    /// The provider's words as a log line or a sentence may show them: printable ASCII, short.
    static func printable(_ text: String) -> String {
        String(text.unicodeScalars.filter { (0x20..<0x7F).contains($0.value) }.prefix(80).map(Character.init))
    }

    static func formEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: formSafe) ?? text
    }

    private static let formSafe = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._*")
}

/// Who the provider says signed in: the subject, and the names it offers for a new account.
struct ProviderIdentity: Sendable {
    var subject: ProviderSubject
    var names: [String]
}

/// What Tally reads of the provider's discovery document.
struct ProviderConfiguration: Decodable, Sendable {
    var issuer: String
    var authorizationEndpoint: URL
    var tokenEndpoint: URL
    var jwksURI: URL
    var tokenEndpointAuthMethodsSupported: [String]?
    var idTokenSigningAlgValuesSupported: [String]?

    /// client_secret_basic is the default (OpenID Connect Discovery §3); some providers take
    /// only client_secret_post.
    var takesBasicAuthentication: Bool {
        tokenEndpointAuthMethodsSupported.map { $0.contains("client_secret_basic") } ?? true
    }

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case jwksURI = "jwks_uri"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
    }
}

/// A provider's key set, read key by key.
private struct PublishedKeys: Decodable {
    var keys: [PublishedKey]
}

/// One published key: nil when JWTKit cannot read it (a kind it does not know).
private struct PublishedKey: Decodable {
    var key: (key: JWK, use: String?)?

    private enum CodingKeys: String, CodingKey { case use }

    init(from decoder: any Decoder) throws {
        guard let jwk = try? JWK(from: decoder) else { key = nil; return }
        key = (jwk, try? decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .use))
    }
}

private struct TokenResponse: Decodable {
    var idToken: String?
    enum CodingKeys: String, CodingKey { case idToken = "id_token" }
}

private struct TokenError: Decodable {
    var error: String
}

/// The claims of an ID token that Tally reads. The signature and audience are checked by
/// JWTKit; the issuer, expiry and nonce by `OpenIDProvider.verify`, on the server's clock.
struct IDTokenClaims: JWTIdentityToken {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim?
    var nonce: String?
    var azp: String?
    var preferredUsername: String?
    var name: String?
    var email: String?

    var audience: AudienceClaim { aud }

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, nonce, azp, name, email
        case preferredUsername = "preferred_username"
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
