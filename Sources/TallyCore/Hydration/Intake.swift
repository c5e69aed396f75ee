import Foundation

/// Where an intake came from (H1).
public enum IntakeSource: String, NamedChoice, Sendable {
    case manual
    case bottle
    case `import`
}

/// One drink (H1).
///
/// Its effective hydration is fixed when it is logged: later edits of the kind's factor never
/// rewrite history. Its `day` is the user's local day when it was drunk, fixed at logging too,
/// so a drink at 23:59 stays on that day whenever and wherever it is looked at.
public struct Intake: Equatable, Sendable, Identifiable {
    public var id: UUID
    public var at: Date
    public var day: LocalDate
    public var volumeMl: Double
    public var kindID: UUID
    public var kindName: String
    public var factor: Double
    public var effectiveMl: Double
    public var note: String?
    public var source: IntakeSource

    public init(id: UUID, at: Date, day: LocalDate, volumeMl: Double, kind: DrinkKind, note: String?, source: IntakeSource) {
        self.id = id
        self.at = at
        self.day = day
        self.volumeMl = volumeMl
        self.kindID = kind.id
        self.kindName = kind.name
        self.factor = kind.factor
        self.effectiveMl = volumeMl * kind.factor
        self.note = note
        self.source = source
    }

    public static let maximumNoteLength = 500

    public static func validate(note: String?) throws -> String? {
        guard let note, case let note = try UserText.freeText(note, Phrase("A note")), !note.isEmpty else { return nil }
        guard UserText.fits(note, maximumLength: maximumNoteLength) else {
            throw TallyError.invalid("A note can be at most \(maximumNoteLength) characters long (and \(UserText.maximumBytes(forLength: maximumNoteLength)) bytes of UTF-8).")
        }
        return note
    }
}

/// Water taken off a day's total without deleting a drink (H3): a negative adjustment on that day.
public struct Removal: Equatable, Sendable, Identifiable {
    public var id: UUID
    public var at: Date
    public var day: LocalDate
    public var volumeMl: Double

    public init(id: UUID, at: Date, day: LocalDate, volumeMl: Double) {
        self.id = id
        self.at = at
        self.day = day
        self.volumeMl = volumeMl
    }
}

/// A line of a day's log: a drink or a removal, in the order they happened.
public enum DayEntry: Equatable, Sendable {
    case intake(Intake)
    case removal(Removal)

    public var id: UUID {
        switch self {
        case .intake(let intake): intake.id
        case .removal(let removal): removal.id
        }
    }

    public var at: Date {
        switch self {
        case .intake(let intake): intake.at
        case .removal(let removal): removal.at
        }
    }

    /// The day it was logged on (H2), whatever the time zone is now.
    public var day: LocalDate {
        switch self {
        case .intake(let intake): intake.day
        case .removal(let removal): removal.day
        }
    }

    /// The order of a day's log: by time; at one instant (two drinks logged in one minute, a
    /// removal beside them) drinks before removals, then by id, so that every store lists them alike.
    public static func happenedBefore(_ a: DayEntry, _ b: DayEntry) -> Bool {
        if a.at != b.at { return a.at < b.at }
        if a.isRemoval != b.isRemoval { return b.isRemoval }
        return a.id.uuidString < b.id.uuidString
    }

    private var isRemoval: Bool {
        if case .removal = self { true } else { false }
    }

    /// What this line adds to the day's total (negative for a removal).
    public var contributionMl: Double {
        switch self {
        case .intake(let intake): intake.effectiveMl
        case .removal(let removal): -removal.volumeMl
        }
    }
}
