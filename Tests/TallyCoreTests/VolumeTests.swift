import Foundation
import Testing
@testable import TallyCore

/// H5: ml or US fl oz (1 fl oz = 29.5735 ml); stored in ml; display rounds, calculation never does.
@Suite("Volume units and input (H1, H5)")
struct VolumeTests {
    // MARK: Conversion (seed 000 unit test 5; seed 002 VolumeUnit tests)

    @Test("H5: the FDA figure")
    func fdaFigure() {
        #expect(VolumeUnit.mlPerFluidOunce == 29.5735)
    }

    @Test("H5 testMLToOzConversion")
    func testMLToOzConversion() {
        #expect(isClose(VolumeUnit.oz.fromMilliliters(29.5735), 1))
        #expect(isClose(VolumeUnit.oz.fromMilliliters(236.588), 8))
        #expect(isClose(VolumeUnit.oz.fromMilliliters(250), 8.453514125822105, tolerance: 1e-12))
        #expect(isClose(VolumeUnit.oz.fromMilliliters(1000), 33.81405650328842, tolerance: 1e-12))
        #expect(VolumeUnit.oz.fromMilliliters(0) == 0)
        #expect(VolumeUnit.ml.fromMilliliters(250) == 250)
    }

    @Test("H5 testOzToMLConversion")
    func testOzToMLConversion() {
        #expect(isClose(VolumeUnit.oz.toMilliliters(1), 29.5735))
        #expect(isClose(VolumeUnit.oz.toMilliliters(8), 236.588))
        #expect(isClose(VolumeUnit.oz.toMilliliters(16), 473.176))
        #expect(isClose(VolumeUnit.oz.toMilliliters(64), 1892.704))
        #expect(VolumeUnit.ml.toMilliliters(250) == 250)
    }

    @Test("H5 testRoundTripConversion", arguments: [0.1, 1, 4, 8, 12.5, 16, 33.8, 100, 169.07, 1000])
    func testRoundTripConversion(_ value: Double) {
        for unit in VolumeUnit.allCases {
            let back = unit.fromMilliliters(unit.toMilliliters(value))
            #expect(isClose(back, value, tolerance: value * 1e-12), "\(value) \(unit) → ml → \(back)")
        }
        let ml = value * 10
        #expect(isClose(VolumeUnit.oz.toMilliliters(VolumeUnit.oz.fromMilliliters(ml)), ml, tolerance: ml * 1e-12))
    }

    @Test("H5: calculation never rounds (8 oz is 236.588 ml, not 237)")
    func calculationDoesNotRound() {
        let ml = VolumeUnit.oz.toMilliliters(8)
        #expect(ml != ml.rounded())
        #expect(ml > 236.5 && ml < 236.6)
    }

    // MARK: Display

    @Test("H5: display rounds to whole units",
          arguments: [(VolumeUnit.ml, 236.588, "237 ml"), (.oz, 236.588, "8 oz"), (.ml, 250, "250 ml"),
                      (.ml, 249.4, "249 ml"), (.ml, 249.5, "250 ml"), (.oz, 250, "8 oz"), (.oz, 1000, "34 oz"),
                      (.ml, 0, "0 ml"), (.oz, 5000, "169 oz"), (.ml, 5000, "5000 ml")])
    func format(_ unit: VolumeUnit, _ ml: Double, _ expected: String) {
        #expect(unit.format(ml) == expected)
    }

    @Test("H5: display of absurd amounts does not trap")
    func formatAbsurdAmounts() {
        // Error messages quote what was typed: a 21-digit amount must give a message, not a crash.
        #expect(VolumeUnit.ml.format(1e20) == "100000000000000000000 ml")
        #expect(VolumeUnit.ml.format(-1e20).hasSuffix(" ml"))
        #expect(VolumeUnit.oz.format(.infinity).hasSuffix(" oz"))
        #expect(VolumeUnit.ml.format(.nan).hasSuffix(" ml"))
    }

    @Test("H5: unit names as people type them",
          arguments: [("ml", VolumeUnit.ml), ("mL", .ml), ("ML", .ml), ("milliliters", .ml), ("millilitres", .ml),
                      ("oz", .oz), ("OZ", .oz), ("fl oz", .oz), ("floz", .oz), ("fl. oz", .oz), ("ounces", .oz)])
    func typedUnits(_ text: String, _ unit: VolumeUnit) {
        #expect(VolumeUnit(typed: text) == unit)
    }

    @Test("H5: unknown unit names", arguments: ["cups", "l", "litre", "", "gal", "tbsp"])
    func unknownUnits(_ text: String) {
        #expect(VolumeUnit(typed: text) == nil)
    }

    // MARK: Parsing typed amounts

    @Test("H5: typed amounts, a bare number being in the default unit",
          arguments: [("250", VolumeUnit.ml, 250.0), ("250", .oz, 250 * 29.5735), ("250ml", .oz, 250),
                      ("250 ml", .oz, 250), ("8oz", .ml, 236.588), ("8 oz", .ml, 236.588), ("8 OZ", .ml, 236.588),
                      ("12.5 fl oz", .ml, 12.5 * 29.5735), ("12.5floz", .ml, 12.5 * 29.5735), ("0.5", .ml, 0.5),
                      ("  330 ml  ", .oz, 330), ("1000", .ml, 1000), (".5oz", .ml, 0.5 * 29.5735)])
    func parsesAmounts(_ text: String, _ defaultUnit: VolumeUnit, _ expectedMl: Double) throws {
        let ml = try VolumeInput.milliliters(from: text, defaultUnit: defaultUnit)
        #expect(isClose(ml, expectedMl), "\(text) → \(ml)")
    }

    @Test("H5: text that is not an amount is refused with a hint",
          arguments: ["abc", "", "12 cups", "ml", "oz", "1.2.3", "nan", "inf", "five", "12 ml ml", "--5", "1e400"])
    func refusesNonAmounts(_ text: String) throws {
        let error = try #require(throws: TallyError.self) {
            try VolumeInput.milliliters(from: text, defaultUnit: .ml)
        }
        #expect(error.kind == .invalidInput)
        #expect(error.message.contains("ml or oz"))
    }

    @Test("H1: a parsed amount far beyond the limit is refused by validation, not a crash")
    func hugeTypedAmount() throws {
        let ml = try VolumeInput.milliliters(from: "100000000000000000000", defaultUnit: .ml)
        let error = try #require(throws: TallyError.self) { try EntryVolume.validate(ml, unit: .ml) }
        #expect(error.message.contains("at most 5000 ml"))
    }

    // MARK: Range of one entry (H1)

    @Test("H1: an entry must be more than 0", arguments: [0.0, -0.0, -1, -250, .nan, -.infinity])
    func refusesNonPositive(_ ml: Double) throws {
        let error = try #require(throws: TallyError.self) { try EntryVolume.validate(ml, unit: .ml) }
        #expect(error.kind == .invalidInput)
        #expect(error.message.contains("more than 0 ml"))
        let inOz = try #require(throws: TallyError.self) { try EntryVolume.validate(ml, unit: .oz, what: "A sip") }
        #expect(inOz.message.contains("more than 0 oz"))
        #expect(inOz.message.hasPrefix("A sip"))
    }

    @Test("H1: an entry can be at most 5000 ml, named in the user's unit")
    func refusesTooMuch() throws {
        let ml = try #require(throws: TallyError.self) { try EntryVolume.validate(5000.1, unit: .ml) }
        #expect(ml.kind == .invalidInput)
        #expect(ml.message.contains("at most 5000 ml"))
        let oz = try #require(throws: TallyError.self) { try EntryVolume.validate(5000.1, unit: .oz) }
        #expect(oz.message.contains("at most 169 oz"))
        #expect(throws: TallyError.self) { try EntryVolume.validate(.infinity, unit: .ml) }
    }

    @Test("H1: amounts inside the range are accepted", arguments: [0.001, 1, 250, 4999.9, 5000])
    func acceptsInRange(_ ml: Double) throws {
        try EntryVolume.validate(ml, unit: .ml)
        try EntryVolume.validate(ml, unit: .oz)
    }
}
