import Foundation

/// The rules about a day's total (H2, H3): the sum of its entries, which never goes below zero.
public enum DailyTotal {
    /// The total of `entries`: effective hydration of drinks minus removals.
    public static func sum(_ entries: [DayEntry]) -> Double {
        entries.reduce(0) { $0 + $1.contributionMl }
    }

    /// Totals within this much of zero count as zero: sums of oz-sized amounts leave float dust.
    static let tolerance = 1e-6

    /// Checks a day's total after a file's entries came in at once (an import): a day whose
    /// removals take more than its drinks is refused, saying by how much; `lines` says where the
    /// removals are in the file ("lines 4, 5").
    public static func checkImported(_ dayTotal: Double, on day: LocalDate, unit: VolumeUnit, lines: Phrase? = nil) throws {
        guard dayTotal < -tolerance else { return }
        let removals = lines.map { Phrase("The removals on \(day) (\($0))") } ?? Phrase("The removals on \(day)")
        throw TallyError.invalid("\(removals) take \(unit.format(-dayTotal)) more than the day's drinks; a day's total never goes below zero.")
    }

    /// Checks a removal of `volumeMl` from a day whose total is `dayTotal` (H3); the error names
    /// the most that can be removed.
    public static func checkRemoval(_ volumeMl: Double, from dayTotal: Double, unit: VolumeUnit) throws {
        guard dayTotal - volumeMl < -tolerance else { return }
        throw TallyError.conflict(
            "Cannot remove \(unit.format(volumeMl)): the day's total is \(unit.format(dayTotal)), so at most \(unit.formatDown(dayTotal)) can be removed.")
    }

    /// Checks that taking `lostMl` of drinks off a day (deleting or shrinking a drink, or moving it
    /// to another day) leaves its total, removals included, at or above zero.
    public static func checkDrinkChange(losing lostMl: Double, from dayTotal: Double, unit: VolumeUnit) throws {
        guard dayTotal - lostMl < -tolerance else { return }
        throw TallyError.conflict(
            "That change would take the day's total below zero, because water was removed from it; the day has \(unit.format(dayTotal)), and this drink counts \(unit.format(lostMl)). Delete a removal on that day first.")
    }
}

extension VolumeUnit {
    /// Like `format`, but rounding down, for limits: "at most 249 ml" must be true.
    func formatDown(_ ml: Double) -> String {
        "\(Int((fromMilliliters(max(0, ml)) + DailyTotal.tolerance).rounded(.down))) \(rawValue)"
    }
}
