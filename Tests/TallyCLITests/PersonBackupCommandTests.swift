import Foundation
import Testing

/// A2 from the command line: `tally export json` and `tally restore FILE [--merge]`, on the local
/// database and against a server, with the same answers and the same refusals.
@Suite("tally export json, tally restore")
struct PersonBackupCommandTests {
    @Test("A2: a backup written to a file restores into another database as the same days; again only with --merge, adding nothing")
    func roundTrip() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["kinds", "add", "Kvass", "--factor", "0.9"])
        try sandbox.ok(["drink", "250", "--kind", "Kvass", "--at", "2025-03-11T23:59", "--note", "late"])
        try sandbox.ok(["drink", "500", "--at", "08:00"])
        try sandbox.ok(["remove", "100"])
        try sandbox.ok(["goal", "set", "2200"])
        let file = sandbox.folder.appendingPathComponent("backup.json").path
        #expect(try sandbox.ok(["export", "json", "-o", file]).stdout.isEmpty)

        let other = try Sandbox(timeZone: nil)
        #expect(try other.ok(["restore", file]).stdout == """
            Restored 2 drinks and 1 removal.
            New drink kinds: Kvass.
            Settings, profile, goals, bottle and reminders are the backup's.

            """)
        for args in [["today", "--date", "2025-03-11"], ["today", "--date", "2025-03-12"], ["goal"], ["settings"]] {
            #expect(try other.ok(args).stdout == sandbox.ok(args).stdout, "\(args)")
        }
        let refused = try other.refused(["restore", file], exit: 3)
        #expect(refused.hasPrefix("This account has drinks already"), "\(refused)")
        #expect(try other.ok(["restore", file, "--merge"]).stdout == """
            Restored 0 drinks and 0 removals.
            3 entries were there already.
            Your settings, profile, goals, bottle and reminders stay as they were.

            """)
    }

    @Test("A2: against a server, the same backup and the same refusals")
    func remote() throws {
        let local = try Sandbox()
        try local.ok(["drink", "300", "--at", "2025-03-12T07:00"])
        let file = local.folder.appendingPathComponent("backup.json").path
        try local.ok(["export", "json", "-o", file])
        let server = try ServeProcess.start()
        defer { server.stop() }
        let restored = try server.ok(["restore", file, "--json"]).object()
        #expect(restored["drinksAdded"] as? Int == 1 && restored["settingsRestored"] as? Bool == true, "\(restored)")
        let here = try local.run(["restore", file])
        let there = try server.run(["restore", file])
        #expect(here.exitCode == 3 && there.exitCode == 3 && here.stderr == there.stderr, "\(here)\n\(there)")
        let backup = try server.ok(["export", "json"]).object()
        #expect(backup["format"] as? String == "tally-person-backup" && (backup["entries"] as? [Any])?.count == 1)
        let notABackup = local.folder.appendingPathComponent("notes.json")
        try Data("{\"notes\": []}".utf8).write(to: notABackup)
        for result in [try local.run(["restore", notABackup.path, "--merge"]), try server.run(["restore", notABackup.path, "--merge"])] {
            #expect(result.exitCode == 1 && result.stderr == "This is not a Tally backup: its \"format\" is not \"tally-person-backup\". Choose the file that Tally's backup wrote.\n", "\(result)")
        }
    }
}
