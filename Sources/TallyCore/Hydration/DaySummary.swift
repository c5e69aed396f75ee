import Foundation

/// Everything the today screen shows for one day (H2, H9, H12).
public struct DaySummary: Codable, Equatable, Sendable {
    public var date: LocalDate
    public var totalMl: Double
    /// nil when the person chose no goal: then only the total is shown.
    @ExplicitNull public var goalMl: Double?
    public var goalMode: Goal.Mode
    /// Not capped: 200 % is 200.
    @ExplicitNull public var percent: Double?
    public var goalMet: Bool
    public var unit: VolumeUnit
    /// The day's drinks and removals, oldest first. Empty on a day with nothing logged.
    public var entries: [DayEntry]

    public init(date: LocalDate, entries: [DayEntry], goal: Goal, unit: VolumeUnit) {
        let progress = DayProgress(date: date, totalMl: DailyTotal.sum(entries), goal: goal)
        self.date = date
        self.totalMl = progress.totalMl
        self.goalMl = progress.goalMl
        self.goalMode = goal.mode
        self.percent = progress.percent
        self.goalMet = progress.goalMet
        self.unit = unit
        self.entries = entries.sorted(by: DayEntry.happenedBefore)
    }

    /// What an empty day says (H12).
    public static func emptyMessage(isToday: Bool) -> String {
        isToday ? "No drinks yet today." : "No drinks on this day."
    }
}

extension DayEntry: Codable {
    private enum Keys: String, CodingKey {
        case type, id, at, day, volumeMl, effectiveMl, kind, kindID, factor, note, source
    }

    private enum EntryType: String, Codable { case intake, removal }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        switch self {
        case .intake(let intake):
            try c.encode(EntryType.intake, forKey: .type)
            try c.encode(intake.id, forKey: .id)
            try c.encode(intake.at, forKey: .at)
            try c.encode(intake.day, forKey: .day)
            try c.encode(intake.volumeMl, forKey: .volumeMl)
            try c.encode(intake.effectiveMl, forKey: .effectiveMl)
            try c.encode(intake.kindName, forKey: .kind)
            try c.encode(intake.kindID, forKey: .kindID)
            try c.encode(intake.factor, forKey: .factor)
            try c.encodeIfPresent(intake.note, forKey: .note)
            try c.encode(intake.source, forKey: .source)
        case .removal(let removal):
            try c.encode(EntryType.removal, forKey: .type)
            try c.encode(removal.id, forKey: .id)
            try c.encode(removal.at, forKey: .at)
            try c.encode(removal.day, forKey: .day)
            try c.encode(removal.volumeMl, forKey: .volumeMl)
            try c.encode(-removal.volumeMl, forKey: .effectiveMl)
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let id = try c.decode(UUID.self, forKey: .id)
        let at = try c.decode(Date.self, forKey: .at)
        let day = try c.decode(LocalDate.self, forKey: .day)
        let volume = try c.decode(Double.self, forKey: .volumeMl)
        switch try c.decode(EntryType.self, forKey: .type) {
        case .intake:
            var intake = Intake(
                id: id, at: at, day: day, volumeMl: volume,
                kind: DrinkKind(id: try c.decode(UUID.self, forKey: .kindID),
                                name: try c.decode(String.self, forKey: .kind),
                                factor: try c.decode(Double.self, forKey: .factor)),
                note: try c.decodeIfPresent(String.self, forKey: .note),
                source: try c.decode(IntakeSource.self, forKey: .source))
            intake.effectiveMl = try c.decode(Double.self, forKey: .effectiveMl)
            self = .intake(intake)
        case .removal:
            self = .removal(Removal(id: id, at: at, day: day, volumeMl: volume))
        }
    }
}
