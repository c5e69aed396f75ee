import Foundation
import Testing

/// `tally kinds`: drink kinds and their hydration factors (H1, H6).
@Suite("tally kinds")
struct KindsCommandTests {
    // H6: the default kinds and factors.
    @Test func defaultKinds() throws {
        let tally = try Sandbox()
        let kinds = try tally.json(["kinds"], as: [KindJSON].self)
        let factors = Dictionary(uniqueKeysWithValues: kinds.map { ($0.name, $0.factor) })
        #expect(factors == ["water": 1.0, "coffee": 0.85, "tea": 0.95, "juice": 0.9, "milk": 0.9,
                            "soda": 0.8, "other": 0.9])
        #expect(kinds.allSatisfy { $0.isBuiltIn && !$0.isRetired })
        // The factors are conventions, not medical advice: the list says so.
        #expect(try tally.ok(["kinds"]).stdout.lowercased().contains("medical"))
    }

    // H6: users add, rename and retire their own kinds; a retired kind takes no new drinks but
    // past drinks keep it.
    @Test func addRenameRetire() throws {
        let tally = try Sandbox()
        let added = try tally.json(["kinds", "add", "kombucha", "--factor", "0.9"], as: KindJSON.self)
        #expect(added.name == "kombucha")
        #expect(added.factor == 0.9)
        #expect(added.isBuiltIn == false)
        let drink = try tally.json(["drink", "200", "--kind", "kombucha"], as: EntryResultJSON.self)
        #expect(approx(drink.entry.effectiveMl, 180))

        let renamed = try tally.json(["kinds", "rename", "kombucha", "booch"], as: KindJSON.self)
        #expect(renamed.id == added.id)
        #expect(renamed.name == "booch")
        try tally.refused(["drink", "100", "--kind", "kombucha"], exit: 2)
        try tally.ok(["drink", "100", "--kind", "booch"])

        let retired = try tally.json(["kinds", "retire", "booch"], as: KindJSON.self)
        #expect(retired.isRetired)
        let message = try tally.refused(["drink", "100", "--kind", "booch"], exit: 2)
        #expect(message.contains("booch"))
        #expect(!(try tally.json(["kinds"], as: [KindJSON].self)).contains { $0.name == "booch" })
        #expect(try tally.json(["kinds", "--all"], as: [KindJSON].self).contains { $0.name == "booch" && $0.isRetired })

        // Past drinks keep their kind and hydration.
        let day = try tally.json(["today"], as: DayJSON.self)
        #expect(day.entries.count == 2)
        #expect(approx(day.totalMl, 270))

        // Its name is free again for a new kind.
        try tally.ok(["kinds", "add", "booch", "--factor", "1"])
    }

    // H6: built-in kinds cannot be renamed or retired; names are unique; factors are 0–1.5.
    @Test func refusedKindChanges() throws {
        let tally = try Sandbox()
        #expect(try tally.refused(["kinds", "rename", "water", "aqua"]).contains("built-in"))
        #expect(try tally.refused(["kinds", "retire", "coffee"]).contains("built-in"))
        try tally.refused(["kinds", "add", "Water"], exit: 3)
        #expect(try tally.refused(["kinds", "add", "fizz", "--factor", "1.6"]).contains("1.5"))
        try tally.refused(["kinds", "add", "fizz", "--factor=-0.1"])
        try tally.refused(["kinds", "add", "fizz", "--factor", "lots"])
        try tally.ok(["kinds", "add", "fizz", "--factor", "1.5"])
        try tally.refused(["kinds", "rename", "fizz", "coffee"], exit: 3)
        try tally.refused(["kinds", "rename", "nothing", "something"], exit: 2)
        try tally.refused(["kinds", "factors", "medical"])
    }

    // H1, H6: the BHI preset gives milk 1.5, for new drinks only: an earlier milk drink keeps its
    // effective hydration.
    @Test func beverageHydrationIndex() throws {
        let tally = try Sandbox()
        let before = try tally.json(["drink", "200", "--kind", "milk", "--at", "09:00"], as: EntryResultJSON.self)
        #expect(approx(before.entry.effectiveMl, 180))

        let kinds = try tally.json(["kinds", "factors", "bhi"], as: [KindJSON].self)
        #expect(kinds.first { $0.name == "milk" }?.factor == 1.5)
        #expect(kinds.first { $0.name == "water" }?.factor == 1.0)

        let after = try tally.json(["drink", "200", "--kind", "milk"], as: EntryResultJSON.self)
        #expect(approx(after.entry.effectiveMl, 300))
        let day = try tally.json(["today"], as: DayJSON.self)
        #expect(approx(day.entries.first { $0.id == before.entry.id }?.effectiveMl, 180))
        #expect(approx(day.entries.first { $0.id == before.entry.id }?.factor, 0.9))
        #expect(approx(day.totalMl, 480))

        // Back to the standard factors: again only new drinks change.
        let standard = try tally.json(["kinds", "factors", "standard"], as: [KindJSON].self)
        #expect(standard.first { $0.name == "milk" }?.factor == 0.9)
        #expect(approx(try tally.json(["today"], as: DayJSON.self).totalMl, 480))
    }

    // H1, H6: a single kind's factor applies to new drinks only.
    @Test func singleFactor() throws {
        let tally = try Sandbox()
        try tally.ok(["drink", "100", "--kind", "tea", "--at", "09:00"])
        #expect(try tally.json(["kinds", "factor", "tea", "0.5"], as: KindJSON.self).factor == 0.5)
        try tally.ok(["drink", "100", "--kind", "tea"])
        #expect(approx(try tally.json(["today"], as: DayJSON.self).totalMl, 95 + 50))
        try tally.refused(["kinds", "factor", "tea", "2"])
    }
}
