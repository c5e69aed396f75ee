import Foundation
import TallyCore

/// What logging, removing or editing gives: the entry, whether it is new (a repeated client id
/// is not), and its day's progress afterwards. The API answers it and `tally --json` prints it.
public struct EntryResult: Codable, Equatable, Sendable {
    public var created: Bool
    public var entry: DayEntry
    public var day: DayProgress

    public init(created: Bool, entry: DayEntry, day: DayProgress) {
        self.created = created
        self.entry = entry
        self.day = day
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

extension HydrationService {
    /// A day's total against its goal, read from the day's one total row: what a change answers,
    /// however many entries the day has.
    public func dayProgress(on day: LocalDate) async throws -> DayProgress {
        let total = try await store.dailyTotals(of: user, from: day, through: day)[day] ?? 0
        return DayProgress(date: day, totalMl: total, goal: try await store.goalHistory(of: user).goal(on: day))
    }

    public func result(_ entry: DayEntry, created: Bool) async throws -> EntryResult {
        EntryResult(created: created, entry: entry, day: try await dayProgress(on: entry.day))
    }

    public func deleted(_ entry: DayEntry) async throws -> DeletedEntry {
        DeletedEntry(deleted: entry, day: try await dayProgress(on: entry.day))
    }
}
