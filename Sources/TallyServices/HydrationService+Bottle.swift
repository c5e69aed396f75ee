import Foundation
import TallyAPI
import TallyCore
import TallyRepositories

extension HydrationService {
    public func bottle() async throws -> Bottle {
        try await store.bottle(of: user)
    }

    /// A sip (H10): the level drops and the amount is logged as water from the bottle, in one
    /// transaction; an empty bottle refuses and nothing is logged.
    public func sip(id: UUID? = nil) async throws -> BottleResult {
        let (now, id) = (clock.now, id ?? UUID())
        let (bottle, intake, created) = try await store.changeBottle(of: user, sip: id) { bottle, settings, kinds in
            let (after, drunk) = try bottle.sip(unit: settings.unit)
            bottle = after
            let water = try Self.activeKind(named: DrinkKind.defaultName, among: kinds)
            return Intake(id: id, at: now, day: LocalDate(containing: now, in: settings.zone), volumeMl: drunk,
                          kind: water, note: nil, source: .bottle)
        }
        return BottleResult(bottle: bottle, sip: intake.map(DayEntry.intake), created: created,
                            day: try await intake.asyncMap { try await dayProgress(on: $0.day) })
    }

    /// Sets any of the capacity, the level and the sip size, in that order and in one
    /// transaction: a refused part changes nothing. Setting the level (a refill, a spill) is not
    /// drinking, so nothing is logged.
    public func adjustBottle(capacityMl: Double? = nil, levelMl: Double? = nil, sipMl: Double? = nil) async throws -> Bottle {
        guard capacityMl != nil || levelMl != nil || sipMl != nil else {
            throw TallyError.invalid("Say what to change: the level, the capacity or the sip size.")
        }
        return try await store.changeBottle(of: user, sip: nil) { bottle, settings, _ in
            let unit = settings.unit
            if let capacityMl { bottle = try bottle.withCapacity(capacityMl, unit: unit) }
            if let levelMl { bottle = try bottle.withLevel(levelMl, unit: unit) }
            if let sipMl { bottle = try bottle.withSip(sipMl, unit: unit) }
            return nil
        }.bottle
    }

    /// Fills the bottle to its capacity.
    public func fillBottle() async throws -> Bottle {
        try await store.changeBottle(of: user, sip: nil) { bottle, settings, _ in
            bottle = try bottle.withLevel(bottle.capacityMl, unit: settings.unit)
            return nil
        }.bottle
    }
}
