import Foundation
import Testing
@testable import TallyCore

/// H7: the profile and the goal calculator of seed 002.
@Suite("Goal calculator and profile (H7; seed 002)")
struct GoalCalculatorTests {
    func profile(age: Int, weight: Double, _ activity: ActivityLevel = .sedentary) throws -> Profile {
        try Profile(age: age, weightKg: weight, activity: activity)
    }

    @Test("H7 testGoalCalculationUnder65: 30 ml/kg")
    func testGoalCalculationUnder65() throws {
        let result = GoalCalculator.goal(for: try profile(age: 30, weight: 70))
        #expect(result.mlPerKg == 30)
        #expect(result.baseMl == 2100)
        #expect(result.bonusMl == 0)
        #expect(result.goalMl == 2100)
        #expect(!result.clamped)
    }

    @Test("H7 testGoalCalculationOver65: 25 ml/kg")
    func testGoalCalculationOver65() throws {
        let result = GoalCalculator.goal(for: try profile(age: 70, weight: 70))
        #expect(result.mlPerKg == 25)
        #expect(result.baseMl == 1750)
        #expect(result.goalMl == 1750)
        #expect(!result.clamped)
    }

    @Test("H7: the rate changes exactly at 65 (64 → 30 ml/kg, 65 → 25 ml/kg)",
          arguments: [(10, 30.0), (64, 30), (65, 25), (66, 25), (120, 25)])
    func ageThreshold(_ age: Int, _ mlPerKg: Double) throws {
        let result = GoalCalculator.goal(for: try profile(age: age, weight: 80))
        #expect(result.mlPerKg == mlPerKg)
        #expect(result.baseMl == 80 * mlPerKg)
        #expect(result.goalMl == 80 * mlPerKg)
    }

    @Test("H7 testGoalClampingLowerBound: a goal below 1500 ml is raised to 1500 and marked clamped")
    func testGoalClampingLowerBound() throws {
        let result = GoalCalculator.goal(for: try profile(age: 80, weight: 40))
        #expect(result.baseMl == 1000)
        #expect(result.goalMl == 1500)
        #expect(result.clamped)
    }

    @Test("H7 testGoalClampingUpperBound: a goal above 4500 ml is lowered to 4500 and marked clamped")
    func testGoalClampingUpperBound() throws {
        let result = GoalCalculator.goal(for: try profile(age: 30, weight: 150, .veryActive))
        #expect(result.baseMl == 4500)
        #expect(result.bonusMl == 1000)
        #expect(result.goalMl == 4500)
        #expect(result.clamped)
        let heaviest = GoalCalculator.goal(for: try profile(age: 30, weight: 300))
        #expect(heaviest.goalMl == 4500)
        #expect(heaviest.clamped)
    }

    @Test("H7: a goal exactly at a bound is not marked clamped")
    func goalAtTheBounds() throws {
        let low = GoalCalculator.goal(for: try profile(age: 30, weight: 50))
        #expect(low.goalMl == 1500)
        #expect(!low.clamped)
        let high = GoalCalculator.goal(for: try profile(age: 30, weight: 150))
        #expect(high.goalMl == 4500)
        #expect(!high.clamped)
        let withBonus = GoalCalculator.goal(for: try profile(age: 70, weight: 50, .light)) // 1250 + 250
        #expect(withBonus.goalMl == 1500)
        #expect(!withBonus.clamped)
    }

    @Test("H7 testActivityBonusApplication",
          arguments: [(ActivityLevel.sedentary, 0.0), (.light, 250), (.moderate, 500), (.active, 750), (.veryActive, 1000)])
    func testActivityBonusApplication(_ level: ActivityLevel, _ bonus: Double) throws {
        #expect(level.bonusMl == bonus)
        let result = GoalCalculator.goal(for: try profile(age: 30, weight: 70, level))
        #expect(result.baseMl == 2100)
        #expect(result.bonusMl == bonus)
        #expect(result.goalMl == 2100 + bonus)
        #expect(!result.clamped)
    }

    @Test("H7: the bonus counts before clamping (1000 + 1000 ml is 2000, not 1500 + 1000)")
    func bonusBeforeClamping() throws {
        let result = GoalCalculator.goal(for: try profile(age: 80, weight: 40, .veryActive))
        #expect(result.goalMl == 2000)
        #expect(!result.clamped)
    }

    @Test("H7: with no profile the goal is 2500 ml")
    func defaultWithoutProfile() throws {
        #expect(GoalCalculator.defaultGoalMl == 2500)
        #expect(GoalCalculator.automaticGoalMl(for: nil) == 2500)
        #expect(Goal(.automatic, profile: nil) == Goal(mode: .automatic, targetMl: 2500))
        #expect(Goal.default.targetMl == 2500)
        #expect(Goal.default.mode == .automatic)
        #expect(GoalCalculator.automaticGoalMl(for: try profile(age: 30, weight: 70)) == 2100)
    }

    @Test("H7: a custom goal overrides the computed one and can be switched off again; no goal shows none")
    func goalChoices() throws {
        let person = try profile(age: 30, weight: 70, .moderate)
        let automatic = Goal(.automatic, profile: person)
        #expect(automatic.targetMl == 2600)
        #expect(automatic.choice == .automatic)
        let custom = Goal(.custom(ml: 3000), profile: person)
        #expect(custom.mode == .custom)
        #expect(custom.targetMl == 3000)
        #expect(custom.choice == .custom(ml: 3000))
        // Switching the custom goal off goes back to the computed one.
        let switchedOff = Goal(.automatic, profile: person)
        #expect(switchedOff.targetMl == 2600)
        #expect(switchedOff.mode == .automatic)
        let none = Goal(.none, profile: person)
        #expect(none.mode == .none)
        #expect(none.targetMl == nil)
        #expect(none.choice == .none)
    }

    @Test("H7: a custom goal must be in range; the message names it in the user's unit")
    func customGoalRange() throws {
        try GoalChoice.validateCustom(250, unit: .ml)
        try GoalChoice.validateCustom(3000, unit: .ml)
        try GoalChoice.validateCustom(10_000, unit: .ml)
        for bad in [0.0, -5, 249.9, 10_000.5, .nan, .infinity, 1e20] {
            let error = try #require(throws: TallyError.self) { try GoalChoice.validateCustom(bad, unit: .ml) }
            #expect(error.kind == .invalidInput)
            #expect(error.message.contains("between 250 ml and 10000 ml"))
        }
        let oz = try #require(throws: TallyError.self) { try GoalChoice.validateCustom(30_000, unit: .oz) }
        #expect(oz.message.contains("between 8 oz and 338 oz"))
    }

    // MARK: Profile

    @Test("H7: ages 10 to 120 are accepted", arguments: [10, 11, 64, 65, 119, 120])
    func acceptsAges(_ age: Int) throws {
        #expect(try profile(age: age, weight: 70).age == age)
    }

    @Test("H7: ages outside 10–120 are refused with the range in the message", arguments: [9, 121, 0, -1, 150])
    func refusesAges(_ age: Int) throws {
        let error = try #require(throws: TallyError.self) { try profile(age: age, weight: 70) }
        #expect(error.kind == .invalidInput)
        #expect(error.message.contains("between 10 and 120"))
        #expect(error.message.contains("\(age)"))
    }

    @Test("H7: weights 30 to 300 kg are accepted", arguments: [30.0, 30.5, 70, 299.9, 300])
    func acceptsWeights(_ weight: Double) throws {
        #expect(try profile(age: 30, weight: weight).weightKg == weight)
    }

    @Test("H7: weights outside 30–300 kg are refused with the range in the message",
          arguments: [29.9, 300.1, 0, -70, 20, 400, Double.nan, .infinity])
    func refusesWeights(_ weight: Double) throws {
        let error = try #require(throws: TallyError.self) { try profile(age: 30, weight: weight) }
        #expect(error.kind == .invalidInput)
        #expect(error.message.contains("between 30 and 300 kg"))
    }

    @Test("H7: activity levels as people type them",
          arguments: [("sedentary", ActivityLevel.sedentary), ("Light", .light), ("MODERATE", .moderate),
                      ("active", .active), ("very active", .veryActive), ("very_active", .veryActive),
                      ("veryActive", .veryActive), ("very-active", .veryActive)])
    func typedActivity(_ text: String, _ level: ActivityLevel) {
        #expect(ActivityLevel(typed: text) == level)
    }

    @Test("H7: unknown activity levels are refused, and the names list every level")
    func unknownActivity() {
        #expect(ActivityLevel(typed: "athlete") == nil)
        #expect(ActivityLevel(typed: "") == nil)
        #expect(ActivityLevel.names == "sedentary, light, moderate, active, very-active")
    }
}
