import Foundation

/// The water bottle of seed 001 (H10): how much it holds, how much is in it, and how much a sip
/// takes. Sipping is drinking (it logs an intake); setting the level (a refill, a spill) is not.
public struct Bottle: Equatable, Sendable {
    public var capacityMl: Double
    public var levelMl: Double
    public var sipMl: Double

    public static let defaultCapacityMl = 1000.0
    public static let defaultSipMl = 30.0

    /// A full bottle of the default size.
    public static let standard = Bottle(capacityMl: defaultCapacityMl, levelMl: defaultCapacityMl, sipMl: defaultSipMl)

    public init(capacityMl: Double, levelMl: Double, sipMl: Double) {
        self.capacityMl = capacityMl
        self.levelMl = levelMl
        self.sipMl = sipMl
    }

    /// How full it is, from 0 to 1: the height of the water in the drawing.
    public var fraction: Double { capacityMl > 0 ? min(max(levelMl / capacityMl, 0), 1) : 0 }

    public var isEmpty: Bool { levelMl <= 0 }

    /// One sip: the level drops by the sip size, or to empty when less than a sip is left (the
    /// last sip takes what there is). Returns the bottle after it and what was drunk; an empty
    /// bottle refuses, so nothing is logged.
    public func sip(unit: VolumeUnit) throws -> (bottle: Bottle, drunkMl: Double) {
        guard !isEmpty else {
            throw TallyError.conflict("The bottle is empty: refill it (or set its level) before the next sip.")
        }
        let drunk = min(sipMl, levelMl)
        var after = self
        after.levelMl = levelMl - drunk
        // Float dust from many sips must not leave a bottle that is "almost" empty.
        if after.levelMl < 0.001 { after.levelMl = 0 }
        return (after, drunk)
    }

    /// The level set directly (a refill, a spill): from empty to full. Logs nothing.
    public func withLevel(_ ml: Double, unit: VolumeUnit) throws -> Bottle {
        guard ml.isFinite, ml >= 0, ml <= capacityMl + 0.001 else {
            throw TallyError.invalid("The level goes from 0 to the bottle's \(unit.format(capacityMl)); \(unit.format(ml)) is outside that.", field: "levelMl")
        }
        var after = self
        after.levelMl = min(ml, capacityMl)
        return after
    }

    /// A new capacity (> 0, at most 5000 ml); what is in the bottle stays, up to the new size.
    public func withCapacity(_ ml: Double, unit: VolumeUnit) throws -> Bottle {
        guard ml.isFinite, ml > 0 else {
            throw TallyError.invalid("A bottle's capacity must be more than 0 \(unit.rawValue).", field: "capacityMl")
        }
        guard ml <= EntryVolume.maximumMl else {
            throw TallyError.invalid("A bottle holds at most \(unit.format(EntryVolume.maximumMl)).", field: "capacityMl")
        }
        var after = self
        after.capacityMl = ml
        after.levelMl = min(levelMl, ml)
        return after
    }

    /// A new sip size: more than 0 and at most the bottle's capacity.
    public func withSip(_ ml: Double, unit: VolumeUnit) throws -> Bottle {
        guard ml.isFinite, ml > 0 else {
            throw TallyError.invalid("A sip must be more than 0 \(unit.rawValue).", field: "sipMl")
        }
        guard ml <= capacityMl else {
            throw TallyError.invalid("A sip can be at most the bottle's \(unit.format(capacityMl)).", field: "sipMl")
        }
        var after = self
        after.sipMl = ml
        return after
    }
}
