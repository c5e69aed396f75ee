import Foundation
import TallyCore
import TallyStore

// Not yet on PostgreSQL: each is replaced by its real implementation.

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
