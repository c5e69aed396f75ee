import Crypto
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
import TallyRepositories
import TallyServices
import TallyStore
@testable import TallyServer

/// What a server on the internet owes the people who use it: headers that confine its pages,
/// the same 404 for what is not yours as for what does not exist, forwarded headers believed
/// only from its own proxy, and push requests that cannot be aimed at its own network.
@Suite("Exposed to the internet")
struct ExposureTests {
    @Test("Every answer, page, API, file or error, carries the strict CSP, nosniff and same-origin referrer; HSTS only over TLS")
    func securityHeaders() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            for (path, token) in [("/signin", nil), ("/api/v1/today", f.adaToken), ("/api/v1/today", nil), ("/static/app.js", nil),
                                  ("/no-such-page", nil), ("/health", nil), ("/sw.js", nil)] as [(String, String?)] {
                let answer = try await client.send(.get, path, token: token)
                #expect(answer.headers[.contentSecurityPolicy] ==
                        "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'", "\(path)")
                #expect(answer.headers[.xContentTypeOptions] == "nosniff", "\(path)")
                #expect(answer.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin", "\(path)")
                #expect(answer.headers[.strictTransportSecurity] == nil, "\(path): HSTS over plain HTTP")
            }
        }
        let secure = try PublicAddress(url: "https://tally.example.com", trustedProxies: [])
        try await Self.withRouter(f, address: secure) { client in
            let answer = try await client.send(.get, "/signin", token: nil)
            #expect(answer.headers[.strictTransportSecurity] == "max-age=31536000")
        }
    }

    @Test("A foreign ledger, an unknown one and an unknown address get the same 404 page, never a 500")
    func notFoundPages() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Ada's", "currency": "EUR"}"#)
            let bob = try await WebTests.Browser.signedIn(client, "bob", "battery staple")
            var bodies: Set<String> = []
            for path in ["/spending/\(ledger.id)", "/spending/\(ledger.id)/settings", "/spending/\(UUID())", "/spending/not-an-id",
                         "/spending/\(ledger.id)/export.csv", "/no/such/address"] {
                let answer = try await bob.get(path)
                #expect(answer.status == .notFound, "\(path): \(answer.status)")
                #expect(answer.headers[.contentType] == "text/html; charset=utf-8", "\(path)")
                #expect(answer.text.contains("<h1>Not found</h1>"), "\(path): \(answer.text)")
                #expect(!answer.text.contains("Ada"), "\(path) tells something of the ledger")
                bodies.insert(answer.text)
            }
            #expect(bodies.count == 1, "the 404 pages differ, so a foreign id can be told from a missing one")
            let posted = try await bob.post("/spending/\(ledger.id)/expenses", ["amount": "5", "description": "mine now"])
            #expect(posted.status == .notFound, "\(posted.status)")
            let api = try await client.send(.get, "/api/v1/no-such-thing", token: f.bobToken)
            try api.problem(.notFound)
        }
    }

    @Test("X-Forwarded-Proto, -Host and -For count only from a trusted proxy; --public-url makes the links")
    func forwardedHeaders() throws {
        func origin(_ address: PublicAddress, peer: String, _ headers: HTTPFields) -> RequestOrigin {
            let head = HTTPRequest(method: .get, scheme: nil, authority: "internal:8080", path: "/", headerFields: headers)
            return address.origin(of: Request(head: head, body: .init(buffer: ByteBuffer())), peer: IPAddress(peer))
        }
        let forwarded: HTTPFields = [HTTPField.Name("X-Forwarded-Proto")!: "https", HTTPField.Name("X-Forwarded-Host")!: "evil.example",
                                     HTTPField.Name("X-Forwarded-For")!: "203.0.113.9, 198.51.100.7"]
        let direct = PublicAddress()
        let stranger = origin(direct, peer: "198.51.100.7", forwarded)
        #expect(!stranger.isSecure && stranger.origin == "http://internal:8080" && stranger.client == IPAddress("198.51.100.7"))

        let proxied = try PublicAddress(url: nil, trustedProxies: ["10.0.0.0/8", "::1"])
        let viaProxy = origin(proxied, peer: "10.1.2.3", forwarded)
        #expect(viaProxy.isSecure && viaProxy.origin == "https://evil.example" && viaProxy.client == IPAddress("198.51.100.7"))
        #expect(!origin(proxied, peer: "11.0.0.1", forwarded).isSecure)
        #expect(origin(proxied, peer: "::ffff:10.0.0.5", forwarded).isSecure, "an IPv4-mapped proxy address counts")

        let published = try PublicAddress(url: "https://tally.example.com/", trustedProxies: ["10.0.0.0/8"])
        let fixed = origin(published, peer: "10.1.2.3", forwarded)
        #expect(fixed.isSecure && fixed.origin == "https://tally.example.com")
        #expect(throws: PublicAddressError.self) { try PublicAddress(url: "tally.example.com", trustedProxies: []) }
        #expect(throws: PublicAddressError.self) { try PublicAddress(url: nil, trustedProxies: ["10.0.0.0/33"]) }
    }

    @Test("The invite and calendar links and the Secure cookie follow --public-url, not the Host header")
    func linksFollowThePublicURL() async throws {
        let f = try await ServerFixture()
        let address = try PublicAddress(url: "https://tally.example.com", trustedProxies: [])
        try await Self.withRouter(f, address: address) { client in
            let browser = WebTests.Browser(client)
            _ = try await browser.get("/signin")
            let signedIn = try await browser.post("/signin", ["name": "ada", "password": "correct horse"])
            #expect(signedIn.headers[values: .setCookie].contains { $0.hasPrefix("tally_session=") && $0.contains("Secure") })
            let calendar = try await browser.post("/settings/calendar", ["action": "new"])
            #expect(calendar.text.contains("https://tally.example.com/calendar/"), "\(calendar.text.prefix(300))")
        }
    }

    // MARK: - Push endpoints

    @Test("IP ranges: loopback, private, link-local, shared, mapped and reserved addresses are not public")
    func publicAddresses() {
        for text in ["127.0.0.1", "10.0.0.1", "172.16.5.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
                     "::1", "::", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254", "224.0.0.1", "255.255.255.255",
                     // IPv4-compatible (deprecated): some stacks still route ::127.0.0.1 to 127.0.0.1
                     "::127.0.0.1", "::169.254.169.254", "::8.8.8.8"] {
            #expect(IPAddress(text)?.isPublic == false, "\(text)")
        }
        for text in ["8.8.8.8", "142.250.74.78", "2a00:1450:4001:82a::200a", "::ffff:8.8.8.8"] {
            #expect(IPAddress(text)?.isPublic == true, "\(text)")
        }
        #expect(IPAddress("not an address") == nil)
    }

    @Test("A subscription must name an https push service on the internet; at most ten devices")
    func subscriptionEndpoints() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let key = P256.KeyAgreement.PrivateKey().publicKey.x963Representation.base64URL
            let auth = Data(repeating: 7, count: 16).base64URL
            func subscribe(_ endpoint: String) async throws -> Answer {
                try await client.send(.post, "/api/v1/push/subscriptions", token: f.adaToken,
                                      json: #"{"endpoint": "\#(endpoint)", "keys": {"p256dh": "\#(key)", "auth": "\#(auth)"}}"#)
            }
            for endpoint in ["http://push.example.com/x", "https://127.0.0.1/x", "https://169.254.169.254/latest/meta-data",
                             "https://[::1]:8443/x", "https://10.0.0.8/x", "https://user:pw@push.example.com/x", "ftp://push.example.com/x",
                             "https://[::ffff:192.168.0.1]/x"] {
                let detail = try await subscribe(endpoint).problem(.badRequest)
                #expect(detail.contains("https"), "\(detail)")
            }
            #expect(try await f.store.pushSubscriptions(of: f.ada.id).isEmpty)
            for device in 1...10 {
                #expect(try await subscribe("https://push.example.com/device-\(device)").status == .created)
            }
            #expect(try await subscribe("https://push.example.com/device-3").status == .created, "the same device again is not one more")
            try await subscribe("https://push.example.com/device-11").problem(.conflict)
            #expect(try await f.store.pushSubscriptions(of: f.ada.id).count == 10)
        }
    }

    @Test("At send time a name that resolves to loopback is refused: no request reaches it")
    func sendTimeResolution() async throws {
        let f = try await ServerFixture()
        let inbox = ReminderDeliveryTests.Inbox()
        try await ReminderDeliveryTests.pushService(inbox).test(.live) { client in
            let port = try #require(client.port)
            let browser = P256.KeyAgreement.PrivateKey()
            let subscription = PushSubscription(endpoint: "https://localhost:\(port)/push/phone", p256dh: browser.publicKey.x963Representation,
                                                auth: WebPushMessage.randomBytes(16))
            let sender = try await PushCenter(store: f.store, contact: "mailto:tally@localhost").sender()
            #expect(await sender.send(PushSender.reminder(for: f.ada), to: [subscription], now: f.clock.now, kind: .test) == 0)
            // Even the policy of the tests does not let a name reach an address by https that it
            // does not serve, and plain http on a public policy is refused before any request.
            let plain = PushSubscription(endpoint: "http://127.0.0.1:\(port)/push/phone", p256dh: subscription.p256dh, auth: subscription.auth)
            #expect(await sender.send(PushSender.reminder(for: f.ada), to: [plain], now: f.clock.now, kind: .test) == 0)
            #expect(await inbox.messages.isEmpty, "the server posted to loopback")
        }
    }

    @Test("A push service's redirect is not followed")
    func noRedirects() async throws {
        let f = try await ServerFixture()
        let inbox = ReminderDeliveryTests.Inbox()
        let router = Router()
        router.post("moved") { _, _ -> Response in
            Response(status: .temporaryRedirect, headers: [.location: "/push/elsewhere"])
        }
        router.post("push/:id") { request, _ -> Response in
            await inbox.add(request.uri.path, "", Data())
            return Response(status: .created)
        }
        let service = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await service.test(.live) { client in
            let port = try #require(client.port)
            let browser = P256.KeyAgreement.PrivateKey()
            let subscription = PushSubscription(endpoint: "http://127.0.0.1:\(port)/moved", p256dh: browser.publicKey.x963Representation,
                                                auth: WebPushMessage.randomBytes(16))
            let sender = try await PushCenter(store: f.store, contact: "mailto:tally@localhost", endpoints: .loopbackForTests).sender()
            #expect(await sender.send(PushSender.reminder(for: f.ada), to: [subscription], now: f.clock.now, kind: .test) == 0)
            #expect(await inbox.messages.isEmpty, "the redirect was followed")
        }
    }

    // MARK: - Files

    @Test("The database and its WAL are readable by their owner only, also when they existed before")
    func databaseFileMode() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-mode-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("new.sqlite").path
        let store = try SQLiteStore.open(path: path)
        _ = store
        func mode(_ path: String) -> Int? { (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int }
        #expect(mode(path) == 0o600)
        #expect(mode(path + "-wal") == 0o600)
        #expect(mode(folder.path) == 0o700)

        let old = folder.appendingPathComponent("old.sqlite").path
        FileManager.default.createFile(atPath: old, contents: nil, attributes: [.posixPermissions: 0o644])
        _ = try SQLiteStore.open(path: old)
        #expect(mode(old) == 0o600)
    }

    @Test("Uploads left by a crash are swept at start; a recent one, maybe another server's, stays")
    func temporaryUploads() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-sweep-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stale = HealthUpload.temporaryFile(in: folder), fresh = HealthUpload.temporaryFile(in: folder)
        let other = folder.appendingPathComponent("someone-else")
        for file in [stale, fresh, other] { FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8)) }
        let now = Date()
        for file in [stale, other] {
            try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-7200)], ofItemAtPath: file.path)
        }
        #expect(HealthUpload.sweepLeftovers(in: folder, now: now) == 1)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path) && FileManager.default.fileExists(atPath: other.path))
    }

    @Test("A server's own upload folder is emptied when it starts, whatever the age of what is in it; another port's folder stays")
    func ownUploadFolder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tally-root-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let mine = UploadFolder.folder(port: 8080, in: root), theirs = UploadFolder.folder(port: 8081, in: root)
        for folder in [mine, theirs] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: HealthUpload.temporaryFile(in: folder).path, contents: Data("just written".utf8))
        }
        let (folder, removed) = try UploadFolder.emptied(port: 8080, in: root)
        #expect(folder == mine && removed == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: mine.path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: theirs.path).count == 1)
        #expect((try FileManager.default.attributesOfItem(atPath: mine.path)[.posixPermissions] as? Int) == 0o700)
        // A folder not there yet is made.
        #expect(try UploadFolder.emptied(port: 9, in: root).removed == 0)
        #expect(FileManager.default.fileExists(atPath: UploadFolder.folder(port: 9, in: root).path))
    }

    /// Runs `body` against a router whose public address is `address`.
    static func withRouter(_ f: ServerFixture, address: PublicAddress,
                           _ body: @escaping @Sendable (TestClientProtocol) async throws -> Void) async throws {
        var configuration = ServerConfiguration(passwordCost: 4)
        configuration.publicAddress = address
        try await buildApplication(configuration: configuration, store: f.store, clock: f.clock).test(.router, body)
    }
}

/// A connection that says nothing is closed, so that idle clients cannot hold the server's
/// connections open for ever.
@Suite("Idle connections")
struct IdleConnectionTests {
    @Test("An idle connection is closed after the idle timeout")
    func idleTimeout() async throws {
        let f = try await ServerFixture()
        var configuration = ServerConfiguration(passwordCost: 4)
        configuration.idleTimeout = .milliseconds(500)
        try await buildApplication(configuration: configuration, store: f.store, clock: f.clock).test(.live) { client in
            let port = try #require(client.port)
            let closedAfter = try await Task.detached { try Self.secondsUntilClosed(port: port) }.value
            #expect(closedAfter < 3, "the idle connection stayed open \(closedAfter) s")
        }
    }

    /// Connects to 127.0.0.1:`port`, sends nothing, and waits (at most 10 s) for the server to close.
    static func secondsUntilClosed(port: Int) throws -> Double {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw CocoaError(.fileReadUnknown) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let start = Date()
        var byte: UInt8 = 0
        _ = recv(socket, &byte, 1, 0)
        return Date().timeIntervalSince(start)
    }
}
