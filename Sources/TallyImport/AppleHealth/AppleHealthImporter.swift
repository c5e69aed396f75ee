import Foundation
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// Brings an Apple Health export into a user's tallies (A2): each DietaryWater record becomes a
/// drink of water with source `import` on the day written in its startDate, and the asleep
/// intervals are kept for the reminders' wake window (H11). Each drink's id is made from the
/// record and the user, so importing the same export again, or a later one that repeats it,
/// adds nothing twice.
public struct AppleHealthImporter: Sendable {
    public let hydration: HydrationService
    /// Records stored per transaction. An export can hold a million records, and one
    /// transaction for all of them would hold every other person's writes for as long.
    public var batchSize: Int

    public static let defaultBatchSize = 5_000

    public init(hydration: HydrationService, batchSize: Int = defaultBatchSize) {
        self.hydration = hydration
        self.batchSize = max(1, batchSize)
    }

    public typealias Report = AppleHealthImportReport


    /// Imports `export`, `batchSize` records to a transaction, oldest drinks first. An error
    /// halfway keeps the batches stored before it: importing the same export again is safe and
    /// finishes the job, since what was stored is recognised and not added twice (and a drink
    /// deleted in between stays deleted).
    public func importExport(_ export: AppleHealthExport) async throws -> Report {
        let now = hydration.clock.now
        let water = try HydrationService.activeKind(named: DrinkKind.defaultName, among: try await hydration.drinkKinds())
        let user = hydration.user
        let drinks = export.water
            .filter { (try? EntryVolume.validate($0.volumeMl, unit: .ml)) != nil && $0.start <= now }
            .map { record in
                Intake(id: Self.drinkID(record.key, user: user), at: record.start, day: record.day,
                       volumeMl: record.volumeMl, kind: water, note: nil, source: .import)
            }
        let asleep = export.asleep.filter { $0.end <= now }
        // The same record twice in one export (as some exports have) is one drink.
        let unique = Dictionary(drinks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var added = (drinks: 0, asleep: 0)
        for batch in Self.batches(Array(unique.values).sorted { $0.at < $1.at }, size: batchSize) {
            added.drinks += try await hydration.store.importHealthRecords(drinks: batch, asleep: [], of: user, at: hydration.clock.now).drinks
        }
        for batch in Self.batches(asleep, size: batchSize) {
            added.asleep += try await hydration.store.importHealthRecords(drinks: [], asleep: batch, of: user, at: hydration.clock.now).asleep
        }
        return Report(drinksAdded: added.drinks, drinksAlreadyThere: unique.count - added.drinks, sleepRecordsAdded: added.asleep,
                      skipped: export.unreadable + (export.water.count - drinks.count) + (export.asleep.count - asleep.count))
    }

    private static func batches<Element>(_ elements: [Element], size: Int) -> [[Element]] {
        stride(from: 0, to: elements.count, by: size).map { Array(elements[$0..<min($0 + size, elements.count)]) }
    }

    /// The drink's id: a name-based UUID of the record's key in the user's namespace.
    static func drinkID(_ key: String, user: UUID) -> UUID {
        nameBasedUUID(namespace: user, name: "apple-health:\(key)")
    }

    /// A version 5 UUID of `name` in `namespace`.
    static func nameBasedUUID(namespace: UUID, name: String) -> UUID {
        UUID.nameBased(namespace: namespace, name: name)
    }
}

extension AppleHealthImportReport {
    /// What the import did, in phrases for a person.
    public var phrases: [Phrase] {
        let drinks = Phrase(one: "\(drinksAdded) drink", other: "\(drinksAdded) drinks")
        let sleep = Phrase(one: "\(sleepRecordsAdded) sleep record", other: "\(sleepRecordsAdded) sleep records")
        var phrases = [Phrase("Imported \(drinks) and \(sleep) from Apple Health.")]
        if drinksAlreadyThere > 0 {
            phrases.append(Phrase(one: "\(drinksAlreadyThere) drink was already there from an earlier import.",
                                  other: "\(drinksAlreadyThere) drinks were already there from an earlier import."))
        }
        if skipped > 0 {
            phrases.append(Phrase(one: "\(skipped) record could not be used: unreadable, over 5000 ml, or in the future.",
                                  other: "\(skipped) records could not be used: unreadable, over 5000 ml, or in the future."))
        }
        return phrases
    }

    /// The phrases in English (the command line, the API).
    public var sentences: [String] { phrases.map(\.description) }
}
