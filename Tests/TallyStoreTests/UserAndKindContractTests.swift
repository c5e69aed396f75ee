import Foundation
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

@Suite("User and drink kind repository contract")
struct UserAndKindContractTests {
    @Test("A user is created once, with the seven built-in kinds (H6)", arguments: StoreKind.allCases)
    func createUser(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        #expect(try await f.store.user(named: "ada") == f.user)
        #expect(try await f.store.user(id: f.user.id) == f.user)
        #expect(try await f.store.user(named: "nobody") == nil)
        let kinds = try await f.store.drinkKinds(of: f.user.id)
        #expect(Dictionary(uniqueKeysWithValues: kinds.map { ($0.name, $0.factor) }) ==
                ["water": 1.0, "coffee": 0.85, "tea": 0.95, "juice": 0.9, "milk": 0.9, "soda": 0.8, "other": 0.9])
        #expect(kinds.allSatisfy { $0.isBuiltIn })
        await #expect(throws: TallyError.conflict("There is already a user named ada.")) {
            try await f.store.createUser(User(name: "ada", createdAt: f.clock.now),
                                         settings: HydrationSettings(timeZone: "UTC"), kinds: [])
        }
    }

    @Test("Settings are stored and read back, presets in ml (H4, H5)", arguments: StoreKind.allCases)
    func settings(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        #expect(try await f.hydration.settings() == HydrationSettings(unit: .ml, timeZone: "Europe/Berlin"))
        _ = try await f.hydration.setUnit(.oz)
        _ = try await f.hydration.setTimeZone("America/New_York")
        _ = try await f.hydration.setPresets([VolumeUnit.oz.toMilliliters(6), 300, 400])
        let stored = try await f.store.settings(of: f.user.id)
        #expect(stored.unit == .oz)
        #expect(stored.timeZone == "America/New_York")
        #expect(stored.presets.amountsMl == [6 * 29.5735, 300, 400])
        _ = try await f.hydration.setPresets(nil)
        #expect(try await f.store.settings(of: f.user.id).presets == Presets.defaults(for: .oz))
    }

    @Test("A change of settings or kinds is checked and written in one transaction: all of it or none",
          arguments: StoreKind.allCases)
    func changesAreAllOrNothing(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let before = try await f.store.settings(of: f.user.id)
        await #expect(throws: TallyError.invalid("refused")) {
            try await f.store.changeSettings(of: f.user.id) { settings in
                settings.unit = .oz
                throw TallyError.invalid("refused")
            }
        }
        #expect(try await f.store.settings(of: f.user.id) == before)
        // The check sees the settings as they are inside the change: presets are judged in the
        // unit saved with them, whatever the caller read before.
        let changed = try await f.store.changeSettings(of: f.user.id) { settings in
            settings.unit = .oz
            settings.customPresets = try Presets(amountsMl: [VolumeUnit.oz.toMilliliters(4), 300, 400], unit: settings.unit)
        }
        #expect(changed == (try await f.store.settings(of: f.user.id)))

        // Two kinds in one change, the second clashing with water: neither is saved.
        let kindsBefore = try await f.store.drinkKinds(of: f.user.id)
        await #expect(throws: TallyError.self) {
            try await f.store.changeDrinkKinds(of: f.user.id) { _ in
                (save: [DrinkKind(name: "Broth", factor: 0.7), DrinkKind(name: "WATER", factor: 1)], answer: ())
            }
        }
        #expect(try await f.store.drinkKinds(of: f.user.id) == kindsBefore)
        // A removal is judged with the unit and zone read in its own transaction.
        _ = try await f.hydration.setUnit(.ml)
        await #expect(throws: TallyError.self) { try await f.hydration.remove(.typed("100")) }
        _ = try await f.hydration.logDrink(.init(volume: .typed("300")))
        let (removal, _) = try await f.hydration.remove(.typed("100"))
        #expect(removal.volumeMl == 100)
    }

    @Test("H2: a zone is kept as it was named (UTC stays UTC)", arguments: StoreKind.allCases)
    func zoneName(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        #expect(try await f.hydration.setTimeZone("UTC").timeZone == "UTC")
        #expect(try await f.store.settings(of: f.user.id).timeZone == "UTC")
    }

    @Test("Refused settings change nothing", arguments: StoreKind.allCases)
    func refusedSettings(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        await #expect(throws: TallyError.self) { try await f.hydration.setTimeZone("Mars/Olympus") }
        await #expect(throws: TallyError.self) { try await f.hydration.setPresets([100, 200]) }
        await #expect(throws: TallyError.self) { try await f.hydration.setPresets([100, 200, 9000]) }
        #expect(try await f.hydration.settings() == HydrationSettings(unit: .ml, timeZone: "Europe/Berlin"))
    }

    @Test("H6: kinds are added, renamed and retired; names stay unique among active kinds", arguments: StoreKind.allCases)
    func kinds(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let broth = try await f.hydration.addDrinkKind(name: "Broth", factor: 0.7)
        await #expect(throws: TallyError.conflict("There is already a drink kind named broth.")) {
            try await f.hydration.addDrinkKind(name: "broth", factor: 1)
        }
        await #expect(throws: TallyError.self) { try await f.hydration.addDrinkKind(name: "Lava", factor: 1.6) }
        await #expect(throws: TallyError.self) { try await f.hydration.renameDrinkKind("water", to: "H2O") }
        let (drink, _) = try await f.hydration.logDrink(.init(volumeMl: 100, kindName: "broth"))
        #expect(drink.effectiveMl == 70)
        let renamed = try await f.hydration.renameDrinkKind("broth", to: "Soup")
        #expect(renamed.id == broth.id)
        // A rename shows on past drinks: they point at the kind.
        #expect(try await f.hydration.daySummary().entries.first.map { entry -> String? in
            if case .intake(let intake) = entry { return intake.kindName } else { return nil }
        } == "Soup")
        try await f.hydration.retireDrinkKind("soup")
        await #expect(throws: TallyError.self) { try await f.hydration.logDrink(.init(volumeMl: 100, kindName: "soup")) }
        // The retired kind's name is free again; the old drink keeps its kind and amount.
        try await f.hydration.addDrinkKind(name: "Soup", factor: 0.9)
        #expect(try await f.hydration.daySummary().totalMl == 70)
    }

    @Test("H6: the BHI factor set applies to new drinks only", arguments: StoreKind.allCases)
    func factorSets(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        try await f.hydration.logDrink(.init(volumeMl: 100, kindName: "milk"))
        let kinds = try await f.hydration.useFactors(.bhi)
        #expect(kinds.first { $0.name == "milk" }?.factor == 1.5)
        try await f.hydration.logDrink(.init(volumeMl: 100, kindName: "milk"))
        #expect(try await f.hydration.daySummary().totalMl == 90 + 150)
    }

    @Test("A kind of another user cannot be changed", arguments: StoreKind.allCases)
    func foreignKind(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        _ = try await f.otherUser()
        let bob = try #require(try await f.store.user(named: "bob"))
        var theirs = try #require(try await f.store.drinkKinds(of: bob.id).first)
        theirs.factor = 0.1
        await #expect(throws: TallyError.self) { try await f.store.saveDrinkKind(theirs, of: f.user.id) }
        #expect(try await f.store.drinkKinds(of: bob.id).first?.factor != 0.1)
    }
}

@Suite("Goal repository contract")
struct GoalContractTests {
    @Test("H7: with no profile the goal is 2500 ml", arguments: StoreKind.allCases)
    func defaultGoal(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let status = try await f.hydration.goalStatus()
        #expect(status.mode == .automatic && status.goalMl == 2500 && status.profile == nil && status.history.isEmpty)
        #expect(try await f.hydration.daySummary().goalMl == 2500)
    }

    @Test("H7: a profile drives the automatic goal; a custom goal overrides it and can be switched off", arguments: StoreKind.allCases)
    func profileAndOverride(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        var status = try await f.hydration.setProfile(try Profile(age: 40, weightKg: 70, activity: .moderate))
        #expect(status.goalMl == 2600 && status.breakdown?.baseMl == 2100)
        status = try await f.hydration.setGoal(.custom(ml: 3000))
        #expect(status.mode == .custom && status.goalMl == 3000)
        // A profile change does not move a custom goal.
        status = try await f.hydration.setProfile(try Profile(age: 40, weightKg: 80, activity: .moderate))
        #expect(status.goalMl == 3000)
        status = try await f.hydration.setGoal(.automatic)
        #expect(status.goalMl == 2900)
        status = try await f.hydration.setGoal(.none)
        #expect(status.goalMl == nil)
        let today = try await f.hydration.daySummary()
        #expect(today.goalMl == nil && today.percent == nil)
        #expect(try await f.store.profile(of: f.user.id) == (try Profile(age: 40, weightKg: 80, activity: .moderate)))
    }

    @Test("H8: a goal changed twice in one day leaves one goal for that day; a later change ends it yesterday", arguments: StoreKind.allCases)
    func goalHistory(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind, now: "2025-06-10T10:00:00Z")
        _ = try await f.hydration.setGoal(.custom(ml: 2000))
        _ = try await f.hydration.setGoal(.custom(ml: 2200))
        var history = try await f.store.goalHistory(of: f.user.id)
        #expect(history.periods == [GoalPeriod(start: day("2025-06-10"), end: nil, goal: Goal(mode: .custom, targetMl: 2200))])
        f.clock.set(instant("2025-06-15T10:00:00Z"))
        _ = try await f.hydration.setGoal(.custom(ml: 3000))
        history = try await f.store.goalHistory(of: f.user.id)
        #expect(history.periods.map(\.start) == [day("2025-06-10"), day("2025-06-15")])
        #expect(history.periods[0].end == day("2025-06-14"))
        // Past days keep the goal they had.
        #expect(try await f.hydration.daySummary(on: day("2025-06-12")).goalMl == 2200)
        #expect(try await f.hydration.daySummary(on: day("2025-06-09")).goalMl == 2500)
        #expect(try await f.hydration.daySummary().goalMl == 3000)
    }

    @Test("A refused goal changes nothing", arguments: StoreKind.allCases)
    func refusedGoal(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        _ = try await f.hydration.setGoal(.custom(ml: 2000))
        await #expect(throws: TallyError.self) { try await f.hydration.setGoal(.custom(ml: -5)) }
        await #expect(throws: TallyError.self) { try await f.hydration.setGoal(.custom(ml: 50_000)) }
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            _ = try await f.store.updateGoalHistory(of: f.user.id) { history, _, _ in
                _ = history.set(Goal(mode: .custom, targetMl: 1), today: day("2025-06-15"))
                throw Refused()
            }
        }
        #expect(try await f.hydration.goalStatus().goalMl == 2000)
    }

    @Test("H8: a history replaced whole (a restore) keeps exactly the periods given: those it leaves out are gone",
          arguments: StoreKind.allCases)
    func replacedHistory(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        _ = try await f.hydration.setGoal(.custom(ml: 1800))
        let periods = [GoalPeriod(start: day("2024-01-01"), end: day("2024-12-31"), goal: Goal(mode: .custom, targetMl: 1500)),
                       GoalPeriod(start: day("2025-01-01"), end: nil, goal: Goal(mode: .none, targetMl: nil))]
        let saved = try await f.store.updateGoalHistory(of: f.user.id) { history, _, _ in history = GoalHistory(periods: periods) }
        #expect(saved.periods == periods)
        #expect(try await f.store.goalHistory(of: f.user.id).periods == periods)
    }
}
