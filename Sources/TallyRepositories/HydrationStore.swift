import Foundation
import TallyCore

/// A person who keeps tallies.
public struct User: Codable, Equatable, Sendable, Identifiable {
    public var id: UUID
    public var name: String
    public var createdAt: Date

    public init(id: UUID = UUID(), name: String, createdAt: Date) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
    }
}

/// Users and their settings.
public protocol UserRepository: Sendable {
    /// Stores a new user with their settings and built-in drink kinds; a taken name is a conflict.
    func createUser(_ user: User, settings: HydrationSettings, kinds: [DrinkKind]) async throws
    func user(named name: String) async throws -> User?
    func user(id: UUID) async throws -> User?

    func settings(of user: UUID) async throws -> HydrationSettings
    /// Changes the user's settings in one write transaction: `change` gets them as they stand,
    /// and may refuse. Returns them as saved.
    func changeSettings(of user: UUID, _ change: @escaping @Sendable (inout HydrationSettings) throws -> Void) async throws -> HydrationSettings
}

extension UserRepository {
    public func saveSettings(_ settings: HydrationSettings, of user: UUID) async throws {
        _ = try await changeSettings(of: user) { $0 = settings }
    }
}

/// Drink kinds, one list per user (H6).
public protocol DrinkKindRepository: Sendable {
    /// Every kind of the user, retired ones included, built-in ones first.
    func drinkKinds(of user: UUID) async throws -> [DrinkKind]
    /// Changes the user's kinds in one write transaction: `change` gets all of them as they
    /// stand and returns the kinds to insert or update (a name another active kind of the user
    /// has is a conflict), and what the change answers.
    func changeDrinkKinds<Answer: Sendable>(
        of user: UUID, _ change: @escaping @Sendable ([DrinkKind]) throws -> (save: [DrinkKind], answer: Answer)
    ) async throws -> Answer
}

extension DrinkKindRepository {
    /// Inserts or updates a kind.
    public func saveDrinkKind(_ kind: DrinkKind, of user: UUID) async throws {
        try await changeDrinkKinds(of: user) { _ in (save: [kind], answer: ()) }
    }
}

/// A check a change must pass, run inside the change's transaction with the affected day's
/// total as it stands: the store keeps changes atomic, the rules stay in TallyCore.
public typealias DayTotalCheck = @Sendable (_ dayTotalMl: Double) throws -> Void

/// Drinks and removals (H1–H3).
public protocol EntryRepository: Sendable {
    /// Stores a drink; when its id exists already, returns the stored one (`created` false).
    /// An id that another user's entry has is a conflict.
    func addIntake(_ intake: Intake, of user: UUID) async throws -> (intake: Intake, created: Bool)
    /// Logs, in one write transaction, the drink that `make` builds from the user's settings and
    /// drink kinds as they stand inside it; `make` validates and may throw. A drink whose id is
    /// stored already is returned as stored (`created` false), as `addIntake` does. Returns the
    /// drink and its day's progress after the change.
    func logIntake(of user: UUID, _ make: @escaping @Sendable (_ settings: HydrationSettings, _ kinds: [DrinkKind]) throws -> Intake)
        async throws -> LoggedIntake
    /// Stores many drinks in one transaction (imports, fills), skipping ids already stored for
    /// this user; returns how many were added. All are refused if any is invalid.
    func addIntakes(_ intakes: [Intake], of user: UUID) async throws -> Int
    /// Stores, in one write transaction, the removal `make` builds from the user's settings, after
    /// `check` passed on it and its day's total; idempotent by id like drinks.
    func addRemoval(of user: UUID, _ make: @escaping @Sendable (_ settings: HydrationSettings) throws -> Removal,
                    check: @escaping @Sendable (_ removal: Removal, _ settings: HydrationSettings, _ dayTotalMl: Double) throws -> Void)
        async throws -> (removal: Removal, created: Bool)
    /// Replaces a drink with `edit`'s result, in one write transaction; `edit` receives the drink,
    /// the total of its day, and the user's settings and kinds. A new day's total only grows, so
    /// it needs no check.
    func updateIntake(id: UUID, of user: UUID, edit: @escaping @Sendable (_ current: Intake, _ dayTotalMl: Double,
                                                                       _ settings: HydrationSettings, _ kinds: [DrinkKind]) throws -> Intake)
        async throws -> Intake
    /// Deletes a drink or a removal after `check` passed on the entry, its day's total and the
    /// user's settings, in one write transaction.
    func deleteEntry(id: UUID, of user: UUID,
                     check: @escaping @Sendable (_ entry: DayEntry, _ dayTotalMl: Double, _ settings: HydrationSettings) throws -> Void)
        async throws -> DayEntry

    func entry(id: UUID, of user: UUID) async throws -> DayEntry?
    /// The ids of the user's entries whose id starts with `prefix` (hex digits and dashes).
    func entryIDs(startingWith prefix: String, of user: UUID, limit: Int) async throws -> [UUID]
    /// A day's drinks and removals, oldest first.
    func entries(on day: LocalDate, of user: UUID) async throws -> [DayEntry]
    /// The drinks and removals of the days from `from` through `through`, day by day, each day's
    /// in the order they happened: an export reads a person's years a few weeks at a time.
    func entries(from: LocalDate, through: LocalDate, of user: UUID) async throws -> [DayEntry]
    /// Which of `ids` are other users' entries: a file exported on this server and imported into
    /// another account keeps its entries under ids of that account's own.
    func entryIDsOfOthers(_ ids: [UUID], user: UUID) async throws -> Set<UUID>
    /// Brings in a file's drinks and removals in one write transaction, all or nothing: `make`
    /// gets the user's settings and drink kinds as they stand and returns the kinds to add and
    /// the entries. An entry whose id this user has stored already is passed over (importing a
    /// file twice adds nothing twice); an id another user's entry has is a conflict. `check` then
    /// sees the total of each day that changed, and may refuse (a day never goes below zero).
    func importEntries(of user: UUID, _ make: @escaping @Sendable (HydrationSettings, [DrinkKind]) throws -> EntryImport,
                       check: @escaping @Sendable (_ day: LocalDate, _ totalMl: Double, _ settings: HydrationSettings) throws -> Void)
        async throws -> EntryImport.Added
    /// In one read, what a day's screen shows: the settings, the day that `day` picks with
    /// them (today in the user's zone, say), its entries and the goal history.
    func daySnapshot(of user: UUID, day: @escaping @Sendable (HydrationSettings) -> LocalDate) async throws -> DaySnapshot
    /// A number that every change to the user's drinks and removals of `day` moves on, whichever
    /// instance made it: what tells an open page that its day changed. 0 for a day never written.
    func dayRevision(of user: UUID, on day: LocalDate) async throws -> Int64
    /// Each day's total between the two days (inclusive; nil for open), summed by the database.
    /// Days with no entries are absent.
    func dailyTotals(of user: UUID, from: LocalDate?, through: LocalDate?) async throws -> [LocalDate: Double]
}

extension EntryRepository {
    /// Stores a removal after `check` passed on its day's total.
    public func addRemoval(_ removal: Removal, of user: UUID, check: @escaping DayTotalCheck) async throws -> (removal: Removal, created: Bool) {
        try await addRemoval(of: user, { _ in removal }, check: { _, _, total in try check(total) })
    }

    /// Replaces a drink with `edit`'s result; `edit` receives the drink and the total of its day.
    public func updateIntake(id: UUID, of user: UUID,
                             edit: @escaping @Sendable (_ current: Intake, _ dayTotalMl: Double) throws -> Intake) async throws -> Intake {
        try await updateIntake(id: id, of: user) { current, total, _, _ in try edit(current, total) }
    }

    /// Deletes a drink or a removal after `check` passed on the entry and its day's total.
    public func deleteEntry(id: UUID, of user: UUID,
                            check: @escaping @Sendable (_ entry: DayEntry, _ dayTotalMl: Double) throws -> Void) async throws -> DayEntry {
        try await deleteEntry(id: id, of: user) { entry, total, _ in try check(entry, total) }
    }
}

/// A day as one read saw it.
public struct DaySnapshot: Sendable {
    public var settings: HydrationSettings
    public var day: LocalDate
    public var entries: [DayEntry]
    public var goals: GoalHistory

    public init(settings: HydrationSettings, day: LocalDate, entries: [DayEntry], goals: GoalHistory) {
        self.settings = settings
        self.day = day
        self.entries = entries
        self.goals = goals
    }
}

/// Profiles and goals (H7, H8).
public protocol GoalRepository: Sendable {
    func profile(of user: UUID) async throws -> Profile?
    func goalHistory(of user: UUID) async throws -> GoalHistory
    /// Saves the profile and, in the same transaction, lets `update` change the goal history
    /// (an automatic goal follows the profile); `update` sees the settings (today's zone).
    func saveProfile(_ profile: Profile?, of user: UUID,
                     update: @escaping @Sendable (inout GoalHistory, Profile?, HydrationSettings) -> Void) async throws -> GoalHistory
    /// Changes the goal history through `update`, atomically; `update` sees the current profile
    /// and settings, and may refuse.
    func updateGoalHistory(of user: UUID,
                           update: @escaping @Sendable (inout GoalHistory, Profile?, HydrationSettings) throws -> Void) async throws -> GoalHistory
}

/// The bottle (H10): one per user.
public protocol BottleRepository: Sendable {
    /// The user's bottle; a full standard one until they change it.
    func bottle(of user: UUID) async throws -> Bottle
    /// Changes the bottle in one transaction: `change` gets the bottle, the user's settings and
    /// drink kinds, and may return a drink to log with the change (a sip), which is stored with
    /// it. When `sip` names a drink stored already, nothing changes and that drink is returned
    /// (`created` false): a sip sent twice is one sip.
    func changeBottle(of user: UUID, sip: UUID?,
                      _ change: @escaping @Sendable (inout Bottle, HydrationSettings, [DrinkKind]) throws -> Intake?) async throws -> (bottle: Bottle, intake: Intake?, created: Bool)
}

/// Reminders (H11): the settings and the secret calendar feed address, one per user.
public protocol ReminderRepository: Sendable {
    func reminderSettings(of user: UUID) async throws -> ReminderSettings
    func saveReminderSettings(_ settings: ReminderSettings, of user: UUID) async throws
    /// Sets (or, with nil, revokes) the hash of the user's calendar feed secret.
    func setCalendarSecret(hash: Data?, of user: UUID) async throws
    /// The user whose calendar secret has this hash, with their reminder and hydration settings;
    /// nil for a disabled account, whose feed stops with its sessions.
    func calendarOwner(secretHash: Data) async throws -> (user: User, settings: HydrationSettings, reminders: ReminderSettings)?
}

/// Records brought in from Apple Health (A2): water as drinks, and the asleep intervals that give
/// the reminders' wake window (H11).
public protocol HealthRecordRepository: Sendable {
    /// Stores the drinks and asleep intervals in one transaction, all or nothing (an importer
    /// sends a large export in batches, one call each, so that other writes wait for a batch,
    /// never for the whole export). A drink whose id
    /// was imported before (even if it has been deleted since) or is stored already, and an
    /// interval stored already, are passed over, so importing the same export again adds
    /// nothing. Returns how many drinks and intervals were new. New intervals are kept with `now`,
    /// when Tally learned of them: a day's wake window comes from what was known when it began.
    func importHealthRecords(drinks: [Intake], asleep: [DateInterval], of user: UUID, at now: Date) async throws -> (drinks: Int, asleep: Int)
    /// The sleep records whose interval ends after `since`, oldest first.
    func sleepRecords(of user: UUID, endingAfter since: Date) async throws -> [SleepRecord]
    /// Forgets the ids of imported drinks that the user has deleted since, so that importing
    /// again brings them back; the ids of imported drinks still there are kept, so that they
    /// are never added twice. Returns how many were forgotten.
    func forgetDeletedImports(of user: UUID) async throws -> Int
}

extension HealthRecordRepository {
    /// The asleep intervals that end after `since`, oldest first.
    public func asleepIntervals(of user: UUID, endingAfter since: Date) async throws -> [DateInterval] {
        try await sleepRecords(of: user, endingAfter: since).map(\.interval)
    }
}

/// Everything hydration needs from storage. SQLite implements it now; a PostgreSQL store will
/// implement the same protocols and pass the same contract tests.
public typealias HydrationStore = UserRepository & DrinkKindRepository & EntryRepository & GoalRepository & BottleRepository & ReminderRepository
    & HealthRecordRepository

/// Everything the server needs from storage.
public typealias TallyStorage = HydrationStore & AccountRepository & LedgerRepository & RecurringExpenseRepository & PushRepository

/// A drink as logging it left it: stored or found under its id, its day's progress, and the
/// user's unit, from the one transaction that logged it.
public struct LoggedIntake: Sendable {
    public var intake: Intake
    public var created: Bool
    public var day: DayProgress
    public var unit: VolumeUnit

    package init(intake: Intake, created: Bool, day: DayProgress, unit: VolumeUnit) {
        self.intake = intake
        self.created = created
        self.day = day
        self.unit = unit
    }
}
