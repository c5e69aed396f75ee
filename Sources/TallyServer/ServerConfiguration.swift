import Foundation

/// How `tally serve` runs: from flags and TALLY_… variables.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// bcrypt's cost: 12 in production (about a quarter of a second a hash); tests lower it.
    public var passwordCost: Int
    public var sessionLifetime: TimeInterval
    /// Who runs the server, for push services (VAPID's subject): "mailto:…" or an https URL.
    public var pushContact: String
    /// Whether this server sends reminders (tests that do not want a background service turn
    /// it off).
    public var sendsReminders: Bool
    /// How often the reminders that fell due are looked for: every minute (reminders are set to
    /// the minute); the multi-instance test looks every second.
    public var reminderInterval: Duration = .seconds(60)
    /// How long one person's burst of changes to a ledger lasts before the rest of it is told
    /// together (a minute); the multi-instance test waits seconds.
    public var noticeBurst: Duration = .seconds(60)
    /// Whether this server records the recurring expenses that fall due (tests that do not want
    /// a background service turn it off).
    public var recordsRecurringExpenses = true
    /// How often the recurring expenses that fell due are looked for: every minute; the browser
    /// test, which moves the clock, every second.
    public var recurringInterval: Duration = .seconds(60)
    /// The address people reach the server at, and the proxies whose forwarded headers count.
    public var publicAddress = PublicAddress()
    /// Which push endpoints the server may post to: public HTTPS ones only, but in tests.
    public var pushEndpoints = PushEndpointPolicy.publicHTTPS
    /// How long a connection may stay open with nothing to do.
    public var idleTimeout: Duration = .seconds(60)
    /// How long a request's head (its line and headers) may take to arrive, from the
    /// connection's start or the end of its last answer (see `RequestHeadDeadline`).
    public var requestHeadTimeout: Duration = .seconds(10)
    /// How long open connections go on reading after SIGTERM before they wind down, so that a
    /// request sent just before the signal is answered (see `DrainGrace`).
    public var drainGrace: Duration = .milliseconds(300)
    /// How long one stream of changes (an open page's) lasts before the browser opens the next
    /// (see `ChangeFeed`).
    public var changeStreamLifetime: Duration = .seconds(60)
    /// How many streams of changes one person may hold open on this instance at once (their
    /// pages and devices); beyond, a new one is refused with 429.
    public var streamsPerPerson = 20
    /// The bearer token a Prometheus scraper sends for `/metrics` (TALLY_METRICS_TOKEN). Without
    /// one, `/metrics` is not served: what it counts (sign-in failures by route) is not for all.
    public var metricsToken: String?
    /// Where the day's reference rates come from, in the ECB's `eurofxref-daily.xml` format
    /// (TALLY_RATES_URL); none: no rates are fetched, and people type every rate.
    public var ratesSource: URL?
    /// The household's OpenID provider, when people sign in through it (TALLY_OIDC_…).
    public var openID: OpenIDSettings?
    /// Whether people may sign in and up with a name and a password (TALLY_PASSWORD_SIGNIN=off
    /// turns that off; an admin still creates accounts with `tally user create`).
    public var passwordSignIn = true
    /// How often the rates are fetched again.
    public var ratesInterval: Duration = .seconds(6 * 3600)

    public init(host: String = "127.0.0.1", port: Int = 8080, passwordCost: Int = 12,
                sessionLifetime: TimeInterval = 30 * 24 * 3600, pushContact: String = "mailto:tally@localhost",
                sendsReminders: Bool = true) {
        self.host = host
        self.port = port
        self.passwordCost = passwordCost
        self.sessionLifetime = sessionLifetime
        self.pushContact = pushContact
        self.sendsReminders = sendsReminders
    }
}
