import Foundation
import TallyAPI
import TallyCore
import TallyImport
import TallyRepositories
import TallyServices

/// What the hydration commands need: one user's tally, kept in the local database or on a Tally
/// server. Both answer with the same TallyCore and TallyStore values, so that a command prints
/// the same text and JSON whichever it runs against. Neither holds rules of its own: the
/// service (locally or inside the server) applies them.
package protocol HydrationBackend: Sendable {
    func settings() async throws -> HydrationSettings

    func logDrink(_ drink: HydrationService.Drink) async throws -> EntryResult
    func remove(_ volume: VolumeAmount, at: Date?, id: UUID?) async throws -> EntryResult
    /// The entry whose id is `reference` or starts with it.
    func resolveEntryID(_ reference: String) async throws -> UUID
    func deleteEntry(id: UUID) async throws -> DeletedEntry
    func editDrink(id: UUID, _ change: IntakeChange) async throws -> EntryResult

    /// A day; today when `date` is nil.
    func daySummary(on date: LocalDate?) async throws -> DaySummary
    func history(days: Int, month: YearMonth?) async throws -> HydrationHistory

    func goalStatus() async throws -> GoalStatus
    func setGoal(_ choice: GoalChoice) async throws -> GoalStatus
    func calculateGoal(for profile: Profile) async throws -> GoalBreakdown
    func setProfile(_ profile: Profile?) async throws -> GoalStatus

    /// All kinds, retired ones included.
    func drinkKinds() async throws -> [DrinkKind]
    func addDrinkKind(name: String, factor: Double) async throws -> DrinkKind
    func renameDrinkKind(_ name: String, to newName: String) async throws -> DrinkKind
    func retireDrinkKind(_ name: String) async throws -> DrinkKind
    func setFactor(of name: String, to factor: Double) async throws -> DrinkKind
    /// All kinds afterwards.
    func useFactors(_ set: DrinkFactorSet) async throws -> [DrinkKind]

    func setUnit(_ unit: VolumeUnit) async throws -> HydrationSettings
    func setTimeZone(_ identifier: String) async throws -> HydrationSettings
    /// 3 or 4 amounts, or nil for the unit's defaults.
    func setPresets(_ amountsMl: [Double]?) async throws -> HydrationSettings

    func bottle() async throws -> Bottle
    func sip() async throws -> BottleResult
    func fillBottle() async throws -> Bottle
    func adjustBottle(capacityMl: Double?, levelMl: Double?, sipMl: Double?) async throws -> Bottle

    /// The reminder settings as stored, the windows they lead to and the times to come (H11).
    func reminders() async throws -> RemindersView
    func saveReminders(_ settings: ReminderSettings) async throws -> RemindersView

    /// Apple Health's export.zip or export.xml (A2).
    func importAppleHealth(_ file: URL) async throws -> AppleHealthImporter.Report
    /// Lets the imported drinks deleted since come back with the next import (A2).
    func forgetDeletedImports() async throws -> ForgottenImports

    // MARK: - CSV of drinks (A2)

    /// Writes every drink and removal as CSV, a piece at a time.
    func exportCSV(_ write: (Data) async throws -> Void) async throws
    /// Brings in a CSV of drinks, all or nothing; `unit` for a file that does not say it.
    func importCSV(_ file: URL, unit: VolumeUnit?) async throws -> DrinkCSVImportReport
}

/// The local database, through the same service the server uses.
struct LocalHydration: HydrationBackend {
    let service: HydrationService

    func settings() async throws -> HydrationSettings { try await service.settings() }

    func logDrink(_ drink: HydrationService.Drink) async throws -> EntryResult { try await service.logDrinkResult(drink) }

    func remove(_ volume: VolumeAmount, at: Date?, id: UUID?) async throws -> EntryResult {
        let (removal, created) = try await service.remove(volume, at: at, id: id)
        return try await service.result(.removal(removal), created: created)
    }

    func resolveEntryID(_ reference: String) async throws -> UUID { try await service.resolveEntryID(reference) }

    func deleteEntry(id: UUID) async throws -> DeletedEntry {
        let entry = try await service.deleteEntry(id: id)
        return try await service.deleted(entry)
    }

    func editDrink(id: UUID, _ change: IntakeChange) async throws -> EntryResult {
        let intake = try await service.editDrink(id: id, change)
        return try await service.result(.intake(intake), created: false)
    }

    func daySummary(on date: LocalDate?) async throws -> DaySummary { try await service.daySummary(on: date) }

    func history(days: Int, month: YearMonth?) async throws -> HydrationHistory {
        try await service.history(days: days, month: month)
    }

    func goalStatus() async throws -> GoalStatus { try await service.goalStatus() }
    func setGoal(_ choice: GoalChoice) async throws -> GoalStatus { try await service.setGoal(choice) }
    func calculateGoal(for profile: Profile) async throws -> GoalBreakdown { GoalCalculator.goal(for: profile) }
    func setProfile(_ profile: Profile?) async throws -> GoalStatus { try await service.setProfile(profile) }

    func drinkKinds() async throws -> [DrinkKind] { try await service.drinkKinds() }

    func addDrinkKind(name: String, factor: Double) async throws -> DrinkKind {
        try await service.addDrinkKind(name: name, factor: factor)
    }

    func renameDrinkKind(_ name: String, to newName: String) async throws -> DrinkKind {
        try await service.renameDrinkKind(name, to: newName)
    }

    func retireDrinkKind(_ name: String) async throws -> DrinkKind { try await service.retireDrinkKind(name) }

    func setFactor(of name: String, to factor: Double) async throws -> DrinkKind {
        try await service.setFactor(of: name, to: factor)
    }

    func useFactors(_ set: DrinkFactorSet) async throws -> [DrinkKind] { try await service.useFactors(set) }

    func setUnit(_ unit: VolumeUnit) async throws -> HydrationSettings { try await service.setUnit(unit) }
    func setTimeZone(_ identifier: String) async throws -> HydrationSettings { try await service.setTimeZone(identifier) }
    func setPresets(_ amountsMl: [Double]?) async throws -> HydrationSettings { try await service.setPresets(amountsMl) }

    func bottle() async throws -> Bottle { try await service.bottle() }
    func sip() async throws -> BottleResult { try await service.sip() }
    func fillBottle() async throws -> Bottle { try await service.fillBottle() }

    func adjustBottle(capacityMl: Double?, levelMl: Double?, sipMl: Double?) async throws -> Bottle {
        try await service.adjustBottle(capacityMl: capacityMl, levelMl: levelMl, sipMl: sipMl)
    }

    func reminders() async throws -> RemindersView { try await service.reminders() }
    func saveReminders(_ settings: ReminderSettings) async throws -> RemindersView { try await service.saveReminders(settings) }

    func importAppleHealth(_ file: URL) async throws -> AppleHealthImporter.Report {
        try await AppleHealthImporter(hydration: service).importExport(try AppleHealthExport.read(contentsOf: file))
    }

    func forgetDeletedImports() async throws -> ForgottenImports { try await service.forgetDeletedImports() }

    func exportCSV(_ write: (Data) async throws -> Void) async throws { try await DrinkCSV.export(service, write: write) }

    func importCSV(_ file: URL, unit: VolumeUnit?) async throws -> DrinkCSVImportReport {
        guard FileManager.default.isReadableFile(atPath: file.path), let stream = InputStream(url: file) else { throw DrinkCSV.missing(file) }
        return try await DrinkCSVImporter(hydration: service).importCSV(stream, unit: unit)
    }
}
