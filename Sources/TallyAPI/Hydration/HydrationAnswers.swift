import Foundation
import TallyCore

// What the hydration routes answer that is not a TallyCore value of its own. `tally --json`
// prints the same documents.

/// What logging, removing or editing gives: the entry, whether it is new (a repeated client id
/// is not), its day's progress afterwards, and the unit the person reads volumes in.
public struct EntryResult: Codable, Equatable, Sendable {
    public var created: Bool
    public var entry: DayEntry
    public var day: DayProgress
    public var unit: VolumeUnit

    public init(created: Bool, entry: DayEntry, day: DayProgress, unit: VolumeUnit) {
        self.created = created
        self.entry = entry
        self.day = day
        self.unit = unit
    }
}

extension EntryResult: WireWritable {
    public func write(to json: inout JSONWriter) throws {
        try json.object { json in
            json.key("created"); json.bool(created)
            json.key("day"); try day.write(to: &json)
            json.key("entry"); try entry.write(to: &json)
            json.key("unit"); json.choice(unit)
        }
    }
}

/// What deleting gives: the entry as it was, and its day's progress afterwards.
public struct DeletedEntry: Codable, Equatable, Sendable {
    public var deleted: DayEntry
    public var day: DayProgress

    public init(deleted: DayEntry, day: DayProgress) {
        self.deleted = deleted
        self.day = day
    }
}

extension DeletedEntry: WireWritable {
    public func write(to json: inout JSONWriter) throws {
        try json.object { json in
            json.key("day"); try day.write(to: &json)
            json.key("deleted"); try deleted.write(to: &json)
        }
    }
}

/// The bottle after a change, and the sip it logged with the day it counts on.
public struct BottleResult: Codable, Equatable, Sendable {
    public var bottle: Bottle
    /// The drink a sip logged (an intake entry, as a day lists it); null without a sip.
    @ExplicitNull public var sip: DayEntry?
    /// Whether this request logged the sip (false when the same sip id came again).
    public var created: Bool
    /// The day the sip counts on, after it; null without a sip.
    @ExplicitNull public var day: DayProgress?

    public init(bottle: Bottle, sip: DayEntry?, created: Bool, day: DayProgress?) {
        self.bottle = bottle
        self.sip = sip
        self.created = created
        self.day = day
    }
}

/// The goal as the goal screen shows it (H7, H8).
public struct GoalStatus: Codable, Equatable, Sendable {
    public var mode: Goal.Mode
    /// nil when the user chose no goal.
    @ExplicitNull public var goalMl: Double?
    /// How the automatic goal is computed, when there is a profile.
    @ExplicitNull public var breakdown: GoalBreakdown?
    @ExplicitNull public var profile: Profile?
    /// Every goal with the days it was in force, oldest first.
    public var history: [GoalPeriod]

    public init(mode: Goal.Mode, goalMl: Double?, breakdown: GoalBreakdown?, profile: Profile?, history: [GoalPeriod]) {
        self.mode = mode
        self.goalMl = goalMl
        self.breakdown = breakdown
        self.profile = profile
        self.history = history
    }
}

/// The reminder settings as saved, with the windows they lead to: the one the sleep records of the
/// last 7 days give (null without any), and the one the reminders follow today, which is the
/// window today started with (sleep records imported today count from tomorrow).
public struct RemindersView: Codable, Sendable {
    public var settings: ReminderSettings
    public var sleepRecordWindow: WakeWindow?
    public var followedWindow: WakeWindow
    /// The reminder times still to come in the window of today (or of last night, while it
    /// lasts); none while reminders are off.
    public var upcoming: [Date]

    public init(settings: ReminderSettings, sleepRecordWindow: WakeWindow?, followedWindow: WakeWindow, upcoming: [Date] = []) {
        self.settings = settings
        self.sleepRecordWindow = sleepRecordWindow
        self.followedWindow = followedWindow
        self.upcoming = upcoming
    }

    private enum CodingKeys: String, CodingKey { case sleepRecordWindow, followedWindow, upcoming }

    public init(from decoder: any Decoder) throws {
        settings = try ReminderSettings(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sleepRecordWindow = try container.decodeIfPresent(WakeWindow.self, forKey: .sleepRecordWindow)
        followedWindow = try container.decode(WakeWindow.self, forKey: .followedWindow)
        // Servers from before it was sent.
        upcoming = try container.decodeIfPresent([Date].self, forKey: .upcoming) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        try settings.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sleepRecordWindow, forKey: .sleepRecordWindow)
        try container.encode(followedWindow, forKey: .followedWindow)
        try container.encode(upcoming, forKey: .upcoming)
    }
}

/// Imported drinks' ids forgotten: drinks deleted since that importing again brings back (A2).
public struct ForgottenImports: Codable, Equatable, Sendable {
    public var forgotten: Int

    public init(forgotten: Int) { self.forgotten = forgotten }
}

/// Apple Health's export brought in (A2).
public struct AppleHealthImportReport: Codable, Equatable, Sendable {
    public var drinksAdded: Int
    /// Water records imported before.
    public var drinksAlreadyThere: Int
    /// New asleep intervals from the sleep records.
    public var sleepRecordsAdded: Int
    /// Water and sleep records left out: unreadable, out of range (more than 5000 ml or not
    /// more than 0), or in the future.
    public var skipped: Int

    public init(drinksAdded: Int, drinksAlreadyThere: Int, sleepRecordsAdded: Int, skipped: Int) {
        self.drinksAdded = drinksAdded
        self.drinksAlreadyThere = drinksAlreadyThere
        self.sleepRecordsAdded = sleepRecordsAdded
        self.skipped = skipped
    }
}

/// What importing a CSV of drinks did (A2).
public struct DrinkCSVImportReport: Codable, Equatable, Sendable {
    public var drinksAdded: Int
    public var removalsAdded: Int
    /// Rows whose entry was there already (from an earlier import of the same file).
    public var alreadyThere: Int
    /// Drink kinds the file named that the person did not have, added with the factor it gave.
    public var newKinds: [String]

    public init(drinksAdded: Int, removalsAdded: Int, alreadyThere: Int, newKinds: [String]) {
        self.drinksAdded = drinksAdded
        self.removalsAdded = removalsAdded
        self.alreadyThere = alreadyThere
        self.newKinds = newKinds
    }
}

/// What restoring a person's backup did (A2).
public struct BackupRestoreReport: Codable, Equatable, Sendable {
    public var drinksAdded: Int
    public var removalsAdded: Int
    /// Drinks and removals that were there already (a merge, or the same backup again).
    public var alreadyThere: Int
    public var newKinds: [String]
    public var sleepRecordsAdded: Int
    /// The ledgers restored, by name, and how many of their entries were added.
    public var ledgers: [String]
    public var ledgerEntriesAdded: Int
    /// The ledgers' recurring expenses set up again; those a merge found there already are not.
    public var recurringExpensesAdded: Int
    /// Whether the settings, profile, goals, bottle and reminders came from the backup (a
    /// restore into an empty account) or were kept (a merge).
    public var settingsRestored: Bool

    public init(drinksAdded: Int, removalsAdded: Int, alreadyThere: Int, newKinds: [String], sleepRecordsAdded: Int,
                ledgers: [String], ledgerEntriesAdded: Int, recurringExpensesAdded: Int, settingsRestored: Bool) {
        self.drinksAdded = drinksAdded
        self.removalsAdded = removalsAdded
        self.alreadyThere = alreadyThere
        self.newKinds = newKinds
        self.sleepRecordsAdded = sleepRecordsAdded
        self.ledgers = ledgers
        self.ledgerEntriesAdded = ledgerEntriesAdded
        self.recurringExpensesAdded = recurringExpensesAdded
        self.settingsRestored = settingsRestored
    }
}
