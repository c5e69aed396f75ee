import Foundation
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

extension PersonBackup {
    /// Writes the person's backup as it reads it: everything but the drinks first, then the drinks
    /// and removals a few weeks of days at a time, so that years of them are never in memory at once.
    public static func export(hydration: HydrationService, spending: SpendingService, write: (Data) async throws -> Void) async throws {
        let (store, user) = (hydration.store, hydration.user)
        guard let account = try await store.user(id: user) else { throw TallyError.notFound("There is no such person.") }
        var ledgers: [LedgerExport.Document] = []
        for details in try await spending.ledgers() where details.owner?.userID == user {
            ledgers.append(try await LedgerExport.document(of: details.ledger.id, spending: spending))
        }
        let head = PersonBackup(
            format: format, version: currentVersion, exportedAt: hydration.clock.now,
            account: Account(name: account.name, createdAt: account.createdAt), settings: try await store.settings(of: user),
            profile: try await store.profile(of: user), goals: try await store.goalHistory(of: user).periods,
            kinds: try await store.drinkKinds(of: user), bottle: try await store.bottle(of: user),
            reminders: try await store.reminderSettings(of: user),
            sleep: try await store.sleepRecords(of: user, endingAfter: .distantPast).map {
                Night(start: $0.interval.start, end: $0.interval.end, importedAt: $0.importedAt)
            },
            ledgers: ledgers, entries: [])
        // The keys are sorted: the person's own "entries" come before the ledgers' (whose
        // entries are inside each ledger), so the first empty list is theirs, written in pieces.
        let encoder = encoder()
        let whole = try encoder.encode(head)
        let marker = Data(#""entries":[]"#.utf8)
        guard let split = whole.range(of: marker) else { throw TallyError.invalid("The backup could not be written.") }
        try await write(whole[..<split.lowerBound] + Data(#""entries":["#.utf8))
        let days = try await store.dailyTotals(of: user, from: nil, through: nil).keys.sorted()
        var first = true
        for start in stride(from: 0, to: days.count, by: DrinkCSV.daysPerRead) {
            let window = days[start..<min(start + DrinkCSV.daysPerRead, days.count)]
            var chunk = Data()
            for entry in try await store.entries(from: window.first!, through: window.last!, of: user) {
                if !first { chunk.append(UInt8(ascii: ",")) }
                chunk.append(try encoder.encode(Entry(entry)))
                first = false
            }
            try await write(chunk)
        }
        try await write(Data("]".utf8) + whole[split.upperBound...] + Data("\n".utf8))
    }

    /// The name a download of the person's backup gets.
    public static func fileName(on day: LocalDate) -> String { "tally-backup-\(day).json" }
}
