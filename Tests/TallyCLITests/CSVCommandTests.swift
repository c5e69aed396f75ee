import Foundation
import Testing

/// A2 from the command line: `tally export csv` and `tally import csv FILE`, on the local
/// database and against a server, with the same answers and the same refusals.
@Suite("tally export csv, tally import csv")
struct CSVCommandTests {
    static let header = "time,day,type,volume_ml,kind,factor,effective_ml,note,source,id"

    @Test("A2: the export written to a file imports into another database as the same days; again adds nothing")
    func roundTrip() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["drink", "250", "--kind", "coffee", "--at", "2025-03-11T23:59", "--note", "@home, \"late\""])
        try sandbox.ok(["drink", "500", "--at", "08:00"])
        try sandbox.ok(["remove", "100"])
        let file = sandbox.folder.appendingPathComponent("drinks.csv").path
        #expect(try sandbox.ok(["export", "csv", "-o", file]).stdout.isEmpty)
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(try sandbox.ok(["export", "csv"]).stdout == written)
        let lines = written.components(separatedBy: "\r\n")
        #expect(lines[0] == Self.header)
        #expect(lines[1].hasPrefix("2025-03-11T23:59:00+01:00,2025-03-11,drink,250,coffee,0.85,212.5,\"'@home, \"\"late\"\"\",manual,"))
        #expect(lines.count == 5)

        let other = try Sandbox()
        #expect(try other.ok(["import", "csv", file]).stdout == "Imported 2 drinks and 1 removal.\n")
        #expect(try other.ok(["import", "csv", file]).stdout == "Imported 0 drinks and 0 removals.\n3 entries were there already.\n")
        for date in ["2025-03-11", "2025-03-12"] {
            #expect(try other.ok(["today", "--date", date]).stdout == sandbox.ok(["today", "--date", date]).stdout)
        }
    }

    @Test("A2: a plain file in ounces; a bad line or a missing file is refused with a sentence, here and on a server, and changes nothing")
    func plainAndRefused() throws {
        let local = try Sandbox()
        let server = try ServeProcess.start()
        defer { server.stop() }
        let plain = local.folder.appendingPathComponent("plain.csv")
        try Data("date,time,amount\n2025-03-12,07:30,8\n".utf8).write(to: plain)
        let bad = local.folder.appendingPathComponent("bad.csv")
        try Data("date,time,amount,unit\n2025-03-12,07:30,8,oz\n2025-03-12,7:75,8,oz\n".utf8).write(to: bad)

        let unitless = "Line 1 does not say the unit of \"amount\": name the column amount_ml or amount_oz, add a unit column, or choose the unit (ml or oz).\n"
        let badLine = "Nothing was imported: 1 line is wrong.\nLine 3, column time: \"2025-03-12 7:75\" is not a time: write 2025-03-30T08:15:00+02:00, or a date (2025-03-30) and a time (08:15).\n"
        for (args, message, code) in [(["import", "csv", plain.path], unitless, Int32(1)), (["import", "csv", bad.path], badLine, 1),
                                      (["import", "csv", "/no/such/file.csv"], "Cannot read /no/such/file.csv: there is no such file, or it cannot be opened.\n", 2)] {
            let here = try local.run(args)
            let there = try server.run(args)
            #expect(here.exitCode == code && there.exitCode == code, "\(here)\n\(there)")
            #expect(here.stderr == message && there.stderr == message, "\(here)\n\(there)")
        }
        #expect(try local.databaseContents()["intake"]?.count ?? 0 == 0)
        #expect(try local.ok(["import", "csv", plain.path, "--unit", "oz", "--json"]).object() as NSDictionary
                == ["drinksAdded": 1, "removalsAdded": 0, "alreadyThere": 0, "newKinds": []])
        #expect(try server.ok(["import", "csv", plain.path, "--unit", "oz", "--json"]).object() as NSDictionary
                == ["drinksAdded": 1, "removalsAdded": 0, "alreadyThere": 0, "newKinds": []])
        #expect(try local.ok(["export", "csv"]).stdout.components(separatedBy: "\r\n")[1].hasPrefix("2025-03-12T07:30:00+01:00,2025-03-12,drink,236.588,water,1,236.588,,import,"))
        #expect(try server.ok(["export", "csv"]).stdout.hasPrefix(Self.header + "\r\n"))
    }
}
