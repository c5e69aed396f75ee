import Foundation
import Testing
@testable import TallyCore

/// H10: the bottle: capacity 1000 ml by default (> 0, at most 5000 ml), sips of 30 ml, no sip
/// below empty, the level set directly without logging.
@Suite("Bottle (H10)")
struct BottleTests {
    @Test("H10: defaults: a full 1000 ml bottle, 30 ml sips")
    func defaults() {
        #expect(Bottle.standard == Bottle(capacityMl: 1000, levelMl: 1000, sipMl: 30))
        #expect(Bottle.standard.fraction == 1)
    }

    @Test("H10: a sip lowers the level by the sip size and says what was drunk")
    func sip() throws {
        let (after, drunk) = try Bottle.standard.sip(unit: .ml)
        #expect(drunk == 30 && after.levelMl == 970)
        #expect(abs(after.fraction - 0.97) < 1e-12)
    }

    @Test("H10: the last sip takes what is left; an empty bottle refuses")
    func empty() throws {
        let nearly = Bottle(capacityMl: 1000, levelMl: 20, sipMl: 30)
        let (empty, drunk) = try nearly.sip(unit: .ml)
        #expect(drunk == 20 && empty.levelMl == 0 && empty.isEmpty)
        #expect(throws: TallyError.conflict("The bottle is empty: refill it (or set its level) before the next sip.")) {
            try empty.sip(unit: .ml)
        }
    }

    @Test("H10: 1000 / 30 ml: 34 sips empty it exactly, with no float dust left")
    func manySips() throws {
        var bottle = Bottle(capacityMl: 1000, levelMl: 1000, sipMl: 29.5735)
        var total = 0.0
        while !bottle.isEmpty {
            let (after, drunk) = try bottle.sip(unit: .oz)
            total += drunk
            bottle = after
        }
        #expect(abs(total - 1000) < 1e-9)
        #expect(bottle.levelMl == 0)
    }

    @Test("H10: the level goes from 0 to the capacity")
    func level() throws {
        #expect(try Bottle.standard.withLevel(0, unit: .ml).levelMl == 0)
        #expect(try Bottle.standard.withLevel(400, unit: .ml).fraction == 0.4)
        for bad in [-1.0, 1000.5, .nan, .infinity] {
            #expect(throws: TallyError.self) { try Bottle.standard.withLevel(bad, unit: .ml) }
        }
    }

    @Test("H10: capacity > 0 and at most 5000 ml; a smaller bottle keeps at most its new size")
    func capacity() throws {
        #expect(try Bottle.standard.withCapacity(5000, unit: .ml).levelMl == 1000)
        #expect(try Bottle.standard.withCapacity(500, unit: .ml).levelMl == 500)
        for bad in [0.0, -5, 5000.5, .nan] {
            #expect(throws: TallyError.self) { try Bottle.standard.withCapacity(bad, unit: .ml) }
        }
        #expect(throws: TallyError.invalid("A bottle holds at most 5000 ml.", field: "capacityMl")) {
            try Bottle.standard.withCapacity(6000, unit: .ml)
        }
    }

    @Test("H10: a sip is more than 0 and at most the bottle")
    func sipSize() throws {
        #expect(try Bottle.standard.withSip(50, unit: .ml).sipMl == 50)
        #expect(throws: TallyError.self) { try Bottle.standard.withSip(0, unit: .ml) }
        #expect(throws: TallyError.self) { try Bottle.standard.withSip(1001, unit: .ml) }
    }
}
