import Foundation
import TallyAPI
import GRDB
import Testing

// End-to-end support: runs the real `tally` binary, built next to this test bundle, as a
// subprocess. Every test gets its own folder and database, and a fixed clock (TALLY_NOW).

/// What one run of `tally` gave.
struct CLIResult: CustomStringConvertible {
    var arguments: [String]
    var stdout: String
    var stderr: String
    var exitCode: Int32

    var description: String {
        "tally \(arguments.joined(separator: " ")) → exit \(exitCode)\nstdout: \(stdout)\nstderr: \(stderr)"
    }

    /// stdout as one JSON object.
    func object(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        return try #require(value as? [String: Any], "not a JSON object: \(self)", sourceLocation: sourceLocation)
    }

    /// stdout decoded as `T` (dates ISO 8601).
    func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(T.self, from: Data(stdout.utf8))
        } catch {
            throw CLIError("cannot decode \(T.self) (\(error)) from: \(self)")
        }
    }
}

struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

enum CLI {
    /// The `tally` executable in the build products folder, next to the test runner.
    static let binary: Result<URL, CLIError> = {
        // TALLY_CLI_BINARY may name another build of the tool (a release build, a wrapper).
        if let override = ProcessInfo.processInfo.environment["TALLY_CLI_BINARY"], !override.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: override) else {
                return .failure(CLIError("TALLY_CLI_BINARY is \(override), which is not an executable file."))
            }
            return .success(URL(fileURLWithPath: override))
        }
        var folders: [URL] = []
        folders.append(Bundle.main.bundleURL)
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        #if os(Linux)
        folders.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
        #endif
        if let first = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: first).standardizedFileURL.deletingLastPathComponent())
        }
        var seen = Set<String>()
        folders = folders.map(\.standardizedFileURL).filter { seen.insert($0.path).inserted }
        for folder in folders {
            // The runner may sit inside a bundle (TallyPackageTests.xctest/Contents/MacOS): look up a little.
            var candidate = folder
            for _ in 0..<4 {
                let url = candidate.appendingPathComponent("tally")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   FileManager.default.isExecutableFile(atPath: url.path) {
                    return .success(url)
                }
                candidate = candidate.deletingLastPathComponent()
            }
        }
        return .failure(CLIError(
            "The tally executable was not found next to the test runner (looked in "
            + folders.map(\.path).joined(separator: ", ")
            + "). Build it first: swift build --build-tests."))
    }()

    /// Runs `tally` (or `executable`) with `args` in an environment made only of `environment` (plus PATH and HOME):
    /// no TALLY_… variable of the caller leaks in. Output goes through files, so a large document
    /// can never fill a pipe and block the child. `input`, if any, is its standard input.
    static func run(_ args: [String], env environment: [String: String], in folder: URL,
                    input: String? = nil, timeout: TimeInterval = 30, executable: URL? = nil) throws -> CLIResult {
        let binary = try executable ?? binary.get()
        let token = UUID().uuidString
        let outURL = folder.appendingPathComponent("stdout-\(token)")
        let errURL = folder.appendingPathComponent("stderr-\(token)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let inURL = folder.appendingPathComponent("stdin-\(token)")
        if let input { try Data(input.utf8).write(to: inURL) }
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
            try? FileManager.default.removeItem(at: inURL)
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)

        let process = Process()
        process.executableURL = binary
        process.arguments = args
        var base = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                    "HOME": folder.path, "LANG": "C.UTF-8"]
        base.merge(environment) { _, new in new }
        process.environment = base
        process.currentDirectoryURL = folder
        let stdin = try input.map { _ in try FileHandle(forReadingFrom: inURL) }
        defer { try? stdin?.close() }
        process.standardInput = stdin ?? FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                process.waitUntilExit()
                throw CLIError("tally \(args.joined(separator: " ")) did not finish within \(Int(timeout)) s")
            }
            Thread.sleep(forTimeInterval: 0.002)
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return CLIResult(arguments: args,
                         stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                         stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
                         exitCode: process.terminationStatus)
    }
}

/// One test's world: a temporary folder with its database, a fixed clock and a user whose days
/// are counted in a named zone (never the machine's).
final class Sandbox {
    let folder: URL
    let database: String
    /// The instant the CLI takes for now (TALLY_NOW).
    var now: String

    init(now: String = "2025-03-12T10:00:00Z", timeZone: String? = "Europe/Berlin",
         sourceLocation: SourceLocation = #_sourceLocation) throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("tally-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        database = folder.appendingPathComponent("data/tally.sqlite").path
        self.now = now
        if let timeZone {
            try ok(["settings", "set", "timezone", timeZone], sourceLocation: sourceLocation)
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The environment of a run: this sandbox's database and clock, then `extra` (a nil value
    /// leaves a variable out).
    func environment(now: String? = nil, _ extra: [String: String?] = [:]) -> [String: String] {
        var env = ["TALLY_DATABASE": database, "TALLY_NOW": now ?? self.now,
                   "XDG_DATA_HOME": folder.appendingPathComponent("xdg").path]
        for (key, value) in extra { env[key] = value }
        return env
    }

    /// Runs tally, whatever its exit code.
    @discardableResult
    func run(_ args: [String], now: String? = nil, env extra: [String: String?] = [:]) throws -> CLIResult {
        try CLI.run(args, env: environment(now: now, extra), in: folder)
    }

    /// Runs tally and stops the test (with its output) unless it exits 0.
    @discardableResult
    func ok(_ args: [String], now: String? = nil, env extra: [String: String?] = [:],
            sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        let result = try run(args, now: now, env: extra)
        try #require(result.exitCode == 0, "\(result)", sourceLocation: sourceLocation)
        return result
    }

    /// Runs tally with --json, requires exit 0 and decodes stdout.
    func json<T: Decodable>(_ args: [String], as type: T.Type = T.self, now: String? = nil,
                            sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
        try ok(args + ["--json"], now: now, sourceLocation: sourceLocation).decode(T.self)
    }

    /// Runs tally with --json, requires exit 0 and gives the JSON object.
    func object(_ args: [String], now: String? = nil,
                sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try ok(args + ["--json"], now: now, sourceLocation: sourceLocation).object(sourceLocation: sourceLocation)
    }

    /// Runs a command that must be refused: the given exit code, one sentence on stderr, nothing
    /// on stdout, and not one row of the database changed.
    @discardableResult
    func refused(_ args: [String], exit code: Int32 = 1, now: String? = nil,
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let before = try databaseContents()
        let result = try run(args, now: now)
        #expect(result.exitCode == code, "\(result)", sourceLocation: sourceLocation)
        let message = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!message.isEmpty, "no message: \(result)", sourceLocation: sourceLocation)
        #expect(!message.contains("\n"), "more than one line: \(result)", sourceLocation: sourceLocation)
        #expect(message.hasSuffix("."), "not a sentence: \(result)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "printed something: \(result)", sourceLocation: sourceLocation)
        let after = try databaseContents()
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        #expect(changed.isEmpty, "a refused command changed the database (\(changed.joined(separator: ", "))): \(args)",
                sourceLocation: sourceLocation)
        return message
    }

    /// Every row of every table of the database (and its schema), read-only and without running
    /// the tool, so that a test can tell that nothing at all changed.
    func databaseContents() throws -> [String: [String]] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: database, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            var contents = ["sqlite_master": try String.fetchAll(
                db, sql: "SELECT type || ' ' || name || ' ' || ifnull(sql, '') FROM sqlite_master ORDER BY 1")]
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            for table in tables {
                contents[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier)")
                    .map(\.description).sorted()
            }
            return contents
        }
    }
}

// MARK: - The JSON documents the CLI prints

struct EntryJSON: Decodable {
    var type: String
    var id: UUID
    var at: Date
    var day: String
    var volumeMl: Double
    var effectiveMl: Double
    var kind: String?
    var factor: Double?
    var note: String?
    var source: String?
}

struct DayJSON: Decodable {
    var date: String
    var totalMl: Double
    var goalMl: Double?
    var goalMode: String
    var percent: Double?
    var goalMet: Bool
    var unit: String
    var entries: [EntryJSON]
}

/// A day's total against its goal, as changes answer it.
struct DayProgressJSON: Decodable {
    var date: String
    var totalMl: Double
    var goalMl: Double?
    var percent: Double?
    var goalMet: Bool
}

struct EntryResultJSON: Decodable {
    var created: Bool
    var entry: EntryJSON
    var day: DayProgressJSON
}

struct DeletedJSON: Decodable {
    var deleted: EntryJSON
    var day: DayProgressJSON
}

struct BreakdownJSON: Decodable {
    var goalMl: Double
    var baseMl: Double
    var bonusMl: Double
    var mlPerKg: Double
    var clamped: Bool
}

struct GoalPeriodJSON: Decodable {
    struct Goal: Decodable { var mode: String; var targetMl: Double? }
    var start: String
    var end: String?
    var goal: Goal
}

struct ProfileJSON: Decodable {
    var age: Int
    var weightKg: Double
    var activity: String
}

struct GoalStatusJSON: Decodable {
    var mode: String
    var goalMl: Double?
    var breakdown: BreakdownJSON?
    var profile: ProfileJSON?
    var history: [GoalPeriodJSON]
}

struct ProgressJSON: Decodable {
    var date: String
    var totalMl: Double
    var goalMl: Double?
    var percent: Double?
    var goalMet: Bool
}

struct HistoryJSON: Decodable {
    struct Calendar: Decodable {
        struct Day: Decodable { var progress: ProgressJSON; var isFuture: Bool; var isToday: Bool }
        var month: String
        var previous: String
        var next: String
        var firstWeekday: Int
        var days: [Day]
    }
    struct Streaks: Decodable { var current: Int; var longest: Int }
    var days: [ProgressJSON]
    var calendar: Calendar
    var streaks: Streaks
}

struct KindJSON: Decodable {
    var id: UUID
    var name: String
    var factor: Double
    var isBuiltIn: Bool
    var isRetired: Bool
}

struct PresetsJSON: Decodable {
    var amountsMl: [Double]
}

struct SettingsJSON: Decodable {
    var unit: String
    var timeZone: String
}

/// Equal up to floating-point noise (calculation never rounds, so 8 oz is 236.588 ml exactly
/// up to the last bits).
func approx(_ a: Double?, _ b: Double, within tolerance: Double = 1e-6) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance
}

/// An instant written in ISO 8601.
func utc(_ text: String) -> Date {
    guard let date = ISO8601DateFormatter().date(from: text) else { fatalError("bad instant in a test: \(text)") }
    return date
}
