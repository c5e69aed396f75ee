import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import TallyCommands
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServer
import TallyServices

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the web app and the JSON API.",
        discussion: "Stops gracefully on SIGTERM or SIGINT, finishing the requests in flight.")

    @Option(help: ArgumentHelp("The address to listen on (env: TALLY_HOST; default 127.0.0.1).", valueName: "host"))
    var host: String?
    @Option(help: ArgumentHelp("The port (env: TALLY_PORT; default 8080).", valueName: "port"))
    var port: Int?
    @Option(help: ArgumentHelp("The SQLite database file, or a PostgreSQL database as postgres://user:password@host/name, which several servers can share (env: TALLY_DATABASE, or TALLY_DATABASE_URL).", valueName: "path-or-url"))
    var database: String?
    @Option(help: ArgumentHelp("The address people reach Tally at, such as https://tally.example.com: invite and calendar links start with it, and with https cookies are Secure (env: TALLY_PUBLIC_URL).", valueName: "url"))
    var publicURL: String?
    @Option(help: ArgumentHelp("An address or range (10.0.0.0/8) of a reverse proxy whose X-Forwarded-For, -Proto and -Host headers count; repeat for several (env: TALLY_TRUSTED_PROXY, comma-separated).", valueName: "address"))
    var trustedProxy: [String] = []
    @Option(help: ArgumentHelp("Where to take the day's exchange reference rates from, in the ECB's eurofxref-daily.xml format, such as https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml; none by default (env: TALLY_RATES_URL).", valueName: "url"))
    var ratesURL: String?
    @Option(help: ArgumentHelp("The issuer of the household's OpenID Connect provider, such as https://id.example.com/realms/home: people then sign in through it (env: TALLY_OIDC_ISSUER).", valueName: "url"))
    var oidcIssuer: String?
    @Option(help: ArgumentHelp("Tally's client id at the provider (env: TALLY_OIDC_CLIENT_ID).", valueName: "id"))
    var oidcClientID: String?
    @Option(help: ArgumentHelp("Tally's client secret at the provider; other users of the machine can read a command line, so prefer the environment or --oidc-client-secret-file (env: TALLY_OIDC_CLIENT_SECRET).", valueName: "secret"))
    var oidcClientSecret: String?
    @Option(help: ArgumentHelp("A file that holds the client secret (env: TALLY_OIDC_CLIENT_SECRET_FILE).", valueName: "path"))
    var oidcClientSecretFile: String?
    @Option(help: ArgumentHelp("The provider's name on the sign-in button, \"Sign in with NAME\" (env: TALLY_OIDC_NAME; default its host).", valueName: "name"))
    var oidcName: String?
    @Option(help: ArgumentHelp("on, or off: people sign in through the OpenID provider only (env: TALLY_PASSWORD_SIGNIN; default on).", valueName: "on|off"))
    var passwordSignIn: String?

    /// How long the requests in flight may take to finish after SIGTERM before the server stops anyway.
    static let shutdownLimit: Duration = .seconds(30)

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment.filter { !$0.value.isEmpty }
        let location = StoreLocation(database)
        let configuration = try reportingErrors {
            let portText = port.map(String.init) ?? environment["TALLY_PORT"] ?? "8080"
            guard let port = Int(portText), (1...65535).contains(port) else {
                throw TallyError.invalid("The port must be a number from 1 to 65535; \"\(portText)\" is not.")
            }
            var configuration = ServerConfiguration(host: host ?? environment["TALLY_HOST"] ?? "127.0.0.1", port: port)
            if let contact = environment["TALLY_PUSH_CONTACT"] { configuration.pushContact = contact }
            configuration.metricsToken = environment["TALLY_METRICS_TOKEN"]
            let proxies = trustedProxy.isEmpty
                ? (environment["TALLY_TRUSTED_PROXY"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                : trustedProxy
            do {
                configuration.publicAddress = try PublicAddress(url: publicURL ?? environment["TALLY_PUBLIC_URL"], trustedProxies: proxies)
            } catch let error as PublicAddressError {
                throw TallyError.invalid(.verbatim(error.description))
            }
            if let text = ratesURL ?? environment["TALLY_RATES_URL"] {
                guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                    throw TallyError.invalid("The rates source must be an http or https address; \(UserText.quoted(text)) is not.")
                }
                configuration.ratesSource = url
            }
            configuration.openID = try openIDSettings(environment)
            switch (passwordSignIn ?? environment["TALLY_PASSWORD_SIGNIN"] ?? "on").lowercased() {
            case "on": configuration.passwordSignIn = true
            case "off":
                guard configuration.openID != nil else {
                    throw TallyError.invalid("Passwords can be turned off only when people sign in through an OpenID provider (TALLY_OIDC_ISSUER).")
                }
                configuration.passwordSignIn = false
            case let other: throw TallyError.invalid("Password sign-in is on or off; \(UserText.quoted(other)) is neither.")
            }
            // Only the browser tests' push service lives on loopback: never set this on a server.
            if environment["TALLY_TEST_PUSH_TO_LOOPBACK"] == "1" { configuration.pushEndpoints = .loopbackForTests }
            // The multi-instance test waits seconds, not minutes, for a reminder to be looked for.
            if let seconds = environment["TALLY_TEST_REMINDER_TICK_SECONDS"].flatMap(Int.init), seconds > 0 {
                configuration.reminderInterval = .seconds(seconds)
            }
            if let seconds = environment["TALLY_TEST_NOTICE_BURST_SECONDS"].flatMap(Int.init), seconds > 0 {
                configuration.noticeBurst = .seconds(seconds)
            }
            if let seconds = environment["TALLY_TEST_SCHEDULE_TICK_SECONDS"].flatMap(Int.init), seconds > 0 {
                configuration.recurringInterval = .seconds(seconds)
            }
            // The live-update benchmark opens 10,000 streams for a few people.
            if let streams = environment["TALLY_TEST_STREAMS_PER_PERSON"].flatMap(Int.init), streams > 0 {
                configuration.streamsPerPerson = streams
            }
            return configuration
        }
        let clock: any WallClock = TestClock.fromEnvironment(environment) ?? SystemClock()
        let store = try await reportingErrors { try await location.open(for: .server) }
        // Held while serving, so that `tally restore-server` never replaces the file under a server.
        let serving = try reportingErrors { () -> ServingLock? in
            guard case .sqlite(let path) = location else { return nil }
            return try ServingLock.serving(path)
        }
        defer { withExtendedLifetime(serving) {} }
        let level = environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        // Every logger made from here on logs at `level`, through the server's log.
        ServerLog.bootstrap(level: level)
        defer { ServerLog.shared.flush() }
        let logger = Logger(label: "tally")
        if let clock = clock as? TestClock { logger.warning("The time comes from \(clock.path) (TALLY_TEST_CLOCK_FILE): for tests only.") }
        logger.info("Tally serves http://\(configuration.host):\(configuration.port) from \(location)")
        let app = buildApplication(configuration: configuration, store: store, clock: clock, logger: logger)
        var group = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = Self.shutdownLimit
        // The server answers each request in its reader's language, never in this terminal's.
        try await Written.$current.withValue(Written(language: .english)) {
            try await ServiceGroup(configuration: group).run()
        }
    }

    /// The OpenID provider's settings from the flags and TALLY_OIDC_… variables; nil without an issuer.
    private func openIDSettings(_ environment: [String: String]) throws -> OpenIDSettings? {
        guard let issuer = oidcIssuer ?? environment["TALLY_OIDC_ISSUER"] else { return nil }
        var secret = oidcClientSecret ?? environment["TALLY_OIDC_CLIENT_SECRET"]
        if secret == nil, let path = oidcClientSecretFile ?? environment["TALLY_OIDC_CLIENT_SECRET_FILE"] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw TallyError.invalid("The client secret's file \(UserText.quoted(path)) could not be read.")
            }
            secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        do {
            return try OpenIDSettings(issuer: issuer, clientID: oidcClientID ?? environment["TALLY_OIDC_CLIENT_ID"] ?? "",
                                      clientSecret: secret ?? "", name: oidcName ?? environment["TALLY_OIDC_NAME"])
        } catch let error as OpenIDSettingsError {
            throw TallyError.invalid(.verbatim(error.description))
        }
    }
}
