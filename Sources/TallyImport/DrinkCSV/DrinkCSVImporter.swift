import Foundation
import TallyAPI
import TallyCore
import TallyStore

/// Brings a CSV of drinks into one person's tally (A2), all or nothing.
public struct DrinkCSVImporter: Sendable {
    public let hydration: HydrationService

    public init(hydration: HydrationService) {
        self.hydration = hydration
    }

    /// Reads the file (streamed) and stores its rows in one transaction. Kinds are found by name
    /// (an active one first, then a retired one); a name the person has not used becomes a new
    /// kind with the file's factor. A drink keeps the factor the file gives, as it was logged.
    public func importCSV(_ stream: InputStream, unit: VolumeUnit?) async throws -> DrinkCSVImportReport {
        let zone = try await hydration.settings().zone
        return try await store(try DrinkCSV.read(stream, zone: zone, now: hydration.clock.now, unit: unit, user: hydration.user))
    }

    /// Stores the rows of a file read with `DrinkCSV.read`, in one transaction. A row whose id is
    /// another person's entry (their export, imported into this account) gets an id of this
    /// person's own, made from it: the same every time, so that importing it again adds nothing.
    public func store(_ rows: [DrinkCSV.Row]) async throws -> DrinkCSVImportReport {
        let own = try await hydration.ownEntryIDs(rows.map(\.id))
        let rows = rows.map { row in
            var row = row
            row.id = own(row.id)
            return row
        }
        let added = try await hydration.store.importEntries(of: hydration.user, { settings, kinds in
            try Self.entries(rows, settings: settings, kinds: kinds)
        }, check: { day, total, settings in
            do {
                try DailyTotal.checkImported(total, on: day, unit: settings.unit)
            } catch {
                // Refused: the removals of that day, by their lines in the file.
                let lines = rows.filter { $0.type == .removal && ($0.day ?? LocalDate(containing: $0.at, in: settings.zone)) == day }.map(\.line)
                let named = "line\(lines.count == 1 ? "" : "s") " + lines.prefix(DrinkCSV.namedErrors).map(String.init).joined(separator: ", ")
                do {
                    try DailyTotal.checkImported(total, on: day, unit: settings.unit, lines: named)
                } catch let error as TallyError {
                    throw TallyError.invalid("Nothing was imported. " + error.message)
                }
            }
        })
        return DrinkCSVImportReport(drinksAdded: added.drinks, removalsAdded: added.removals,
                                    alreadyThere: rows.count - added.drinks - added.removals, newKinds: added.newKinds)
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
                    throw TallyError.invalid("Nothing was imported: line \(row.line), column kind: \(error.message)")
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
    /// What the import did, in sentences for a person.
    public var sentences: [String] {
        EntryCountSentences.sentences("Imported", drinks: drinksAdded, removals: removalsAdded, alreadyThere: alreadyThere, newKinds: newKinds)
    }
}
