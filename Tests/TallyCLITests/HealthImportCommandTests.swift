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
}
