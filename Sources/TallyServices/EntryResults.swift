import Foundation
import TallyAPI
import TallyCore
import TallyRepositories

extension HydrationService {
    /// A day's total against its goal, read from the day's one total row: what a change answers,
    /// however many entries the day has.
    public func dayProgress(on day: LocalDate) async throws -> DayProgress {
        let total = try await store.dailyTotals(of: user, from: day, through: day)[day] ?? 0
        return DayProgress(date: day, totalMl: total, goal: try await store.goalHistory(of: user).goal(on: day))
    }

    public func result(_ entry: DayEntry, created: Bool) async throws -> EntryResult {
        EntryResult(created: created, entry: entry, day: try await dayProgress(on: entry.day), unit: try await settings().unit)
    }

    public func deleted(_ entry: DayEntry) async throws -> DeletedEntry {
        DeletedEntry(deleted: entry, day: try await dayProgress(on: entry.day))
    }
}
