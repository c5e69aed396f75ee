import Foundation
import Testing
@testable import TallyCore

/// H6: drink kinds and their hydration factors; H1: effective hydration = volume × factor.
@Suite("Drink kinds (H6) and intakes (H1)")
struct DrinkKindTests {
    static let standard: [String: Double] = [
        "water": 1.0, "coffee": 0.85, "tea": 0.95, "juice": 0.9, "milk": 0.9, "soda": 0.8, "other": 0.9,
    ]

    @Test("H6: every user starts with the seven standard kinds and factors")
    func builtInKinds() {
        let kinds = DrinkFactorSet.builtInKinds()
        #expect(kinds.count == 7)
        #expect(Dictionary(uniqueKeysWithValues: kinds.map { ($0.name, $0.factor) }) == Self.standard)
        #expect(kinds.allSatisfy { $0.isBuiltIn && !$0.isRetired })
        #expect(Set(kinds.map(\.id)).count == 7, "each kind has its own id")
        #expect(kinds.contains { $0.name == DrinkKind.defaultName && $0.factor == 1.0 })
    }

    @Test("H6: the standard set is seed 002's", arguments: Array(standard))
    func standardFactor(_ pair: (key: String, value: Double)) {
        let factors = Dictionary(uniqueKeysWithValues: DrinkFactorSet.standard.factors.map { ($0.key, $0.value) })
        #expect(factors[pair.key] == pair.value)
    }

    @Test("H6: the BHI alternative rates milk and juice above water, within the allowed range")
    func bhiSet() throws {
        let factors = Dictionary(uniqueKeysWithValues: DrinkFactorSet.bhi.factors.map { ($0.key, $0.value) })
        #expect(Set(factors.keys) == Set(Self.standard.keys))
        let water = try #require(factors["water"])
        #expect(try #require(factors["milk"]) > water)
        #expect(try #require(factors["juice"]) > water)
        for set in DrinkFactorSet.allCases {
            for (name, factor) in set.factors {
                #expect(DrinkKind.factorRange.contains(factor), "\(set) \(name)")
            }
        }
    }

    @Test("H6: the UI text says factors are conventions, not medical advice, and cites the BHI")
    func disclaimer() {
        #expect(DrinkFactorSet.disclaimer.description.contains("not medical advice"))
        #expect(DrinkFactorSet.disclaimer.description.contains("Maughan"))
    }

    @Test("H6: a user's factor must be between 0 and 1.5",
          arguments: [-0.01, -1, 1.5001, 2, 100, Double.nan, .infinity, -.infinity])
    func refusesFactorsOutOfRange(_ factor: Double) throws {
        let error = try #require(throws: TallyError.self) { try DrinkKind.validate(name: "kombucha", factor: factor) }
        #expect(error.kind == .invalidInput)
        #expect(error.message.contains("between 0 and 1.5"))
    }

    @Test("H6: factors at and inside the range are accepted", arguments: [0.0, 0.5, 0.85, 1.0, 1.39, 1.5])
    func acceptsFactorsInRange(_ factor: Double) throws {
        #expect(try DrinkKind.validate(name: "kombucha", factor: factor) == "kombucha")
    }

    @Test("H6: a kind's name is trimmed, must not be empty and is at most 40 characters")
    func names() throws {
        #expect(try DrinkKind.validate(name: "  iced tea \n", factor: 0.95) == "iced tea")
        #expect(throws: TallyError.self) { try DrinkKind.validate(name: "   ", factor: 1) }
        #expect(throws: TallyError.self) { try DrinkKind.validate(name: "", factor: 1) }
        #expect(try DrinkKind.validate(name: String(repeating: "a", count: 40), factor: 1).count == 40)
        let long = try #require(throws: TallyError.self) {
            try DrinkKind.validate(name: String(repeating: "a", count: 41), factor: 1)
        }
        #expect(long.message.contains("40"))
    }

    @Test("H1: effective hydration = volume × factor (200 ml coffee → 170 ml)",
          arguments: [("water", 250.0, 250.0), ("coffee", 200, 170), ("tea", 300, 285), ("juice", 200, 180),
                      ("milk", 250, 225), ("soda", 330, 264), ("other", 100, 90)])
    func effectiveHydration(_ name: String, _ volume: Double, _ effective: Double) throws {
        let kind = try #require(DrinkFactorSet.builtInKinds().first { $0.name == name })
        let entry = Intake(id: UUID(), at: utc("2025-06-10T10:00:00Z"), day: day("2025-06-10"),
                           volumeMl: volume, kind: kind, note: nil, source: .manual)
        #expect(isClose(entry.effectiveMl, effective))
        #expect(entry.volumeMl == volume)
        #expect(entry.kindID == kind.id)
        #expect(entry.kindName == name)
        #expect(entry.factor == kind.factor)
    }

    @Test("H1: editing a kind's factor later never rewrites a logged drink")
    func factorFixedAtLogging() {
        var kind = DrinkKind(name: "coffee", factor: 0.85)
        let logged = Intake(id: UUID(), at: utc("2025-06-10T10:00:00Z"), day: day("2025-06-10"),
                            volumeMl: 200, kind: kind, note: nil, source: .manual)
        kind.factor = 1.0
        #expect(isClose(logged.effectiveMl, 170))
        #expect(logged.factor == 0.85)
    }

    @Test("H1: notes are trimmed, empty notes are none, and at most 500 characters")
    func notes() throws {
        #expect(try Intake.validate(note: nil) == nil)
        #expect(try Intake.validate(note: "   ") == nil)
        #expect(try Intake.validate(note: " after the run ") == "after the run")
        #expect(try Intake.validate(note: String(repeating: "x", count: 500))?.count == 500)
        let error = try #require(throws: TallyError.self) { try Intake.validate(note: String(repeating: "x", count: 501)) }
        #expect(error.message.contains("500"))
    }

    @Test("H1: intake sources")
    func sources() {
        #expect(Set(IntakeSource.allCases.map(\.rawValue)) == ["manual", "bottle", "import"])
    }
}
