import Foundation
import Testing

/// `tally presets` and the unit setting (H4, H5).
@Suite("presets and units")
struct PresetsAndUnitsTests {
    // H4: 3–4 presets, default 100, 250, 500 ml.
    @Test func presetsShowAndSet() throws {
        let tally = try Sandbox()
        #expect(try tally.json(["presets"], as: PresetsJSON.self).amountsMl == [100, 250, 500])
        #expect(try tally.ok(["presets"]).stdout == "Presets: 100 ml, 250 ml, 500 ml\n")

        #expect(try tally.json(["presets", "set", "150", "300", "450"], as: PresetsJSON.self).amountsMl == [150, 300, 450])
        #expect(try tally.json(["presets", "set", "100", "200", "330ml", "16oz"], as: PresetsJSON.self).amountsMl.count == 4)
        #expect(try tally.json(["presets", "show"], as: PresetsJSON.self).amountsMl.prefix(3) == [100, 200, 330])

        #expect(try tally.refused(["presets", "set", "100", "200"]).contains("3 or 4"))
        #expect(try tally.refused(["presets", "set", "1", "2", "3", "4", "5"]).contains("3 or 4"))
        try tally.refused(["presets", "set", "100", "0", "300"])
        try tally.refused(["presets", "set", "100", "6000", "300"])

        #expect(try tally.json(["presets", "reset"], as: PresetsJSON.self).amountsMl == [100, 250, 500])
    }

    // H4, H5: in oz mode the defaults are 4, 8, 16 oz (stored in ml); bare numbers are ounces.
    @Test func ounceMode() throws {
        let tally = try Sandbox()
        let settings = try tally.json(["settings", "set", "unit", "oz"], as: SettingsJSON.self)
        #expect(settings.unit == "oz")
        let presets = try tally.json(["presets"], as: PresetsJSON.self).amountsMl
        #expect(presets.count == 3)
        for (ml, oz) in zip(presets, [4.0, 8, 16]) {
            #expect(approx(ml, oz * 29.5735))
        }
        #expect(try tally.ok(["presets"]).stdout == "Presets: 4 oz, 8 oz, 16 oz\n")

        let drink = try tally.json(["drink", "8"], as: EntryResultJSON.self)
        #expect(approx(drink.entry.volumeMl, 236.588))
        #expect(try tally.ok(["drink", "250ml"]).stdout.hasPrefix("Logged 8 oz of water."))
        let text = try tally.ok(["today"]).stdout
        #expect(text.contains("16 oz of 85 oz"), "\(text)") // 486.588 ml of 2500 ml

        #expect(try tally.refused(["drink", "200"]).contains("oz"))
    }

    // A5, H5: --unit oz shows and reads one command in oz; the stored data stays in ml.
    @Test func unitOverride() throws {
        let tally = try Sandbox()
        let drink = try tally.json(["drink", "8", "--unit", "oz"], as: EntryResultJSON.self)
        #expect(approx(drink.entry.volumeMl, 236.588))
        try tally.ok(["drink", "500"])
        let oz = try tally.ok(["today", "--unit", "oz"]).stdout
        #expect(oz.contains("25 oz of 85 oz"), "\(oz)")  // 736.588 ml, 2500 ml
        #expect(oz.contains("8 oz water"), "\(oz)")
        let ml = try tally.ok(["today"]).stdout
        #expect(ml.contains("737 ml of 2500 ml"), "\(ml)")
        #expect(try tally.ok(["presets", "--unit", "oz"]).stdout == "Presets: 3 oz, 8 oz, 17 oz\n")
        #expect(try tally.json(["settings"], as: SettingsJSON.self).unit == "ml")
        // An unknown unit is a usage error of the argument parser.
        let usage = try tally.run(["today", "--unit", "gallon"])
        #expect(usage.exitCode == 64, "\(usage)")
        #expect(usage.stderr.contains("gallon"))
    }
}
