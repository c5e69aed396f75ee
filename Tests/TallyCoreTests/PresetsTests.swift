import Foundation
import Testing
@testable import TallyCore

/// H4: 3–4 quick-add amounts per user, default 100, 250, 500 ml (4, 8, 16 oz in oz mode).
@Suite("Presets (H4)")
struct PresetsTests {
    @Test("H4: the ml defaults are 100, 250 and 500 ml")
    func mlDefaults() {
        #expect(Presets.defaults(for: .ml).amountsMl == [100, 250, 500])
        #expect(Presets.defaults(for: .ml).amountsMl.map(VolumeUnit.ml.format) == ["100 ml", "250 ml", "500 ml"])
    }

    @Test("H4, H5: the oz defaults are 4, 8 and 16 oz, stored in ml")
    func ozDefaults() {
        let amounts = Presets.defaults(for: .oz).amountsMl
        #expect(amounts.count == 3)
        for (ml, oz) in zip(amounts, [4.0, 8, 16]) {
            #expect(isClose(ml, oz * 29.5735))
            #expect(isClose(VolumeUnit.oz.fromMilliliters(ml), oz))
        }
        #expect(amounts.map(VolumeUnit.oz.format) == ["4 oz", "8 oz", "16 oz"])
    }

    @Test("H4: three or four amounts are accepted", arguments: [[100.0, 250, 500], [50, 150, 330, 750]])
    func acceptsThreeOrFour(_ amounts: [Double]) throws {
        #expect(try Presets(amountsMl: amounts, unit: .ml).amountsMl == amounts)
    }

    @Test("H4: fewer than three or more than four amounts are refused",
          arguments: [[Double](), [250], [100, 250], [100, 200, 300, 400, 500]])
    func refusesCount(_ amounts: [Double]) throws {
        let error = try #require(throws: TallyError.self) { try Presets(amountsMl: amounts, unit: .ml) }
        #expect(error.kind == .invalidInput)
        #expect(error.message.contains("3 or 4"))
        #expect(error.message.contains("\(amounts.count)"))
    }

    @Test("H4, H1: every amount must be a valid drink",
          arguments: [[100.0, 0, 500], [100, -250, 500], [100, 250, 5000.1], [100, .nan, 500], [100, 250, 500, 9000]])
    func refusesInvalidAmounts(_ amounts: [Double]) throws {
        let error = try #require(throws: TallyError.self) { try Presets(amountsMl: amounts, unit: .ml) }
        #expect(error.kind == .invalidInput)
        #expect(error.message.hasPrefix("A preset"))
    }

    @Test("H4: the limit is named in the user's unit")
    func limitInUnit() throws {
        let error = try #require(throws: TallyError.self) { try Presets(amountsMl: [100, 250, 6000], unit: .oz) }
        #expect(error.message.contains("169 oz"))
    }

    @Test("H4: settings use the unit's defaults until the person sets their own")
    func settingsPresets() throws {
        #expect(HydrationSettings(unit: .ml, timeZone: "UTC").presets == .defaults(for: .ml))
        #expect(HydrationSettings(unit: .oz, timeZone: "UTC").presets == .defaults(for: .oz))
        let own = try Presets(amountsMl: [200, 330, 750], unit: .ml)
        #expect(HydrationSettings(unit: .oz, timeZone: "UTC", customPresets: own).presets == own)
    }
}
