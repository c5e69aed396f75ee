import Foundation
import TallyCore

// A day and its progress (H2, H9, H12) as the API and `tally --json` write them.

extension DaySummary: Codable {
    private enum Keys: String, CodingKey { case date, totalMl, goalMl, goalMode, percent, goalMet, unit, entries }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(date: try c.decode(LocalDate.self, forKey: .date), totalMl: try c.decode(Double.self, forKey: .totalMl),
                  goalMl: try c.decodeIfPresent(Double.self, forKey: .goalMl), goalMode: try c.decode(Goal.Mode.self, forKey: .goalMode),
                  percent: try c.decodeIfPresent(Double.self, forKey: .percent), goalMet: try c.decode(Bool.self, forKey: .goalMet),
                  unit: try c.decode(VolumeUnit.self, forKey: .unit), entries: try c.decode([DayEntry].self, forKey: .entries))
    }

    public func encode(to encoder: any Encoder) throws {
        // In the order the API writes them (sorted), which spares the writer sorting them.
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(date, forKey: .date)
        try c.encode(entries, forKey: .entries)
        try c.encode(goalMet, forKey: .goalMet)
        try c.encode(goalMl, forKey: .goalMl)
        try c.encode(goalMode, forKey: .goalMode)
        try c.encode(percent, forKey: .percent)
        try c.encode(totalMl, forKey: .totalMl)
        try c.encode(unit, forKey: .unit)
    }
}

extension DaySummary: WireWritable {
    public func write(to json: inout JSONWriter) throws {
        try json.object { json in
            json.key("date"); json.text(date)
            json.key("entries"); try json.array(entries) { json, entry in try entry.write(to: &json) }
            json.key("goalMet"); json.bool(goalMet)
            json.key("goalMl"); try json.number(goalMl)
            json.key("goalMode"); json.choice(goalMode)
            json.key("percent"); try json.number(percent)
            json.key("totalMl"); try json.number(totalMl)
            json.key("unit"); json.choice(unit)
        }
    }
}

/// A drink or a removal, told apart by `type`; a removal's `effectiveMl` is its volume taken away.
extension DayEntry: Codable {
    private enum Keys: String, CodingKey {
        case type, id, at, day, volumeMl, effectiveMl, kind, kindID, factor, note, source
    }

    private enum EntryType: String, Codable { case intake, removal }

    public func encode(to encoder: any Encoder) throws {
        // In the order the API writes them (sorted), which spares the writer sorting them.
        var c = encoder.container(keyedBy: Keys.self)
        switch self {
        case .intake(let intake):
            try c.encode(intake.at, forKey: .at)
            try c.encode(intake.day, forKey: .day)
            try c.encode(intake.effectiveMl, forKey: .effectiveMl)
            try c.encode(intake.factor, forKey: .factor)
            try c.encode(intake.id, forKey: .id)
            try c.encode(intake.kindName, forKey: .kind)
            try c.encode(intake.kindID, forKey: .kindID)
            try c.encodeIfPresent(intake.note, forKey: .note)
            try c.encode(intake.source, forKey: .source)
            try c.encode(EntryType.intake, forKey: .type)
            try c.encode(intake.volumeMl, forKey: .volumeMl)
        case .removal(let removal):
            try c.encode(removal.at, forKey: .at)
            try c.encode(removal.day, forKey: .day)
            try c.encode(-removal.volumeMl, forKey: .effectiveMl)
            try c.encode(removal.id, forKey: .id)
            try c.encode(EntryType.removal, forKey: .type)
            try c.encode(removal.volumeMl, forKey: .volumeMl)
        }
    }

    public init(from decoder: any Decoder) throws {
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

extension DayEntry: WireWritable {
    public func write(to json: inout JSONWriter) throws {
        try json.object { json in
            switch self {
            case .intake(let intake):
                json.key("at"); json.instant(intake.at)
                json.key("day"); json.text(intake.day)
                json.key("effectiveMl"); try json.number(intake.effectiveMl)
                json.key("factor"); try json.number(intake.factor)
                json.key("id"); json.uuid(intake.id)
                json.key("kind"); json.string(intake.kindName)
                json.key("kindID"); json.uuid(intake.kindID)
                if let note = intake.note { json.key("note"); json.string(note) }
                json.key("source"); json.choice(intake.source)
                json.key("type"); json.string("intake")
                json.key("volumeMl"); try json.number(intake.volumeMl)
            case .removal(let removal):
                json.key("at"); json.instant(removal.at)
                json.key("day"); json.text(removal.day)
                json.key("effectiveMl"); try json.number(-removal.volumeMl)
                json.key("id"); json.uuid(removal.id)
                json.key("type"); json.string("removal")
                json.key("volumeMl"); try json.number(removal.volumeMl)
            }
        }
    }
}

extension DayProgress: Codable {
    private enum Keys: String, CodingKey { case date, totalMl, goalMl, percent, goalMet }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(date: try c.decode(LocalDate.self, forKey: .date), totalMl: try c.decode(Double.self, forKey: .totalMl),
                  goalMl: try c.decodeIfPresent(Double.self, forKey: .goalMl), percent: try c.decodeIfPresent(Double.self, forKey: .percent),
                  goalMet: try c.decode(Bool.self, forKey: .goalMet))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(date, forKey: .date)
        try c.encode(totalMl, forKey: .totalMl)
        // null, not left out: "no goal" is not "this version sends no goal".
        try c.encode(goalMl, forKey: .goalMl)
        try c.encode(percent, forKey: .percent)
        try c.encode(goalMet, forKey: .goalMet)
    }
}

extension DayProgress: WireWritable {
    public func write(to json: inout JSONWriter) throws {
        try json.object { json in
            json.key("date"); json.text(date)
            json.key("goalMet"); json.bool(goalMet)
            json.key("goalMl"); try json.number(goalMl)
            json.key("percent"); try json.number(percent)
            json.key("totalMl"); try json.number(totalMl)
        }
    }
}

extension Streaks: Codable {
    private enum Keys: String, CodingKey { case current, longest }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(current: try c.decode(Int.self, forKey: .current), longest: try c.decode(Int.self, forKey: .longest))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(current, forKey: .current)
        try c.encode(longest, forKey: .longest)
    }
}

extension MonthCalendar: Codable {
    private enum Keys: String, CodingKey { case month, previous, next, days, firstWeekday }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(month: try c.decode(YearMonth.self, forKey: .month), previous: try c.decode(YearMonth.self, forKey: .previous),
                  next: try c.decode(YearMonth.self, forKey: .next), days: try c.decode([Day].self, forKey: .days),
                  firstWeekday: try c.decode(Int.self, forKey: .firstWeekday))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(month, forKey: .month)
        try c.encode(previous, forKey: .previous)
        try c.encode(next, forKey: .next)
        try c.encode(days, forKey: .days)
        try c.encode(firstWeekday, forKey: .firstWeekday)
    }
}

extension MonthCalendar.Day: Codable {
    private enum Keys: String, CodingKey { case progress, isFuture, isToday }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(progress: try c.decode(DayProgress.self, forKey: .progress), isFuture: try c.decode(Bool.self, forKey: .isFuture),
                  isToday: try c.decode(Bool.self, forKey: .isToday))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(progress, forKey: .progress)
        try c.encode(isFuture, forKey: .isFuture)
        try c.encode(isToday, forKey: .isToday)
    }
}

extension HydrationHistory: Codable {
    private enum Keys: String, CodingKey { case days, calendar, streaks }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(days: try c.decode([DayProgress].self, forKey: .days), calendar: try c.decode(MonthCalendar.self, forKey: .calendar),
                  streaks: try c.decode(Streaks.self, forKey: .streaks))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(days, forKey: .days)
        try c.encode(calendar, forKey: .calendar)
        try c.encode(streaks, forKey: .streaks)
    }
}
