import Foundation
import TallyCore
import TallyStore

// Not yet on PostgreSQL: each is replaced by its real implementation.

extension PostgresStore: EntryRepository {
    public func addIntake(_ intake: Intake, of user: UUID) async throws -> (intake: Intake, created: Bool) { fatalError("not yet") }
    public func logIntake(of user: UUID, _ make: @escaping @Sendable (_ settings: HydrationSettings, _ kinds: [DrinkKind]) throws -> Intake) async throws -> LoggedIntake { fatalError("not yet") }
    public func addIntakes(_ intakes: [Intake], of user: UUID) async throws -> Int { fatalError("not yet") }
    public func addRemoval(of user: UUID, _ make: @escaping @Sendable (_ settings: HydrationSettings) throws -> Removal, check: @escaping @Sendable (_ removal: Removal, _ settings: HydrationSettings, _ dayTotalMl: Double) throws -> Void) async throws -> (removal: Removal, created: Bool) { fatalError("not yet") }
    public func updateIntake(id: UUID, of user: UUID, edit: @escaping @Sendable (_ current: Intake, _ dayTotalMl: Double, _ settings: HydrationSettings, _ kinds: [DrinkKind]) throws -> Intake) async throws -> Intake { fatalError("not yet") }
    public func deleteEntry(id: UUID, of user: UUID, check: @escaping @Sendable (_ entry: DayEntry, _ dayTotalMl: Double, _ settings: HydrationSettings) throws -> Void) async throws -> DayEntry { fatalError("not yet") }
    public func entry(id: UUID, of user: UUID) async throws -> DayEntry? { fatalError("not yet") }
    public func entryIDs(startingWith prefix: String, of user: UUID, limit: Int) async throws -> [UUID] { fatalError("not yet") }
    public func entries(on day: LocalDate, of user: UUID) async throws -> [DayEntry] { fatalError("not yet") }
    public func daySnapshot(of user: UUID, day: @escaping @Sendable (HydrationSettings) -> LocalDate) async throws -> DaySnapshot { fatalError("not yet") }
    public func dailyTotals(of user: UUID, from: LocalDate?, through: LocalDate?) async throws -> [LocalDate: Double] { fatalError("not yet") }
}

extension PostgresStore: GoalRepository {
    public func profile(of user: UUID) async throws -> Profile? { fatalError("not yet") }
    public func goalHistory(of user: UUID) async throws -> GoalHistory { fatalError("not yet") }
    public func saveProfile(_ profile: Profile?, of user: UUID, update: @escaping @Sendable (inout GoalHistory, Profile?, HydrationSettings) -> Void) async throws -> GoalHistory { fatalError("not yet") }
    public func updateGoalHistory(of user: UUID, update: @escaping @Sendable (inout GoalHistory, Profile?, HydrationSettings) throws -> Void) async throws -> GoalHistory { fatalError("not yet") }
}

extension PostgresStore: BottleRepository {
    public func bottle(of user: UUID) async throws -> Bottle { fatalError("not yet") }
    public func changeBottle(of user: UUID, sip: UUID?, _ change: @escaping @Sendable (inout Bottle, HydrationSettings, [DrinkKind]) throws -> Intake?) async throws -> (bottle: Bottle, intake: Intake?, created: Bool) { fatalError("not yet") }
}

extension PostgresStore: ReminderRepository {
    public func reminderSettings(of user: UUID) async throws -> ReminderSettings { fatalError("not yet") }
    public func saveReminderSettings(_ settings: ReminderSettings, of user: UUID) async throws { fatalError("not yet") }
    public func setCalendarSecret(hash: Data?, of user: UUID) async throws { fatalError("not yet") }
    public func calendarOwner(secretHash: Data) async throws -> (user: User, settings: HydrationSettings, reminders: ReminderSettings)? { fatalError("not yet") }
}

extension PostgresStore: HealthRecordRepository {
    public func importHealthRecords(drinks: [Intake], asleep: [DateInterval], of user: UUID, at now: Date) async throws -> (drinks: Int, asleep: Int) { fatalError("not yet") }
    public func sleepRecords(of user: UUID, endingAfter since: Date) async throws -> [SleepRecord] { fatalError("not yet") }
    public func forgetDeletedImports(of user: UUID) async throws -> Int { fatalError("not yet") }
}
