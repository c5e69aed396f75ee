import Foundation
import Testing

// `tally` links only what a person's own tallies on the local file need; the rest it hands to
// `tally-server` beside it (bench/hydration.sh measures what that saves each command).
@Suite("hand-off to tally-server")
struct HandOffTests {
    /// A copy of `tally` alone in a folder of its own (with the resources it reads), as an
    /// installation that lacks `tally-server` would be.
    private static func lonelyTally(in sandbox: Sandbox) throws -> URL {
        let built = try CLI.binary.get()
        let folder = sandbox.folder.appendingPathComponent("lonely", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("tally")
        try FileManager.default.copyItem(at: built, to: copy)
        for resources in try FileManager.default.contentsOfDirectory(atPath: built.deletingLastPathComponent().path)
        where resources.hasSuffix(".resources") {
            try FileManager.default.copyItem(at: built.deletingLastPathComponent().appendingPathComponent(resources),
                                             to: folder.appendingPathComponent(resources))
        }
        return copy
    }

    @Test("tally runs the local commands itself: without tally-server they still work")
    func localCommandsNeedNoServerBinary() throws {
        let sandbox = try Sandbox()
        let tally = try Self.lonelyTally(in: sandbox)
        let run = { (arguments: [String]) in try CLI.run(arguments, env: sandbox.environment(), in: sandbox.folder, executable: tally) }
        #expect(try run(["drink", "250"]).exitCode == 0)
        let today = try run(["today", "--json"])
        #expect(today.exitCode == 0, "\(today)")
        #expect(try today.object()["totalMl"] as? Double == 250, "\(today)")
        #expect(try run(["ledger", "create", "Home", "--currency", "EUR"]).exitCode == 0)
        #expect(try run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
    }

    @Test("what tally leaves to tally-server (the server, accounts, PostgreSQL, a server's API, the full help) says what to install when it is missing",
          arguments: [
              ["serve"], ["user", "list"], ["token", "list", "--user", "ada"], ["migrate-store", "--from", "a", "--to", "b"], ["--help"], [],
              ["today", "--server", "http://127.0.0.1:9"], ["--token", "tally_x", "today"],
              ["today", "--database", "postgres://tally@127.0.0.1:9/tally"],
          ])
    func missingServerBinary(arguments: [String]) throws {
        let sandbox = try Sandbox()
        let tally = try Self.lonelyTally(in: sandbox)
        let result = try CLI.run(arguments, env: sandbox.environment(), in: sandbox.folder, executable: tally)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        let missing = tally.deletingLastPathComponent().appendingPathComponent("tally-server").path
        #expect(result.stderr == "This needs tally-server, which cannot be started from \(missing) (No such file or directory): install it beside tally.\n",
                "\(result)")
    }

    @Test("a server named by the environment alone goes to tally-server too")
    func serverFromTheEnvironment() throws {
        let sandbox = try Sandbox()
        let tally = try Self.lonelyTally(in: sandbox)
        let result = try CLI.run(["today"], env: sandbox.environment(["TALLY_SERVER": "http://127.0.0.1:9", "TALLY_TOKEN": "tally_x"]),
                                 in: sandbox.folder, executable: tally)
        #expect(result.exitCode == 2 && result.stderr.contains("This needs tally-server"), "\(result)")
    }

    @Test("started through a link in another folder, tally finds tally-server beside the file the link names")
    func throughALink() throws {
        let sandbox = try Sandbox()
        let link = sandbox.folder.appendingPathComponent("bin/tally")
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: try CLI.binary.get())
        let result = try CLI.run(["user", "create", "ada", "--json"], env: sandbox.environment(), in: sandbox.folder,
                                 input: "correct horse battery staple\n", executable: link)
        #expect(result.exitCode == 0, "\(result)")
        #expect(try result.object()["isAdmin"] as? Bool == true, "\(result)")
    }

    #if os(Linux)
    @Test("tally links none of the server's libraries (tally-server, the control, does)")
    func tallyIsLean() throws {
        let tally = try CLI.binary.get()
        let server = tally.deletingLastPathComponent().appendingPathComponent("tally-server")
        let lean = try Data(contentsOf: tally, options: .alwaysMapped)
        let full = try Data(contentsOf: server, options: .alwaysMapped)
        for module in ["Hummingbird", "PostgresNIO", "NIOPosix", "AsyncHTTPClient", "TallyServer"] {
            #expect(lean.range(of: Data(module.utf8)) == nil, "tally contains \(module)")
            #expect(full.range(of: Data(module.utf8)) != nil, "tally-server lacks \(module): the check would prove nothing")
        }
    }
    #endif
}
