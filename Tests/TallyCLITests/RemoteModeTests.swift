import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Remote mode (A5, the issue "CLI remote mode"): `tally --server URL --token TOKEN …` runs the
/// hydration commands against a real `tally serve` through the JSON API, with the output of
/// local mode. Each test starts its own server on a free loopback port and stops it at the end.
@Suite("remote mode")
struct RemoteModeTests {
    /// One step of a script run in both modes: the same words, or words that name an entry of
    /// today (by the first 8 characters of its id, which differ between the two runs).
    enum Step: Sendable {
        case same([String])
        case entry(Int, @Sendable (String) -> [String])

        func arguments(entryPrefix: (Int) throws -> String) throws -> [String] {
            switch self {
            case .same(let arguments): arguments
            case .entry(let index, let make): make(try entryPrefix(index))
            }
        }
    }

    /// Every hydration command, in an order where each one has something to work on.
    static let script: [Step] = [
        .same(["today"]),
        .same(["drink", "250"]),
        .same(["drink", "330", "--kind", "coffee", "--note", "after lunch"]),
        .same(["remove", "100"]),
        .same(["today"]),
        .same(["history"]),
        .same(["history", "--days", "3"]),
        .entry(1) { ["edit", $0, "--amount", "400", "--kind", "tea", "--note", ""] },
        .entry(0) { ["delete", $0] },
        .same(["today"]),
        .same(["today", "--date", "2025-01-01"]),
        .same(["goal"]),
        .same(["goal", "set", "3000"]),
        .same(["goal", "none"]),
        .same(["today"]),
        .same(["goal", "auto"]),
        .same(["profile"]),
        .same(["profile", "set", "--age", "70", "--weight", "80", "--activity", "active"]),
        .same(["profile", "show"]),
        .same(["goal", "show"]),
        .same(["goal", "calc", "--age", "30", "--weight", "120", "--activity", "very-active"]),
        .same(["profile", "clear"]),
        .same(["kinds"]),
        .same(["kinds", "add", "Smoothie", "--factor", "0.95"]),
        .same(["kinds", "rename", "smoothie", "shake"]),
        .same(["kinds", "factor", "shake", "1.1"]),
        .same(["drink", "200", "--kind", "shake"]),
        .same(["kinds", "retire", "shake"]),
        .same(["kinds", "list", "--all"]),
        .same(["kinds", "factors", "bhi"]),
        .same(["kinds", "factors", "standard"]),
        .same(["presets"]),
        .same(["presets", "set", "200", "330", "500", "750"]),
        .same(["presets", "show"]),
        .same(["settings"]),
        .same(["presets", "reset"]),
        .same(["settings", "set", "unit", "oz"]),
        .same(["drink", "8"]),
        .same(["today"]),
        .same(["presets"]),
        .same(["settings", "set", "unit", "ml"]),
        .same(["today", "--unit", "oz"]),
        .same(["history", "--unit", "oz"]),
        .same(["reminders"]),
        .same(["reminders", "set", "--on", "--wake", "06:30", "--sleep", "22:30", "--count", "5"]),
        .same(["reminders", "set", "--smart", "3", "--sleep-records"]),
        .same(["reminders", "show"]),
        .same(["reminders", "set", "--fixed", "--no-sleep-records", "--wake", "20:00", "--sleep", "04:00"]),
        .same(["reminders", "set", "--off"]),
        .same(["settings", "set", "timezone", "Europe/Paris"]),
        .same(["settings", "show"]),
    ]

    /// The whole script, once printing JSON and once printing text: both modes must print the
    /// same documents (ids and instants aside) and the same text (short ids and times aside).
    @Test(arguments: [true, false])
    func sameOutputAsLocal(json: Bool) throws {
        let server = try ServeProcess.start()
        defer { server.stop() }
        let local = try Sandbox()
        for step in Self.script {
            let localArguments = try step.arguments { try Self.entryPrefix($0, local.ok(["today", "--json"], env: noClock)) }
            let remoteArguments = try step.arguments { try Self.entryPrefix($0, server.ok(["today", "--json"])) }
            let extra = json ? ["--json"] : []
            let here = try local.ok(localArguments + extra, env: noClock)
            let there = try server.ok(remoteArguments + extra)
            if json {
                #expect(try Self.comparable(there) == Self.comparable(here), "tally \(localArguments.joined(separator: " "))")
            } else {
                #expect(Self.masked(there.stdout) == Self.masked(here.stdout), "tally \(localArguments.joined(separator: " "))")
            }
            #expect(there.stderr.isEmpty, "\(there)")
        }
        // The server's database got it all, and the decoy local database of the remote runs nothing.
        #expect(!FileManager.default.fileExists(atPath: server.decoyDatabase))
    }

    /// Refused input: the same sentence on stderr and the same exit code as local mode, nothing
    /// on stdout, and nothing changed on the server.
    @Test func refusedInputAsLocal() throws {
        let server = try ServeProcess.start()
        defer { server.stop() }
        let local = try Sandbox()
        try local.ok(["drink", "250"], env: noClock)
        try server.ok(["drink", "250"])
        let stateCommands = [["today"], ["kinds", "list", "--all"], ["settings"], ["goal"], ["history"], ["reminders"]]
        func remoteState() throws -> [String] {
            try stateCommands.map { try Self.comparable(server.ok($0 + ["--json"])) }
        }
        let before = try remoteState()
        for arguments in [
            ["remove", "5000"],
            ["drink", "250", "--kind", "beer"],
            ["drink", "6000"],
            ["drink", "250", "--at", "2099-01-01T08:00:00Z"],
            ["profile", "set", "--age", "5", "--weight", "70", "--activity", "light"],
            ["goal", "calc", "--age", "5", "--weight", "70", "--activity", "light"],
            ["goal", "set", "100"],
            ["kinds", "rename", "water", "aqua"],
            ["kinds", "add", "Water"],
            ["kinds", "factor", "tea", "2"],
            ["kinds", "retire", "beer"],
            ["delete", "abcdef12"],
            ["delete", "ab"],
            ["edit", "5c8f6a1e-0000-4000-8000-000000000000", "--amount", "300"],
            ["settings", "set", "timezone", "Mars/Olympus"],
            ["presets", "set", "100", "200"],
            ["history", "--days", "0"],
            ["reminders", "set", "--count", "0"],
            ["reminders", "set", "--smart", "9", "--on"],
            ["reminders", "set", "--wake", "7am"],
            ["reminders", "set", "--sleep", "07:00"],
        ] {
            let here = try local.run(arguments, env: noClock)
            let there = try server.run(arguments)
            #expect(here.exitCode != 0, "\(here)")
            #expect(there.exitCode == here.exitCode, "\(there)\nlocally: \(here)")
            #expect(there.stderr == here.stderr, "\(there)\nlocally: \(here)")
            #expect(there.stdout.isEmpty, "\(there)")
            Self.expectSentence(there)
        }
        #expect(try remoteState() == before, "a refused command changed the server's data")
    }

    /// A token the server does not know, a server that is not there, an address that is not one:
    /// one sentence each and a non-zero exit code, never a stack trace.
    @Test func wrongTokenAndUnreachableServer() throws {
        let server = try ServeProcess.start()
        defer { server.stop() }
        let wrongToken = try server.run(["today"], token: "tally_not-a-token")
        #expect(wrongToken.exitCode == 4, "\(wrongToken)")
        #expect(wrongToken.stderr.contains("token"), "\(wrongToken)")
        Self.expectSentence(wrongToken)

        let noToken = try CLI.run(["today", "--server", server.url], env: [:], in: server.folder)
        #expect(noToken.exitCode == 4, "\(noToken)")
        Self.expectSentence(noToken)

        let closed = try ServeProcess.freePort() // bound and released: nothing listens there
        let address = "http://127.0.0.1:\(closed)"
        let unreachable = try CLI.run(["--server", address, "--token", server.token, "drink", "250"], env: [:], in: server.folder)
        #expect(unreachable.exitCode == 6, "\(unreachable)")
        #expect(unreachable.stderr == "Cannot reach the server at \(address): the connection was refused.\n", "\(unreachable)")
        Self.expectSentence(unreachable)

        let plainHTTP = server.url.replacingOccurrences(of: "http://", with: "https://")
        let tlsToPlain = try CLI.run(["--server", plainHTTP, "--token", server.token, "today"], env: [:], in: server.folder)
        #expect(tlsToPlain.exitCode == 6, "\(tlsToPlain)")
        #expect(tlsToPlain.stderr == "Cannot reach the server at \(plainHTTP): the TLS connection failed (it does not speak TLS there: try http://).\n",
                "\(tlsToPlain)")

        let notAnAddress = try CLI.run(["today", "--server", "127.0.0.1:8080", "--token", server.token], env: [:], in: server.folder)
        #expect(notAnAddress.exitCode == 1, "\(notAnAddress)")
        Self.expectSentence(notAnAddress)

        let tokenAlone = try CLI.run(["today", "--token", server.token, "--database", server.decoyDatabase],
                                     env: [:], in: server.folder)
        #expect(tokenAlone.exitCode == 1, "\(tokenAlone)")
        Self.expectSentence(tokenAlone)
    }

    /// TALLY_SERVER and TALLY_TOKEN select remote mode; options win over them; --database,
    /// TALLY_DATABASE and TALLY_USER are then not used.
    @Test func environmentAndOptions() throws {
        let server = try ServeProcess.start()
        defer { server.stop() }
        let local = try Sandbox()
        let environment = ["TALLY_SERVER": server.url, "TALLY_TOKEN": server.token,
                           "TALLY_DATABASE": local.database, "TALLY_USER": "someone"]
        func run(_ arguments: [String], _ extra: [String: String] = [:]) throws -> CLIResult {
            try CLI.run(arguments, env: environment.merging(extra) { $1 }, in: server.folder)
        }

        let localBefore = try local.databaseContents()
        let logged = try run(["drink", "250", "--json"])
        #expect(logged.exitCode == 0, "\(logged)")
        // Options after the command's name, a trailing slash, a stale environment: the options win.
        let stale = ["TALLY_SERVER": "http://127.0.0.1:\(try ServeProcess.freePort())", "TALLY_TOKEN": "tally_stale"]
        let viaOptions = try run(["today", "--json", "--server", server.url + "/", "--token", server.token], stale)
        #expect(viaOptions.exitCode == 0, "\(viaOptions)")
        #expect(try viaOptions.decode(DayJSON.self).totalMl == 250)
        let wrongOption = try run(["today", "--token", "tally_wrong"])
        #expect(wrongOption.exitCode == 4, "\(wrongOption)")
        let withDatabase = try run(["drink", "100", "--database", local.database, "--user", "local"])
        #expect(withDatabase.exitCode == 0, "\(withDatabase)")
        #expect(try server.json(["today"], as: DayJSON.self).totalMl == 350)
        // The local database never saw any of it.
        #expect(try local.databaseContents() == localBefore)

        // Accounts and tokens are managed on the database itself, never through --server.
        let tokenCommand = try run(["token", "create", "--user", "ada", "--server", server.url])
        #expect(tokenCommand.exitCode == 1, "\(tokenCommand)")
    }

    /// A drink from the command line is one request: the amount goes as typed and the answer
    /// brings the unit back, so nothing is asked first. With --at HH:MM the zone is asked for.
    @Test func aDrinkIsOneRequest() throws {
        let server = try ServeProcess.start()
        defer { server.stop() }
        try server.ok(["settings", "set", "unit", "oz"])
        let before = try server.apiRequests()
        let logged = try server.ok(["drink", "8"])
        #expect(try server.apiRequests() - before == 1)
        #expect(logged.stdout.contains("Logged 8 oz of water"), "\(logged)")
        let removed = try server.ok(["remove", "2oz"])
        #expect(try server.apiRequests() - before == 2)
        #expect(removed.stdout.contains("Removed 2 oz"), "\(removed)")
        // The unit of --unit reads the amount and shows the answer.
        let inMl = try server.ok(["drink", "100", "--unit", "ml"])
        #expect(inMl.stdout.contains("Logged 100 ml of water"), "\(inMl)")
        #expect(try server.apiRequests() - before == 3)
        // A bare amount is read by the server in the user's unit: 8 fl oz, not 8 ml.
        #expect(try server.json(["today"], as: DayJSON.self).totalMl.rounded() == (8 * 29.5735 - 2 * 29.5735 + 100).rounded())
    }

    /// Entry-id prefixes are looked for among the server's today and the 30 days before; a full
    /// id reaches any entry.
    @Test func entryPrefixes() throws {
        let server = try ServeProcess.start()
        defer { server.stop() }
        func iso(daysAgo: Double) -> String {
            ISO8601DateFormatter().string(from: Date().addingTimeInterval(-daysAgo * 86_400))
        }
        let recent = try server.json(["drink", "250", "--at", iso(daysAgo: 3)], as: EntryResultJSON.self).entry
        let old = try server.json(["drink", "300", "--at", iso(daysAgo: 40)], as: EntryResultJSON.self).entry
        let recentPrefix = String(recent.id.uuidString.prefix(8)).lowercased()
        let oldPrefix = String(old.id.uuidString.prefix(8)).lowercased()

        let edited = try server.json(["edit", recentPrefix, "--amount", "275"], as: EntryResultJSON.self)
        #expect(edited.entry.id == recent.id && edited.entry.volumeMl == 275)
        let deleted = try server.json(["delete", recentPrefix], as: DeletedJSON.self)
        #expect(deleted.deleted.id == recent.id)

        let tooOld = try server.run(["delete", oldPrefix])
        #expect(tooOld.exitCode == 2, "\(tooOld)")
        #expect(tooOld.stderr == "There is no entry whose id starts with \(oldPrefix).\n", "\(tooOld)")
        #expect(try server.json(["delete", old.id.uuidString.lowercased()], as: DeletedJSON.self).deleted.id == old.id)
    }

    // MARK: - Comparing the two modes

    /// Local runs on the system clock, as the server does, so that both have the same today.
    private var noClock: [String: String?] { ["TALLY_NOW": nil] }

    /// The first 8 characters of the id of today's entry at `index`, as `today` shows them.
    static func entryPrefix(_ index: Int, _ today: CLIResult) throws -> String {
        let entries = try today.decode(DayJSON.self).entries
        try #require(entries.indices.contains(index), "no entry \(index): \(today)")
        return String(entries[index].id.uuidString.prefix(8)).lowercased()
    }

    /// A JSON document without what differs between two runs of the same commands: ids and
    /// instants. Keys sorted, so that equal documents are equal strings.
    static func comparable(_ result: CLIResult) throws -> String {
        func strip(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                return object.filter { !["id", "kindID", "at"].contains($0.key) }.mapValues(strip)
            }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        let value = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: [.fragmentsAllowed])
        let data = try JSONSerialization.data(withJSONObject: strip(value), options: [.sortedKeys, .fragmentsAllowed])
        return String(decoding: data, as: UTF8.self)
    }

    /// Text without what differs between two runs: the entries' short ids and clock times.
    static func masked(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var line = String(line)
            line = line.replacingOccurrences(of: #"\b[0-9a-f]{8}\b"#, with: "<id>", options: .regularExpression)
            line = line.replacingOccurrences(of: #"^  \d\d:\d\d  "#, with: "  <hh:mm>  ", options: .regularExpression)
            return line
        }.joined(separator: "\n")
    }

    static func expectSentence(_ result: CLIResult, sourceLocation: SourceLocation = #_sourceLocation) {
        let message = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!message.isEmpty && !message.contains("\n") && message.hasSuffix("."),
                "not one sentence: \(result)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "printed something: \(result)", sourceLocation: sourceLocation)
    }
}

/// A real `tally serve` on a free loopback port, with its own database and one account, ada,
/// whose days are counted in Europe/Berlin, and a personal API token of hers.
final class ServeProcess: @unchecked Sendable {
    let folder: URL
    let database: String
    /// A database the remote runs name in TALLY_DATABASE: it must never be created.
    let decoyDatabase: String
    let token: String
    private(set) var url = ""
    private var process: Process?
    private var logURL: URL

    private init(folder: URL, token: String) {
        self.folder = folder
        database = folder.appendingPathComponent("server.sqlite").path
        decoyDatabase = folder.appendingPathComponent("not-used/tally.sqlite").path
        logURL = folder.appendingPathComponent("serve.log")
        self.token = token
    }

    static func start(sourceLocation: SourceLocation = #_sourceLocation) throws -> ServeProcess {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("tally-remote-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = folder.appendingPathComponent("server.sqlite").path
        let env = ["TALLY_DATABASE": database]
        let created = try CLI.run(["user", "create", "ada", "--time-zone", "Europe/Berlin"], env: env, in: folder,
                                  input: "correct horse battery staple\n")
        try #require(created.exitCode == 0, "\(created)", sourceLocation: sourceLocation)
        let token = try CLI.run(["token", "create", "--user", "ada", "--json"], env: env, in: folder)
        try #require(token.exitCode == 0, "\(token)", sourceLocation: sourceLocation)
        let secret = try #require(try token.object()["secret"] as? String, sourceLocation: sourceLocation)

        let server = ServeProcess(folder: folder, token: secret)
        // A port that was free a moment ago may be taken by the time the server binds it: retry.
        var failures: [String] = []
        for _ in 0..<3 {
            do {
                try server.launch(port: try freePort())
                return server
            } catch {
                failures.append("\(error)")
                server.stop()
            }
        }
        throw CLIError("tally serve did not start: \(failures.joined(separator: "; "))")
    }

    private func launch(port: Int) throws {
        let binary = try CLI.binary.get()
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        defer { try? log.close() }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--host", "127.0.0.1", "--port", String(port), "--database", database]
        process.environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                               "HOME": folder.path, "LANG": "C.UTF-8", "LOG_LEVEL": "warning", "TALLY_METRICS_TOKEN": Self.metricsToken]
        process.currentDirectoryURL = folder
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log
        try process.run()
        self.process = process
        url = "http://127.0.0.1:\(port)"

        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            guard process.isRunning else {
                throw CLIError("tally serve exited with \(process.terminationStatus): \(logText)")
            }
            if Self.health(port: port) { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw CLIError("tally serve did not answer GET /health within 20 s: \(logText)")
    }

    private var logText: String {
        (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
    }

    /// Stops the server with SIGTERM (a graceful shutdown), and kills it if it lingers.
    func stop() {
        guard let process else { return }
        self.process = nil
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: - Running the CLI against it

    /// Runs tally against this server (`--server` and `--token` first, as the issue writes
    /// them), with a local database and a clock in the environment that must both be ignored.
    @discardableResult
    func run(_ arguments: [String], token: String? = nil) throws -> CLIResult {
        try CLI.run(["--server", url, "--token", token ?? self.token] + arguments,
                    env: ["TALLY_DATABASE": decoyDatabase, "TALLY_NOW": "2001-01-01T12:00:00Z"], in: folder)
    }

    @discardableResult
    func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        let result = try run(arguments)
        try #require(result.exitCode == 0, "\(result)", sourceLocation: sourceLocation)
        return result
    }

    func json<T: Decodable>(_ arguments: [String], as type: T.Type = T.self,
                            sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
        try ok(arguments + ["--json"], sourceLocation: sourceLocation).decode(T.self)
    }

    // MARK: - Sockets

    /// A loopback port that nothing listens on: bound to port 0, read back, released.
    static func freePort() throws -> Int {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw CLIError("socket() failed: errno \(errno)") }
        defer { close(fd) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw CLIError("bind() failed: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw CLIError("getsockname() failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Whether GET /health answers 200, over a plain socket (no HTTP client in the way).
    static func health(port: Int) -> Bool {
        get("/health", port: port, whole: false)?.hasPrefix("HTTP/1.1 200") ?? false
    }

    /// How many requests of the API the server has answered, from its /metrics.
    func apiRequests() throws -> Int {
        guard let port = URLComponents(string: url)?.port,
              let metrics = Self.get("/metrics", port: port, whole: true, authorization: "Bearer " + Self.metricsToken) else {
            throw CLIError("GET /metrics did not answer")
        }
        return metrics.split(separator: "\n")
            .filter { $0.hasPrefix("hb_requests{") && $0.contains("http_route=\"/api/v1/") }
            .compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
            .reduce(0, +)
    }

    /// An answer to GET `path` over a plain socket: its status line only, or all of it.
    /// What the servers these tests start take for /metrics.
    static let metricsToken = "metrics for the tests"

    static func get(_ path: String, port: Int, whole: Bool, authorization: String? = nil) -> String? {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port: UInt16(port))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        let credential = authorization.map { "Authorization: \($0)\r\n" } ?? ""
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(credential)Connection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count else { return nil }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while whole || response.count < 12 {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            response += buffer[..<count]
        }
        return String(decoding: response, as: UTF8.self)
    }
}
