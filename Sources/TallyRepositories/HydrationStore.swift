import Foundation
import TallyCore

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

/// Everything hydration needs from storage: SQLite (TallyStore) and PostgreSQL (TallyPostgres)
/// implement it and pass the same contract tests.
public typealias HydrationStore = UserRepository & DrinkKindRepository & EntryRepository & GoalRepository & BottleRepository & ReminderRepository
    & HealthRecordRepository

/// Everything the server needs from storage.
public typealias TallyStorage = HydrationStore & AccountRepository & ProviderIdentityRepository & LedgerRepository & RecurringExpenseRepository & PushRepository
    & LedgerNoticeRepository & ReceiptRepository & ChangeSource
