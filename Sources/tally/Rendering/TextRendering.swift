import Foundation
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// The text the commands print. Volumes are rounded here, and only here, to whole units.
enum TextRendering {
    // MARK: - A day

    /// A day; `isToday` picks what an empty day says.
    static func day(_ day: DaySummary, _ context: CommandContext, isToday: Bool) -> String {
        let unit = context.unit
        var lines = [weekdayTitle(day.date), ""]
        lines.append("  " + bigTotal(day, unit))
        if let percent = day.percent {
            lines.append("  " + progressBar(percent) + "  " + percentText(percent) + (day.goalMet ? "  goal met" : ""))
        }
        lines.append("")
        if day.entries.isEmpty {
            lines.append("  " + DaySummary.emptyMessage(isToday: isToday))
        } else {
            for entry in day.entries {
                lines.append("  " + entryLine(entry, unit, context.settings.zone))
            }
        }
        return lines.joined(separator: "\n")
    }

    static func bigTotal(_ day: DaySummary, _ unit: VolumeUnit) -> String {
        guard let goal = day.goalMl else { return "\(unit.format(day.totalMl)) (no goal)" }
        return "\(unit.format(day.totalMl)) of \(unit.format(goal))"
    }

    /// One line after a change: the day's total against its goal.
    static func totalLine(_ day: DayProgress, _ unit: VolumeUnit) -> String {
        let label = "\(day.date)"
        guard let percent = day.percent, let goal = day.goalMl else { return "\(label): \(unit.format(day.totalMl))" }
        return "\(label): \(unit.format(day.totalMl)) of \(unit.format(goal)) (\(percentText(percent)))"
    }

    /// What `drink` and `remove` say: the new entry (or the one a repeated id names) and its day.
    static func added(_ result: EntryResult, _ unit: VolumeUnit) -> String {
        let line = switch result.entry {
        case .intake(let intake):
            "\(result.created ? "Logged" : "Already logged") \(unit.format(intake.volumeMl)) of "
                + (intake.kindName == DrinkKind.defaultName ? "water"
                   : "\(intake.kindName) (\(unit.format(intake.effectiveMl)) of hydration)")
        case .removal(let removal):
            "\(result.created ? "Removed" : "Already removed") \(unit.format(removal.volumeMl))"
        }
        return line + ".\n" + totalLine(result.day, unit)
    }

    static func describe(_ entry: DayEntry, _ unit: VolumeUnit) -> String {
        switch entry {
        case .intake(let intake): "\(unit.format(intake.volumeMl)) of \(intake.kindName)"
        case .removal(let removal): "the removal of \(unit.format(removal.volumeMl))"
        }
    }

    private static func entryLine(_ entry: DayEntry, _ unit: VolumeUnit, _ zone: TimeZone) -> String {
        let shortID = String(entry.id.uuidString.prefix(8)).lowercased()
        let when = TimeOfDay(of: entry.at, in: zone).description
        switch entry {
        case .intake(let intake):
            let what = pad("\(unit.format(intake.volumeMl)) \(intake.kindName)", 24)
            let note = intake.note.map { "  \($0)" } ?? ""
            return "\(when)  \(what) \(padLeft("+" + unit.format(intake.effectiveMl), 9))  \(shortID)\(note)"
        case .removal(let removal):
            let what = pad("removed", 24)
            return "\(when)  \(what) \(padLeft("−" + unit.format(removal.volumeMl), 9))  \(shortID)"
        }
    }

    // MARK: - History

    static func history(_ history: HydrationHistory, _ unit: VolumeUnit) -> String {
        var lines = ["Last \(history.days.count) days"]
        let widest = max(history.days.compactMap { $0.goalMl }.max() ?? 0, history.days.map(\.totalMl).max() ?? 0, 1)
        for day in history.days {
            let barLength = Int((day.totalMl / widest * 24).rounded())
            let bar = pad(String(repeating: "█", count: max(0, barLength)), 24)
            let percent = day.percent.map { "  " + percentText($0) } ?? ""
            lines.append("  \(shortDay(day.date))  \(bar) \(padLeft(unit.format(day.totalMl), 8))\(percent)\(day.goalMet ? " ✓" : "")")
        }
        lines.append("")
        lines.append(contentsOf: calendar(history.calendar))
        lines.append("")
        lines.append("Current streak: \(days(history.streaks.current)) · Longest: \(days(history.streaks.longest))")
        return lines.joined(separator: "\n")
    }

    private static func calendar(_ calendar: MonthCalendar) -> [String] {
        var lines = [monthTitle(calendar.month), " Mo  Tu  We  Th  Fr  Sa  Su"]
        var cells = Array(repeating: "    ", count: calendar.firstWeekday - 1)
        for day in calendar.days {
            let mark = day.isFuture ? " " : day.progress.goalMet ? "✓" : "·"
            cells.append(padLeft("\(day.progress.date.day)", 3) + mark)
        }
        for week in stride(from: 0, to: cells.count, by: 7) {
            lines.append(cells[week..<min(week + 7, cells.count)].joined().trimmingTrailingSpaces())
        }
        lines.append("✓ goal met · not met  (previous: \(calendar.previous), next: \(calendar.next))")
        return lines
    }

    // MARK: - Goal and profile

    static func goal(_ status: GoalStatus, _ unit: VolumeUnit) -> String {
        var lines: [String] = []
        switch status.mode {
        case .none: lines.append("No goal: only your totals are shown.")
        case .custom: lines.append("Goal: \(unit.format(status.goalMl ?? 0)) a day (custom).")
        case .automatic:
            lines.append("Goal: \(unit.format(status.goalMl ?? 0)) a day (automatic"
                         + (status.profile == nil ? "; the default without a profile)." : ", from your profile)."))
        }
        if let breakdown = status.breakdown, status.mode == .automatic {
            lines.append(Self.breakdown(breakdown, unit))
        }
        if !status.history.isEmpty {
            lines.append("History:")
            for period in status.history.reversed() {
                let until = period.end.map { "to \($0)" } ?? "on"
                let amount = period.goal.targetMl.map(unit.format) ?? "no goal"
                lines.append("  \(period.start) \(until): \(amount) (\(period.goal.mode.rawValue))")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func breakdown(_ breakdown: GoalBreakdown, _ unit: VolumeUnit) -> String {
        var lines = [
            "  base      \(padLeft(unit.format(breakdown.baseMl), 9))  (\(Int(breakdown.mlPerKg)) ml per kg)",
            "  activity  \(padLeft("+" + unit.format(breakdown.bonusMl), 9))",
            "  goal      \(padLeft(unit.format(breakdown.goalMl), 9))",
        ]
        if breakdown.clamped {
            lines.append("  (kept within \(unit.format(GoalCalculator.range.lowerBound))–\(unit.format(GoalCalculator.range.upperBound)))")
        }
        return lines.joined(separator: "\n")
    }

    static func profile(_ status: GoalStatus, _ unit: VolumeUnit) -> String {
        guard let profile = status.profile else {
            return "No profile. Set one with `tally profile set --age A --weight KG --activity LEVEL`.\n" + goal(status, unit)
        }
        let weight = profile.weightKg.rounded() == profile.weightKg ? "\(Int(profile.weightKg))" : "\(profile.weightKg)"
        return "Age \(profile.age), \(weight) kg, \(profile.activity.rawValue).\n" + goal(status, unit)
    }

    // MARK: - Settings

    static func kinds(_ kinds: [DrinkKind]) -> String {
        let lines = kinds.map { kind in
            "  \(pad(kind.name, 16)) \(padLeft(String(format: "%.2f", kind.factor), 5))"
                + (kind.isBuiltIn ? "" : "  (yours)") + (kind.isRetired ? "  retired" : "")
        }
        return (["Drink kinds and their hydration factors:"] + lines + ["", DrinkFactorSet.disclaimer])
            .joined(separator: "\n")
    }

    static func presets(_ presets: Presets, _ unit: VolumeUnit) -> String {
        "Presets: " + presets.amountsMl.map(unit.format).joined(separator: ", ")
    }

    static func settings(_ settings: HydrationSettings) -> String {
        """
        Unit: \(settings.unit.rawValue)
        Time zone: \(settings.timeZone)
        \(presets(settings.presets, settings.unit))
        """
    }

    // MARK: - Reminders

    static func reminders(_ view: RemindersView, _ zone: TimeZone) -> String {
        let settings = view.settings
        func hours(_ window: WakeWindow) -> String { "\(window.wake)–\(window.sleep)" }
        var lines: [String] = []
        if !settings.enabled {
            lines.append("Reminders are off.")
        } else if let threshold = settings.smartThresholdHours {
            lines.append("Reminders are on and smart: one after \(threshold == 1 ? "1 hour" : "\(threshold) hours") "
                         + "without a drink, inside the waking hours, until the day's goal is met.")
        } else {
            lines.append("Reminders are on: \(settings.frequency) a day at fixed times.")
        }
        lines.append("Waking hours set by hand: \(hours(settings.window)).")
        switch (settings.useSleepRecords, view.sleepRecordWindow) {
        case (true, let window?): lines.append("Sleep records: followed; theirs are \(hours(window)).")
        case (true, nil): lines.append("Sleep records: followed, but there are none from the last 7 days.")
        case (false, let window?): lines.append("Sleep records: not followed (theirs are \(hours(window))).")
        case (false, nil): lines.append("Sleep records: not followed.")
        }
        lines.append("Reminders follow: \(hours(view.followedWindow)).")
        if settings.enabled && settings.smartThresholdHours == nil {
            let times = view.upcoming.map { TimeOfDay(of: $0, in: zone).description }
            lines.append(times.isEmpty ? "No more reminders in today's window." : "Next: \(times.joined(separator: ", ")).")
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - Helpers

    static func percentText(_ percent: Double) -> String { "\(Int(percent.rounded())) %" }

    static func progressBar(_ percent: Double, width: Int = 20) -> String {
        let filled = min(width, Int((percent / 100 * Double(width)).rounded()))
        return "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + "]"
    }

    private static func days(_ count: Int) -> String { count == 1 ? "1 day" : "\(count) days" }

    private static func weekdayTitle(_ date: LocalDate) -> String {
        "\(date.weekdayName) \(date.day) \(date.yearMonth.monthName) \(date.year)"
    }

    private static func shortDay(_ date: LocalDate) -> String {
        "\(date.shortWeekdayName) \(padLeft("\(date.day)", 2))"
    }

    private static func monthTitle(_ month: YearMonth) -> String {
        "\(month.monthName) \(month.year)"
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func padLeft(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
