import Foundation
import TallyAPI
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// The text the commands print, in the terminal's language. Volumes are rounded here, and only
/// here, to whole units.
enum TextRendering {
    // MARK: - A day

    /// A day; `isToday` picks what an empty day says.
    static func day(_ day: DaySummary, _ context: CommandContext, isToday: Bool) -> String {
        let unit = context.unit
        var lines = [weekdayTitle(day.date), ""]
        lines.append("  " + bigTotal(day, unit))
        if let percent = day.percent {
            lines.append("  " + progressBar(percent) + "  " + percentText(percent) + (day.goalMet ? "  " + t("goal met") : ""))
        }
        lines.append("")
        if day.entries.isEmpty {
            lines.append("  " + (isToday ? t("No drinks yet today.") : t("No drinks on this day.")))
        } else {
            for entry in day.entries {
                lines.append("  " + entryLine(entry, unit, context.settings.zone))
            }
        }
        return lines.joined(separator: "\n")
    }

    static func bigTotal(_ day: DaySummary, _ unit: VolumeUnit) -> String {
        let total = volume(day.totalMl, unit)
        guard let goal = day.goalMl.map({ volume($0, unit) }) else { return t("\(total) (no goal)") }
        // The catalog's "{0} of {1}" is a drink ("250 ml of coffee"): the total against the goal
        // is a phrase of its own, which English writes as it always has.
        return Said.inEnglish ? "\(total) of \(goal)" : t("\(total) of a daily goal of \(goal)")
    }

    /// One line after a change: the day's total against its goal.
    static func totalLine(_ day: DayProgress, _ unit: VolumeUnit) -> String {
        let label = Said.day(day.date)
        guard let percent = day.percent, let goal = day.goalMl else { return "\(label): \(volume(day.totalMl, unit))" }
        return t("\(label): \(volume(day.totalMl, unit)) of \(volume(goal, unit)) (\(percentText(percent)))")
    }

    /// What `drink` and `remove` say: the new entry (or the one a repeated id names) and its day.
    static func added(_ result: EntryResult, _ unit: VolumeUnit) -> String {
        said(result, unit) + "\n" + totalLine(result.day, unit)
    }

    /// "Logged 250 ml of water.", "Already removed 100 ml.".
    private static func said(_ result: EntryResult, _ unit: VolumeUnit) -> String {
        switch result.entry {
        case .intake(let intake):
            let amount = volume(intake.volumeMl, unit)
            guard intake.kindName != DrinkKind.defaultName else {
                return result.created ? t("Logged \(amount) of water.") : t("Already logged \(amount) of water.")
            }
            let counted = volume(intake.effectiveMl, unit)
            return result.created ? t("Logged \(amount) of \(intake.kindName) (\(counted) of hydration).")
                : t("Already logged \(amount) of \(intake.kindName) (\(counted) of hydration).")
        case .removal(let removal):
            let amount = volume(removal.volumeMl, unit)
            return result.created ? t("Removed \(amount).") : t("Already removed \(amount).")
        }
    }

    /// "250 ml of coffee", "the removal of 100 ml": inside a sentence.
    static func describe(_ entry: DayEntry, _ unit: VolumeUnit) -> Phrase {
        switch entry {
        case .intake(let intake): Phrase("\(volume(intake.volumeMl, unit)) of \(intake.kindName)")
        case .removal(let removal): Phrase("the removal of \(volume(removal.volumeMl, unit))")
        }
    }

    private static func entryLine(_ entry: DayEntry, _ unit: VolumeUnit, _ zone: TimeZone) -> String {
        let shortID = String(entry.id.uuidString.prefix(8)).lowercased()
        let when = pad(Said.time(TimeOfDay(of: entry.at, in: zone)), 5)
        switch entry {
        case .intake(let intake):
            let what = pad("\(volume(intake.volumeMl, unit)) \(intake.kindName)", 24)
            let note = intake.note.map { "  \($0)" } ?? ""
            return "\(when)  \(what) \(padLeft("+" + volume(intake.effectiveMl, unit), 9))  \(shortID)\(note)"
        case .removal(let removal):
            let what = pad(t("removed"), 24)
            return "\(when)  \(what) \(padLeft("−" + volume(removal.volumeMl, unit), 9))  \(shortID)"
        }
    }

    // MARK: - History

    static func history(_ history: HydrationHistory, _ unit: VolumeUnit) -> String {
        let count = history.days.count
        var lines = [t(one: "Last \(count) day", other: "Last \(count) days")]
        let weekdayWidth = history.days.map { shortWeekday($0.date).count }.max() ?? 3
        let widest = max(history.days.compactMap { $0.goalMl }.max() ?? 0, history.days.map(\.totalMl).max() ?? 0, 1)
        for day in history.days {
            let barLength = Int((day.totalMl / widest * 24).rounded())
            let bar = pad(String(repeating: "█", count: max(0, barLength)), 24)
            let percent = day.percent.map { "  " + percentText($0) } ?? ""
            lines.append("  \(shortDay(day.date, weekdayWidth))  \(bar) \(padLeft(volume(day.totalMl, unit), 8))\(percent)\(day.goalMet ? " ✓" : "")")
        }
        lines.append("")
        lines.append(contentsOf: calendar(history.calendar))
        lines.append("")
        lines.append(t("Current streak: \(days(history.streaks.current)) · Longest: \(days(history.streaks.longest))"))
        return lines.joined(separator: "\n")
    }

    private static func calendar(_ calendar: MonthCalendar) -> [String] {
        var lines = [monthTitle(calendar.month), weekdayHeadings()]
        var cells = Array(repeating: "    ", count: calendar.firstWeekday - 1)
        for day in calendar.days {
            let mark = day.isFuture ? " " : day.progress.goalMet ? "✓" : "·"
            cells.append(padLeft("\(day.progress.date.day)", 3) + mark)
        }
        for week in stride(from: 0, to: cells.count, by: 7) {
            lines.append(cells[week..<min(week + 7, cells.count)].joined().trimmingTrailingSpaces())
        }
        lines.append(t("✓ goal met · not met  (previous: \(calendar.previous), next: \(calendar.next))"))
        return lines
    }

    // MARK: - Goal and profile

    static func goal(_ status: GoalStatus, _ unit: VolumeUnit) -> String {
        var lines: [String] = []
        switch status.mode {
        case .none: lines.append(t("No goal: only your totals are shown."))
        case .custom: lines.append(t("Goal: \(volume(status.goalMl ?? 0, unit)) a day (custom)."))
        case .automatic:
            let goal = volume(status.goalMl ?? 0, unit)
            lines.append(status.profile == nil ? t("Goal: \(goal) a day (automatic; the default without a profile).")
                         : t("Goal: \(goal) a day (automatic, from your profile)."))
        }
        if let breakdown = status.breakdown, status.mode == .automatic {
            lines.append(Self.breakdown(breakdown, unit))
        }
        if !status.history.isEmpty {
            lines.append(t("History:"))
            for period in status.history.reversed() {
                let amount = period.goal.targetMl.map { volume($0, unit) } ?? t("no goal")
                let (start, mode) = (Said.day(period.start), modeName(period.goal.mode))
                lines.append("  " + (period.end.map { t("\(start) to \(Said.day($0)): \(amount) (\(mode))") }
                                     ?? t("\(start) on: \(amount) (\(mode))")))
            }
        }
        return lines.joined(separator: "\n")
    }

    static func breakdown(_ breakdown: GoalBreakdown, _ unit: VolumeUnit) -> String {
        let labels = (base: t("base"), activity: t("activity"), goal: t("goal"))
        let width = max(9, [labels.base, labels.activity, labels.goal].map(\.count).max() ?? 0)
        func label(_ text: String) -> String { "  " + pad(text, width) + " " }
        var lines = [
            label(labels.base) + padLeft(volume(breakdown.baseMl, unit), 9) + "  " + t("(\(Int(breakdown.mlPerKg)) ml per kg)"),
            label(labels.activity) + padLeft("+" + volume(breakdown.bonusMl, unit), 9),
            label(labels.goal) + padLeft(volume(breakdown.goalMl, unit), 9),
        ]
        if breakdown.clamped {
            let (lowest, highest) = (volume(GoalCalculator.range.lowerBound, unit), volume(GoalCalculator.range.upperBound, unit))
            lines.append("  " + t("(kept within \(lowest)–\(highest))"))
        }
        return lines.joined(separator: "\n")
    }

    static func profile(_ status: GoalStatus, _ unit: VolumeUnit) -> String {
        guard let profile = status.profile else {
            return t("No profile. Set one with `tally profile set --age A --weight KG --activity LEVEL`.") + "\n" + goal(status, unit)
        }
        let weight = !Said.inEnglish ? Written.current.decimal(profile.weightKg)
            : profile.weightKg.rounded() == profile.weightKg ? "\(Int(profile.weightKg))" : "\(profile.weightKg)"
        // The activity as it is typed (--activity).
        return t("Age \(profile.age), \(weight) kg, \(profile.activity.rawValue).") + "\n" + goal(status, unit)
    }

    // MARK: - Settings

    static func kinds(_ kinds: [DrinkKind]) -> String {
        let lines = kinds.map { kind in
            "  \(pad(kind.name, 16)) \(padLeft(String(format: "%.2f", kind.factor), 5))"
                + (kind.isBuiltIn ? "" : "  " + t("(yours)")) + (kind.isRetired ? "  " + t("retired") : "")
        }
        let disclaimer = Written.current.say(DrinkFactorSet.disclaimer)
        return ([t("Drink kinds and their hydration factors:")] + lines + ["", disclaimer])
            .joined(separator: "\n")
    }

    static func presets(_ presets: Presets, _ unit: VolumeUnit) -> String {
        t("Presets: \(presets.amountsMl.map { volume($0, unit) }.joined(separator: ", "))")
    }

    static func settings(_ settings: HydrationSettings) -> String {
        [t("Unit: \(settings.unit.rawValue)"), t("Time zone: \(settings.timeZone)"), presets(settings.presets, settings.unit)]
            .joined(separator: "\n")
    }

    // MARK: - Reminders

    static func reminders(_ view: RemindersView, _ zone: TimeZone) -> String {
        let settings = view.settings
        func hours(_ window: WakeWindow) -> String { "\(Said.time(window.wake))–\(Said.time(window.sleep))" }
        var lines: [String] = []
        if !settings.enabled {
            lines.append(t("Reminders are off."))
        } else if let threshold = settings.smartThresholdHours {
            lines.append(t(one: "Reminders are on and smart: one after \(threshold) hour without a drink, inside the waking hours, until the day's goal is met.",
                           other: "Reminders are on and smart: one after \(threshold) hours without a drink, inside the waking hours, until the day's goal is met."))
        } else {
            lines.append(t("Reminders are on: \(settings.frequency) a day at fixed times."))
        }
        lines.append(t("Waking hours set by hand: \(hours(settings.window))."))
        switch (settings.useSleepRecords, view.sleepRecordWindow) {
        case (true, let window?): lines.append(t("Sleep records: followed; theirs are \(hours(window))."))
        case (true, nil): lines.append(t("Sleep records: followed, but there are none from the last 7 days."))
        case (false, let window?): lines.append(t("Sleep records: not followed (theirs are \(hours(window)))."))
        case (false, nil): lines.append(t("Sleep records: not followed."))
        }
        lines.append(t("Reminders follow: \(hours(view.followedWindow))."))
        if settings.enabled && settings.smartThresholdHours == nil {
            let times = view.upcoming.map { Said.time(TimeOfDay(of: $0, in: zone)) }
            lines.append(times.isEmpty ? t("No more reminders in today's window.") : t("Next: \(times.joined(separator: ", "))."))
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - Helpers

    static func percentText(_ percent: Double) -> String { "\(Int(percent.rounded())) %" }

    static func progressBar(_ percent: Double, width: Int = 20) -> String {
        let filled = min(width, Int((percent / 100 * Double(width)).rounded()))
        return "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + "]"
    }

    /// A volume in whole units, in the terminal's locale.
    static func volume(_ ml: Double, _ unit: VolumeUnit) -> String { Said.volume(ml, unit) }

    private static func days(_ count: Int) -> String { t(one: "\(count) day", other: "\(count) days") }

    /// "Monday 24 November 2025" in English; elsewhere the weekday and the locale's long date.
    private static func weekdayTitle(_ date: LocalDate) -> String {
        guard !Said.inEnglish else { return "\(date.weekdayName) \(date.day) \(date.yearMonth.monthName) \(date.year)" }
        return "\(Written.current.say(date.weekdayPhrase)), \(Written.current.longDay(date))"
    }

    /// "Mon", "Mo.": a bar's weekday.
    private static func shortWeekday(_ date: LocalDate) -> String {
        Said.inEnglish ? date.shortWeekdayName : Written.current.weekday(date)
    }

    private static func shortDay(_ date: LocalDate, _ weekdayWidth: Int) -> String {
        "\(pad(shortWeekday(date), weekdayWidth)) \(padLeft(Said.inEnglish ? "\(date.day)" : Written.current.decimal(Double(date.day)), 2))"
    }

    /// The calendar's heading, Monday first: " Mo  Tu  We  Th  Fr  Sa  Su" in English.
    private static func weekdayHeadings() -> String {
        guard !Said.inEnglish else { return " Mo  Tu  We  Th  Fr  Sa  Su" }
        // 1 January 2024 was a Monday.
        return (1...7).compactMap { LocalDate(year: 2024, month: 1, day: $0) }
            .map { padLeft(Written.current.weekdayHeading($0), 3) }.joined(separator: " ")
    }

    private static func monthTitle(_ month: YearMonth) -> String {
        Said.inEnglish ? "\(month.monthName) \(month.year)" : Written.current.month(month)
    }

    /// How a goal was chosen, as the history shows it.
    private static func modeName(_ mode: Goal.Mode) -> String {
        switch mode {
        case .automatic: t("auto")
        case .custom: t("custom")
        case .none: t("none")
        }
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
