import Foundation
import Testing

/// A2 from the command line: `tally import apple-health FILE`, on the local database and against
/// a server, with the same answers and the same refusals.
@Suite("tally import apple-health")
struct HealthImportCommandTests {
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TallyImportTests/Fixtures/apple-health/\(name)").path
    }

    static let afterwards = "2024-04-07T12:00:00Z"

    /// A file that is not an export, in the sandbox's folder.
    static func notAnExport(in folder: URL) throws -> String {
        let file = folder.appendingPathComponent("notes.xml")
        try Data("<notes><note>drink more</note></notes>".utf8).write(to: file)
        return file.path
    }

    @Test("A2: the export imports once; again adds nothing and says so")
    func local() throws {
        let sandbox = try Sandbox(now: Self.afterwards)
        let first = try sandbox.object(["import", "apple-health", Self.fixture("export.zip")])
        #expect(first as NSDictionary == ["drinksAdded": 5, "drinksAlreadyThere": 0, "sleepRecordsAdded": 21, "skipped": 1])
        let again = try sandbox.ok(["import", "apple-health", Self.fixture("export.xml")])
        #expect(again.stdout == """
            Imported 0 drinks and 0 sleep records from Apple Health.
            5 drinks were already there from an earlier import.
            1 record could not be used: unreadable, over 5000 ml, or in the future.

            """)
        #expect(try sandbox.databaseContents()["intake"]?.count == 5)
        #expect(try sandbox.databaseContents()["asleepInterval"]?.count == 21)
    }

    @Test("A2: a file that is not an export, or none, is refused with a sentence and changes nothing")
    func refused() throws {
        let sandbox = try Sandbox(now: Self.afterwards)
        try sandbox.ok(["drink", "250"])
        #expect(try sandbox.refused(["import", "apple-health", try Self.notAnExport(in: sandbox.folder)])
                    .contains("not an Apple Health export"))
        #expect(try sandbox.refused(["import", "apple-health", Self.fixture("no-export.zip")]).contains("no export.xml"))
        #expect(try sandbox.refused(["import", "apple-health", "/no/such/export.zip"], exit: 2) == "There is no file at /no/such/export.zip.")
    }

    @Test("A2: against a server, the same report and the same refusal")
    func remote() throws {
        let server = try ServeProcess.start()
        defer { server.stop() }
        let first = try server.ok(["import", "apple-health", Self.fixture("export.zip"), "--json"]).object()
        #expect(first as NSDictionary == ["drinksAdded": 5, "drinksAlreadyThere": 0, "sleepRecordsAdded": 21, "skipped": 1])
        let again = try server.ok(["import", "apple-health", Self.fixture("export.zip"), "--json"]).object()
        #expect(again["drinksAdded"] as? Int == 0 && again["drinksAlreadyThere"] as? Int == 5)

        let local = try Sandbox(now: Self.afterwards)
        let file = try Self.notAnExport(in: local.folder)
        for (path, code) in [(file, Int32(1)), ("/no/such/export.zip", 2)] {
            let here = try local.run(["import", "apple-health", path])
            let there = try server.run(["import", "apple-health", path])
            #expect(here.exitCode == code && there.exitCode == here.exitCode, "\(there)")
            #expect(there.stderr == here.stderr, "\(there)\nlocally: \(here)")
            RemoteModeTests.expectSentence(there)
        }
    }

    @Test("A2: --forget-deleted lets a deleted imported drink come back with the next import, here and on a server")
    func forgetDeleted() throws {
        let sandbox = try Sandbox(now: Self.afterwards)
        let server = try ServeProcess.start()
        defer { server.stop() }
        let modes: [(String, ([String]) throws -> CLIResult)] = [
            ("local", { try sandbox.ok($0) }), ("remote", { try server.ok($0) }),
        ]
        for (mode, ok) in modes {
            _ = try ok(["import", "apple-health", Self.fixture("export.zip")])
            let day = try ok(["today", "--date", "2024-04-02", "--json"]).decode(DayJSON.self)
            let deleted = try #require(day.entries.first, "\(mode)")
            _ = try ok(["delete", deleted.id.uuidString])
            let again = try ok(["import", "apple-health", Self.fixture("export.zip"), "--json"]).object()
            #expect(again["drinksAdded"] as? Int == 0, "\(mode): deleted stays deleted")

            let forgotten = try ok(["import", "apple-health", "--forget-deleted"])
            #expect(forgotten.stdout == "Forgot 1 deleted imported drink: importing its export again brings it back.\n", "\(mode)")
            #expect(try ok(["import", "apple-health", "--forget-deleted", "--json"]).object() as NSDictionary == ["forgotten": 0],
                    "\(mode)")
            #expect(try ok(["import", "apple-health", "--forget-deleted"]).stdout == "No deleted imported drinks to forget.\n")
            let back = try ok(["import", "apple-health", Self.fixture("export.zip"), "--json"]).object()
            #expect(back["drinksAdded"] as? Int == 1 && back["drinksAlreadyThere"] as? Int == 4, "\(mode): \(back)")
            #expect(try ok(["today", "--date", "2024-04-02", "--json"]).decode(DayJSON.self).totalMl == day.totalMl, "\(mode)")
        }
        #expect(try sandbox.databaseContents()["intake"]?.count == 5)
    }

    @Test("A2: import apple-health with neither a file nor --forget-deleted, or both, is refused and changes nothing")
    func forgetRefused() throws {
        let sandbox = try Sandbox(now: Self.afterwards)
        try sandbox.ok(["import", "apple-health", Self.fixture("export.zip")])
        #expect(try sandbox.refused(["import", "apple-health"]).contains("Name the export"))
        #expect(try sandbox.refused(["import", "apple-health", "--forget-deleted", Self.fixture("export.zip")])
                    .contains("without a file"))
    }
}
