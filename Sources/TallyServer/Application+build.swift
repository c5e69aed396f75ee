import Foundation
import Hummingbird
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// Builds the Tally server: the JSON API, the web app, health and metrics.
public func buildApplication(
    configuration: ServerConfiguration,
    store: any TallyStorage,
    clock: any WallClock = SystemClock(),
    logger: Logger = Logger(label: "tally")
) -> some ApplicationProtocol {
    let provider = configuration.openID.map { OpenIDProvider(settings: $0, logger: logger) }
    let accounts = AccountService(store: store, clock: clock, passwordCost: configuration.passwordCost,
                                  sessionLifetime: configuration.sessionLifetime, provider: provider,
                                  passwordSignIn: configuration.passwordSignIn)
    _ = ServerMetrics.registry // bootstraps swift-metrics before the first request is counted
    let push = PushCenter(store: store, contact: configuration.pushContact, endpoints: configuration.pushEndpoints)
    var services = APIServices(store: store, clock: clock, accounts: accounts, push: push)
    let notifier = LedgerNotifier(store: store, clock: clock, push: push,
                                  burst: TimeInterval(configuration.noticeBurst.components.seconds))
    services.notifier = notifier
    services.changes = ChangeFeed(signals: store.changes, lifetime: configuration.changeStreamLifetime,
                                  open: OpenStreams(perPerson: configuration.streamsPerPerson))
    let router = buildRouter(services: services, address: configuration.publicAddress, metricsToken: configuration.metricsToken)
    let (idle, head, grace) = (TimeAmount(configuration.idleTimeout), TimeAmount(configuration.requestHeadTimeout),
                               TimeAmount(configuration.drainGrace))
    var application = Application(
        router: router,
        server: .http1(configuration: .init(additionalChannelHandlers: [RequestHeadDeadline(deadline: head), DrainGrace(grace: grace)],
                                            idleTimeout: idle)),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Tally"),
        services: backgroundServices(configuration, store: store, clock: clock, push: push, notifier: notifier),
        onServerRunning: { channel in
            // The uploads' own folder, by the port it listens on: emptied of what a killed run left.
            guard let port = channel.localAddress?.port else { return }
            do {
                let removed = try UploadFolder.claim(port: port)
                if removed > 0 { logger.info("Removed \(removed) unfinished upload(s) left by an earlier run") }
            } catch {
                logger.warning("The uploads' folder could not be made, so uploads go to the temporary folder: \(error)")
            }
        },
        logger: logger
    )
    application.beforeServerStarts {
        try await accounts.hasher.decoyHash()
        let removed = HealthUpload.sweepLeftovers()
        if removed > 0 { logger.info("Removed \(removed) temporary upload(s) left by an earlier run") }
    }
    return application
}

/// What runs beside the requests: the reminders (and the ends of ledger notifications' bursts), the
/// recurring expenses and the reference rates, each on its own tick.
private func backgroundServices(_ configuration: ServerConfiguration, store: any TallyStorage, clock: any WallClock,
                                push: PushCenter, notifier: LedgerNotifier) -> [any Service] {
    var services: [any Service] = [ChangeWatchService(store: store)]
    if configuration.sendsReminders {
        services.append(ReminderService(store: store, clock: clock, push: push, interval: configuration.reminderInterval))
        // The ends of bursts are looked for as often as reminders are, at most every 5 seconds.
        services.append(LedgerNoticeService(notifier: notifier, interval: min(configuration.reminderInterval, .seconds(5))))
    }
    if configuration.recordsRecurringExpenses {
        services.append(RecurringExpenseService(store: store, clock: clock, interval: configuration.recurringInterval))
    }
    if let source = configuration.ratesSource {
        services.append(ReferenceRateService(store: store, source: source, interval: configuration.ratesInterval))
    }
    return services
}

/// The routes, grouped by resource. Every route is in openapi.yaml (a test checks both ways).
func buildRouter(services: APIServices, address: PublicAddress = PublicAddress(), metricsToken: String? = nil) -> Router<TallyRequestContext> {
    let router = Router(context: TallyRequestContext.self)
    router.add(middleware: RequestOriginMiddleware(address: address))
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: AccessLogMiddleware())
    router.add(middleware: RequestMetricsMiddleware())
    router.add(middleware: ErrorPageMiddleware())

    // Readiness (/health): 503 with the reason while the database does not answer, so that a
    // load balancer sends requests elsewhere. Liveness (/health/live): the process serves.
    // A constant answer, encoded once: JSONEncoder took a tenth of these routes' time.
    let healthy = ByteBuffer(bytes: (try? APICoding.encoder.encode(["status": "ok"])) ?? Data())
    let ok: @Sendable () -> Response = {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: healthy))
    }
    let availability = services.store as? any StoreAvailability
    router.get("health") { _, _ -> Response in
        if let reason = availability?.unavailability() {
            return ProblemMiddleware<TallyRequestContext>.response(status: .serviceUnavailable, detail: reason, retryAfter: 2)
        }
        return ok()
    }
    router.get("health/live") { _, _ in ok() }
    // For the scraper that has the token only: without one configured, as if there were no such page.
    let metricsAuthorization = metricsToken.map { "Bearer " + $0 }
    router.get("metrics") { request, _ in
        guard let metricsAuthorization else { return Response(status: .notFound) }
        guard let sent = request.headers[.authorization], Cookies.constantTimeEqual(sent, metricsAuthorization) else {
            return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Bearer realm=\"metrics\""])
        }
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                        body: .init(byteBuffer: ByteBuffer(bytes: ServerMetrics.registry.emitToBuffer())))
    }
    router.get("openapi.yaml") { _, _ in
        Response(status: .ok, headers: [.contentType: "application/yaml"],
                 body: .init(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.bytes)))
    }

    // Every route of the API is for someone signed in: the group's context has the user.
    let api = router.group("api/v1")
        .add(middleware: ProblemMiddleware())
        .add(middleware: AuthenticationMiddleware(accounts: services.accounts))
        .add(middleware: CSRFMiddleware())
        .group(context: SignedInContext.self)
    EntryController(services: services).addRoutes(to: api)
    DayController(services: services).addRoutes(to: api)
    GoalController(services: services).addRoutes(to: api)
    SettingsController(services: services).addRoutes(to: api)
    AccountController(services: services).addRoutes(to: api)
    BottleController(services: services).addRoutes(to: api)
    ReminderController(services: services).addRoutes(to: api)
    PushController(services: services).addRoutes(to: api)
    LedgerController(services: services).addRoutes(to: api)
    SpendingController(services: services).addRoutes(to: api)
    ReceiptController(services: services).addRoutes(to: api)
    RecurringController(services: services).addRoutes(to: api)
    TransferController(services: services).addRoutes(to: api)
    HealthImportController(services: services).addRoutes(to: api)
    DataController(services: services).addRoutes(to: api)

    addWebApp(to: router, services: services)
    CalendarFeedController(services: services).addRoutes(to: router)
    AppShellController().addRoutes(to: router)
    router.add(middleware: MethodNotAllowedMiddleware(routes: router.routes)) // last: wraps only the not-found answer
    return router
}

/// The web app's pages and forms, in one group that knows who asks and gives every browser its
/// CSRF token. Most pages are for someone signed in: their group's context has the user, and a
/// request without a session is sent to sign in. Signing in and up, and the admin's page (which
/// answers 404 to anyone else), take anyone.
func addWebApp(to router: Router<TallyRequestContext>, services: APIServices) {
    let web = router.group()
        .add(middleware: AuthenticationMiddleware(accounts: services.accounts, acceptsTokens: false))
        .add(middleware: CSRFCookieMiddleware())
        .add(middleware: SignInRedirectMiddleware(accounts: services.accounts))
        .add(middleware: WrittenMiddleware())
    let signedIn = web.group(context: SignedInPageContext.self)
    SignInWebController(services: services).addRoutes(to: web, signedIn: signedIn)
    ProviderSignInWebController(services: services).addRoutes(to: web, signedIn: signedIn)
    HydrationWebController(services: services).addRoutes(to: signedIn)
    BottleWebController(services: services).addRoutes(to: signedIn)
    SettingsWebController(services: services).addRoutes(to: signedIn)
    LedgersWebController(services: services).addRoutes(to: signedIn)
    LedgerEntriesWebController(services: services).addRoutes(to: signedIn)
    LedgerSettingsWebController(services: services).addRoutes(to: signedIn)
    RecurringWebController(services: services).addRoutes(to: signedIn)
    AccountWebController(services: services).addRoutes(to: signedIn)
    AdminWebController(services: services).addRoutes(to: web)
}

/// The folder of the web app's stylesheet, scripts and icons (served by `StaticAssets`).
enum StaticFiles {
    static var folder: String {
        Bundle.module.url(forResource: "static", withExtension: nil, subdirectory: "Resources")?.path ?? "static"
    }
}

/// The API's description, as the repository's openapi.yaml says it.
enum OpenAPIDocument {
    static let bytes: [UInt8] = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml", subdirectory: "Resources"),
              let data = try? Data(contentsOf: url) else { return Array("openapi.yaml is missing from this build\n".utf8) }
        return Array(data)
    }()
}
