import Foundation
import Testing

/// Where the database is: --database, then TALLY_DATABASE, then the XDG data folder (A5, A6).
@Suite("database location")
struct DatabaseLocationTests {
    // A6: the database file and its missing folders are created on first use.
    @Test func folderIsCreated() throws {
        let tally = try Sandbox(timeZone: nil)
        let path = tally.folder.appendingPathComponent("deep/er/still/tally.sqlite").path
        #expect(!FileManager.default.fileExists(atPath: path))
        try tally.ok(["settings", "set", "timezone", "Europe/Berlin", "--database", path])
        try tally.ok(["drink", "250", "--database", path])
        #expect(FileManager.default.fileExists(atPath: path))
        let day = try tally.ok(["today", "--json", "--database", path]).decode(DayJSON.self)
        #expect(day.totalMl == 250)
    }

    // A5: a file that is not a Tally database is refused with a sentence, and left as it was.
    @Test func notADatabase() throws {
        let tally = try Sandbox(timeZone: nil)
        let path = tally.folder.appendingPathComponent("notes.txt").path
        try Data("shopping list: water\n".utf8).write(to: URL(fileURLWithPath: path))
        let result = try tally.run(["today", "--database", path])
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.stderr.hasPrefix("Cannot open the database at \(path)"), "\(result)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "shopping list: water\n")
    }

    // A5: --database wins over TALLY_DATABASE; TALLY_DATABASE is used without the option; with
    // neither, $XDG_DATA_HOME/tally/tally.sqlite.
    @Test func precedence() throws {
        let tally = try Sandbox(timeZone: nil)
        let fromEnvironment = tally.folder.appendingPathComponent("env/t.sqlite").path
        let fromOption = tally.folder.appendingPathComponent("option/t.sqlite").path
        let environment: [String: String?] = ["TALLY_DATABASE": fromEnvironment]

        try tally.ok(["drink", "300", "--database", fromOption], env: environment)
        #expect(FileManager.default.fileExists(atPath: fromOption))
        #expect(!FileManager.default.fileExists(atPath: fromEnvironment))

        try tally.ok(["drink", "100"], env: environment)
        #expect(FileManager.default.fileExists(atPath: fromEnvironment))
        #expect(try tally.ok(["today", "--json"], env: environment).decode(DayJSON.self).totalMl == 100)
        #expect(try tally.ok(["today", "--json", "--database", fromOption], env: environment)
            .decode(DayJSON.self).totalMl == 300)

        try tally.ok(["drink", "50"], env: ["TALLY_DATABASE": nil])
        let xdg = tally.folder.appendingPathComponent("xdg/tally/tally.sqlite").path
        #expect(FileManager.default.fileExists(atPath: xdg))
        #expect(try tally.ok(["today", "--json", "--database", xdg]).decode(DayJSON.self).totalMl == 50)
    }

    // Without XDG_DATA_HOME, the data folder is in HOME (as other programs' is), not in the
    // password database's home.
    @Test func homeWithoutXDG() throws {
        let tally = try Sandbox(timeZone: nil)
        let home = tally.folder.appendingPathComponent("home")
        try tally.ok(["drink", "50"], env: ["TALLY_DATABASE": nil, "XDG_DATA_HOME": nil, "HOME": home.path])
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent(".local/share/tally/tally.sqlite").path))
        #expect(!FileManager.default.fileExists(atPath: tally.folder.appendingPathComponent("xdg").path))
    }

    // A database with accounts (a server's) is everyone's: a local command names whose tally it
    // works on, and nobody is made for it; a file without accounts is one person's own.
    @Test func noHiddenPeople() throws {
        let tally = try Sandbox(timeZone: nil)
        let created = try CLI.run(["user", "create", "ada"], env: tally.environment(), in: tally.folder, input: "correct horse\n")
        try #require(created.exitCode == 0, "\(created)")
        let message = try tally.refused(["drink", "250"])
        #expect(message == "This database has 1 account: name it with --user NAME (or TALLY_USER).", "\(message)")
        _ = try CLI.run(["user", "create", "bob"], env: tally.environment(), in: tally.folder, input: "battery staple\n")
        #expect(try tally.refused(["today"]).contains("2 accounts: name one with --user NAME"))
        #expect(try tally.refused(["drink", "250", "--user", "carol"], exit: 2).contains("no account named \"carol\""))
        #expect(try tally.ok(["drink", "250", "--user", "ada"]).stdout.contains("250"))
        #expect(try tally.ok(["today", "--json"], env: ["TALLY_USER": "ada"]).decode(DayJSON.self).totalMl == 250)
        #expect(try tally.databaseContents()["user"]?.count == 2, "only the two accounts")
    }

    // A PostgreSQL address in --database or TALLY_DATABASE_URL wins over TALLY_DATABASE; a server
    // that cannot be reached is named without its password, and no file is made instead.
    @Test func postgresAddress() throws {
        let tally = try Sandbox(timeZone: nil)
        let file = tally.folder.appendingPathComponent("env/t.sqlite").path
        // Port 1 on loopback: nothing listens there.
        let address = "postgres://tally:hunter2@127.0.0.1:1/tally?sslmode=disable"
        for (arguments, environment) in [(["today", "--database", address], ["TALLY_DATABASE": file]),
                                         (["today"], ["TALLY_DATABASE": file, "TALLY_DATABASE_URL": address])] {
            let result = try tally.run(arguments, env: environment)
            #expect(result.exitCode == 1, "\(result)")
            #expect(result.stderr.hasPrefix("Cannot reach PostgreSQL at postgres://tally:•••@127.0.0.1:1/tally"), "\(result)")
            #expect(!result.stderr.contains("hunter2") && !result.stdout.contains("hunter2"))
            #expect(!FileManager.default.fileExists(atPath: file))
        }
        let wrong = try tally.run(["today", "--database", "postgres://127.0.0.1/tally?sslmode=sometimes"])
        #expect(wrong.exitCode == 1 && wrong.stderr.contains("sslmode=sometimes is not one Tally knows"), "\(wrong)")
    }

    // H2: a new local user gets the machine's zone; each test names its own, and the setting sticks.
    @Test func timeZoneSetting() throws {
        let tally = try Sandbox(timeZone: "America/New_York")
        #expect(try tally.json(["settings"], as: SettingsJSON.self).timeZone == "America/New_York")
        // 10:00 UTC on 12 March 2025 is 06:00 in New York (EDT since 9 March).
        #expect(try tally.json(["drink", "250", "--at", "05:30"], as: EntryResultJSON.self).entry.at
                == utc("2025-03-12T09:30:00Z"))
    }

    // A5: --user and TALLY_USER keep separate tallies in one database.
    @Test func separateUsers() throws {
        let tally = try Sandbox()
        try tally.ok(["drink", "400"])
        try tally.ok(["settings", "set", "timezone", "Europe/Berlin", "--user", "alex"])
        try tally.ok(["drink", "100", "--user", "alex"])
        #expect(try tally.json(["today"], as: DayJSON.self).totalMl == 400)
        #expect(try tally.ok(["today", "--json"], env: ["TALLY_USER": "alex"]).decode(DayJSON.self).totalMl == 100)
    }
}
