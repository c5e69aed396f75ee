import Foundation
import TallyCore

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
