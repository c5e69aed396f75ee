import Foundation
import Testing
import TallyCore
@testable import TallyImport

/// A2: what another app's plain CSV says is read as it is written.
@Suite("Drink CSV from other apps (A2)")
struct DrinkCSVPlainFileTests {
    typealias CSV = DrinkCSVTests

    @Test("A2: a note that starts with an apostrophe in another app's file keeps it (only Tally's own cells carry an added one)")
    func apostropheKept() throws {
        let rows = try CSV.read("date,time,amount_ml,note\n2026-05-20,08:00,250,'tis hot\n")
        #expect(rows.map(\.note) == ["'tis hot"])
        let own = try CSV.read(CSV.header + "\n2026-05-20T08:00:00Z,2026-05-20,drink,250,water,1,250,'tis hot,manual,\(CSV.id(1))\n")
        #expect(own.map(\.note) == ["tis hot"])
    }

    @Test("A2: a time before 1900 is a typo, refused with its line")
    func longAgo() throws {
        #expect(throws: CSV.oneLineWrong("Line 2, column time: that time is before 1900.")) {
            try CSV.read("date,time,amount_ml\n0999-05-20,08:00,250\n")
        }
    }
}
