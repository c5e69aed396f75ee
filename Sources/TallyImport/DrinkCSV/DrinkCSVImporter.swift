import Foundation
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// Brings a CSV of drinks into one person's tally (A2), a few thousand rows to a transaction.
public struct DrinkCSVImporter: Sendable {
    public let hydration: HydrationService
    /// Rows stored per transaction (whole days each): a file of a million rows in one
    /// transaction would hold every other person's writes for minutes.
    public var batchSize: Int

    public static let defaultBatchSize = 2_000

    public init(hydration: HydrationService, batchSize: Int = defaultBatchSize) {
        self.hydration = hydration
        self.batchSize = max(1, batchSize)
    }

    /// Reads the file (streamed) and stores its rows. Kinds are found by name (an active one
    /// first, then a retired one); a name the person has not used becomes a new kind with the
    /// file's factor. A drink keeps the factor the file gives, as it was logged.
    public func importCSV(_ stream: InputStream, unit: VolumeUnit?) async throws -> DrinkCSVImportReport {
        let zone = try await hydration.settings().zone
        return try await store(try DrinkCSV.read(stream, zone: zone, now: hydration.clock.now, unit: unit, user: hydration.user))
    }

    /// Stores the rows of a file read with `DrinkCSV.read`, oldest days first, `batchSize` rows
    /// (whole days) to a transaction. A refusal of a row's content comes before anything is
    /// stored; a day that a removal would take below zero stops the import at that day, keeping
    /// the days before it, and says so. Every row's id is the same each time the file is read,
    /// so importing the file again adds only what is not there yet. A row whose id is another
    /// person's entry (their export, imported into this account) gets an id of this person's
    /// own, made from it.
    public func store(_ rows: [DrinkCSV.Row]) async throws -> DrinkCSVImportReport {
        let own = try await hydration.ownEntryIDs(rows.map(\.id))
        let settings = try await hydration.settings()
        let rows = rows.map { row in
            var row = row
            row.id = own(row.id)
            return row
        }
        // Every row's kind and content checked first, so that such a refusal stores nothing.
        _ = try Self.entries(rows, settings: settings, kinds: try await hydration.drinkKinds())
        var added = (drinks: 0, removals: 0, newKinds: [String]())
        var stored: LocalDate?
        for batch in DayBatches.of(rows, size: batchSize, day: { $0.day ?? LocalDate(containing: $0.at, in: settings.zone) }) {
            let count: (drinks: Int, removals: Int, newKinds: [String])
            do {
                count = try await store(batch.items)
            } catch let error as TallyError where stored != nil {
                throw TallyError(error.kind, "The drinks up to \(stored!) were imported; from \(batch.first) on, nothing was. \(DrinkCSV.withoutNothingImported(error.phrase))")
            }
            added.drinks += count.drinks
            added.removals += count.removals
            added.newKinds += count.newKinds
            stored = batch.last
        }
        return DrinkCSVImportReport(drinksAdded: added.drinks, removalsAdded: added.removals,
                                    alreadyThere: rows.count - added.drinks - added.removals, newKinds: added.newKinds)
    }

    /// Stores one batch of rows in one transaction.
    private func store(_ rows: [DrinkCSV.Row]) async throws -> (drinks: Int, removals: Int, newKinds: [String]) {
        let added = try await hydration.store.importEntries(of: hydration.user, { settings, kinds in
            try Self.entries(rows, settings: settings, kinds: kinds)
        }, check: { day, total, settings in
            do {
                try DailyTotal.checkImported(total, on: day, unit: settings.unit)
            } catch {
                // Refused: the removals of that day, by their lines in the file.
                let lines = rows.filter { $0.type == .removal && ($0.day ?? LocalDate(containing: $0.at, in: settings.zone)) == day }.map(\.line)
                let listed = lines.prefix(DrinkCSV.namedErrors).map(String.init).joined(separator: ", ")
                let named = lines.count == 1 ? Phrase("line \(listed)") : Phrase("lines \(listed)")
                do {
                    try DailyTotal.checkImported(total, on: day, unit: settings.unit, lines: named)
                } catch let error as TallyError {
                    throw TallyError.invalid("Nothing was imported. \(error.phrase)")
                }
            }
        })
        return (added.drinks, added.removals, added.newKinds)
    }

    /// The rows as entries of the person's kinds, and the kinds to add.
    static func entries(_ rows: [DrinkCSV.Row], settings: HydrationSettings, kinds: [DrinkKind]) throws -> EntryImport {
        var byName: [String: DrinkKind] = [:]
        for kind in kinds.sorted(by: { !$0.isRetired && $1.isRetired }) where byName[UserText.comparisonKey(kind.name)] == nil {
            byName[UserText.comparisonKey(kind.name)] = kind
        }
        var added: [DrinkKind] = []
        var entries: [DayEntry] = []
        entries.reserveCapacity(rows.count)
        for row in rows {
            let day = row.day ?? LocalDate(containing: row.at, in: settings.zone)
            guard row.type == .drink else {
                entries.append(.removal(Removal(id: row.id, at: row.at, day: day, volumeMl: row.volumeMl)))
                continue
            }
            let name = row.kindName ?? DrinkKind.defaultName
            let kind: DrinkKind
            if let known = byName[UserText.comparisonKey(name)] {
                kind = known
            } else {
                let factor = row.factor ?? 1
                do {
                    kind = DrinkKind(name: try DrinkKind.validate(name: name, factor: factor), factor: factor)
                } catch let error as TallyError {
                    throw TallyError.invalid("Nothing was imported: line \(row.line), column kind: \(error.phrase)")
                }
                byName[UserText.comparisonKey(name)] = kind
                added.append(kind)
            }
            var intake = Intake(id: row.id, at: row.at, day: day, volumeMl: row.volumeMl, kind: kind, note: row.note, source: row.source)
            if let factor = row.factor {
                intake.factor = factor
                intake.effectiveMl = row.volumeMl * factor
            }
            entries.append(.intake(intake))
        }
        return EntryImport(newKinds: added, entries: entries)
    }
}

extension DrinkCSVImportReport {
    /// What the import did, in phrases for a person.
    public var phrases: [Phrase] {
        EntryCountSentences.phrases(.imported, drinks: drinksAdded, removals: removalsAdded, alreadyThere: alreadyThere, newKinds: newKinds)
    }

    /// The phrases in English (the command line, the API).
    public var sentences: [String] { phrases.map(\.description) }
}

extension DrinkCSV {
    /// A refusal's own sentence without the "Nothing was imported." that leads it.
    static func withoutNothingImported(_ phrase: Phrase) -> Phrase {
        guard phrase.key == "Nothing was imported. {0}", case .phrase(let inner)? = phrase.values.first else { return phrase }
        return inner
    }
}
