import Foundation
import Testing

/// `tally goal` and `tally profile`: the calculator, custom goals, no goal, and the goal
/// history (H7, H8).
@Suite("tally goal")
struct GoalCommandTests {
    // H7: under 65, 30 ml/kg plus the activity bonus (moderate 500 ml), with its breakdown.
    @Test func calculatorUnder65() throws {
        let tally = try Sandbox()
        let breakdown = try tally.json(["goal", "calc", "--age", "64", "--weight", "70", "--activity", "moderate"],
                                       as: BreakdownJSON.self)
        #expect(breakdown.goalMl == 2600)
        #expect(breakdown.baseMl == 2100)
        #expect(breakdown.bonusMl == 500)
        #expect(breakdown.mlPerKg == 30)
        #expect(breakdown.clamped == false)
        // Calculating saves nothing: the goal is still the default.
        let status = try tally.json(["goal", "show"], as: GoalStatusJSON.self)
        #expect(status.goalMl == 2500)
        #expect(status.profile == nil)
    }

    // H7: from 65, 25 ml/kg.
    @Test func calculatorFrom65() throws {
        let tally = try Sandbox()
        let breakdown = try tally.json(["goal", "calc", "--age", "65", "--weight", "70", "--activity", "moderate"],
                                       as: BreakdownJSON.self)
        #expect(breakdown.baseMl == 1750)
        #expect(breakdown.mlPerKg == 25)
        #expect(breakdown.goalMl == 2250)
    }

    // H7: the result is clamped to 1500–4500 ml, and says so.
    @Test("clamping", arguments: [
        (["--age", "30", "--weight", "30", "--activity", "sedentary"], 1500.0, 900.0, true),
        (["--age", "30", "--weight", "150", "--activity", "very-active"], 4500.0, 4500.0, true),
        (["--age", "30", "--weight", "50", "--activity", "sedentary"], 1500.0, 1500.0, false),
    ])
    func clamping(args: [String], goal: Double, base: Double, clamped: Bool) throws {
        let tally = try Sandbox()
        let breakdown = try tally.json(["goal", "calc"] + args, as: BreakdownJSON.self)
        #expect(breakdown.goalMl == goal)
        #expect(breakdown.baseMl == base)
        #expect(breakdown.clamped == clamped)
    }

    // H7, H8: a custom goal overrides; `goal show` lists it in the history from today.
    @Test func customGoalAndHistory() throws {
        let tally = try Sandbox()
        let set = try tally.json(["goal", "set", "3000"], as: GoalStatusJSON.self)
        #expect(set.mode == "custom")
        #expect(set.goalMl == 3000)
        let status = try tally.json(["goal", "show"], as: GoalStatusJSON.self)
        #expect(status.mode == "custom")
        #expect(status.goalMl == 3000)
        #expect(status.history.count == 1)
        #expect(status.history.first?.start == "2025-03-12")
        #expect(status.history.first?.end == nil)
        #expect(status.history.first?.goal.mode == "custom")
        #expect(status.history.first?.goal.targetMl == 3000)
        #expect(try tally.json(["today"], as: DayJSON.self).goalMl == 3000)
        let text = try tally.ok(["goal"]).stdout
        #expect(text.contains("Goal: 3000 ml a day (custom)."), "\(text)")
        // Out of range custom goals are refused.
        try tally.refused(["goal", "set", "0"])
        try tally.refused(["goal", "set", "abc"])
    }

    // H7: `goal auto` with a profile uses the profile's computed goal; without one, 2500 ml.
    @Test func automaticGoalFollowsTheProfile() throws {
        let tally = try Sandbox()
        try tally.ok(["goal", "set", "3000"])
        let profile = try tally.json(["profile", "set", "--age", "30", "--weight", "80", "--activity", "active"],
                                     as: GoalStatusJSON.self)
        #expect(profile.profile?.weightKg == 80)
        #expect(profile.goalMl == 3000) // a custom goal stays until switched off
        let auto = try tally.json(["goal", "auto"], as: GoalStatusJSON.self)
        #expect(auto.mode == "auto")
        #expect(auto.goalMl == 3150) // 80 × 30 + 750
        #expect(auto.breakdown?.baseMl == 2400)
        #expect(auto.breakdown?.bonusMl == 750)
        #expect(try tally.json(["today"], as: DayJSON.self).goalMl == 3150)

        // Forgetting the profile takes the automatic goal back to 2500 ml.
        let cleared = try tally.json(["profile", "clear"], as: GoalStatusJSON.self)
        #expect(cleared.profile == nil)
        #expect(cleared.goalMl == 2500)
    }

    // H7: "no goal" can be chosen and switched off again.
    @Test func noGoalAndBack() throws {
        let tally = try Sandbox()
        let none = try tally.json(["goal", "none"], as: GoalStatusJSON.self)
        #expect(none.mode == "none")
        #expect(none.goalMl == nil)
        #expect(try tally.ok(["goal"]).stdout.contains("No goal"))
        let back = try tally.json(["goal", "auto"], as: GoalStatusJSON.self)
        #expect(back.goalMl == 2500)
    }

    // H8: a change on another day ends the current goal yesterday; changing it twice on the same
    // day leaves one period starting today; each past day keeps the goal it had.
    @Test func goalHistoryPeriods() throws {
        let tally = try Sandbox(now: "2025-03-10T09:00:00Z")
        try tally.ok(["goal", "set", "3000"])
        try tally.ok(["drink", "3000"])

        tally.now = "2025-03-12T09:00:00Z"
        try tally.ok(["goal", "set", "2000"])
        let status = try tally.json(["goal", "set", "2200"], as: GoalStatusJSON.self)
        #expect(status.goalMl == 2200)
        #expect(status.history.count == 2)
        #expect(status.history.filter { $0.start == "2025-03-12" }.count == 1)
        let first = try #require(status.history.first)
        #expect(first.start == "2025-03-10")
        #expect(first.end == "2025-03-11")
        #expect(first.goal.targetMl == 3000)
        let current = try #require(status.history.last)
        #expect(current.start == "2025-03-12")
        #expect(current.end == nil)
        #expect(current.goal.targetMl == 2200)

        // A third change the same day still replaces today's goal.
        let again = try tally.json(["goal", "auto"], as: GoalStatusJSON.self)
        #expect(again.history.count == 2)
        #expect(again.history.last?.goal.mode == "auto")
        #expect(again.history.last?.start == "2025-03-12")

        // Every day is judged against the goal in force on it.
        let history = try tally.json(["history"], as: HistoryJSON.self)
        let goals = Dictionary(uniqueKeysWithValues: history.days.map { ($0.date, $0.goalMl) })
        #expect(goals["2025-03-09"] == 2500) // before any goal was set: the default
        #expect(goals["2025-03-10"] == 3000)
        #expect(goals["2025-03-11"] == 3000)
        #expect(goals["2025-03-12"] == 2500)
        #expect(history.days.first { $0.date == "2025-03-10" }?.goalMet == true)
        #expect(try tally.json(["today", "--date", "2025-03-10"], as: DayJSON.self).goalMl == 3000)
    }
}
