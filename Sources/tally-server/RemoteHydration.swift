import Foundation
import TallyAPI
import TallyCommands
import TallyCore
import TallyImport
import TallyRepositories
import TallyServices

/// A Tally server's JSON API (openapi.yaml), as the signed-in holder of a personal API token.
/// The server applies every rule; this only sends the routes of TallyAPI and gives back their
/// answers.
struct RemoteHydration: HydrationBackend {
    let client: APIClient

    func settings() async throws -> HydrationSettings {
        try await client.send(API.settings).settings()
    }

    // MARK: - Entries

    func logDrink(_ drink: HydrationService.Drink) async throws -> EntryResult {
        try await client.send(API.logDrink, body: NewIntake(id: drink.id, volume: drink.volume, kind: drink.kindName,
                                                            at: drink.at, note: drink.note))
    }

    func remove(_ volume: VolumeAmount, at: Date?, id: UUID?) async throws -> EntryResult {
        try await client.send(API.remove, body: NewRemoval(id: id, volume: volume, at: at))
    }

    /// A full id goes to the server as it is; a prefix is looked for among the entries of today
    /// (the server's) and the 30 days before, the most recent day first.
    func resolveEntryID(_ reference: String) async throws -> UUID {
        try await HydrationService.resolveEntryID(reference) { prefix in
            let hex = prefix.replacingOccurrences(of: "-", with: "").uppercased()
            guard !hex.isEmpty, hex.allSatisfy(\.isHexDigit) else { return [] }
            func matches(_ entries: [DayEntry]) -> [UUID] {
                entries.map(\.id).filter { $0.uuidString.replacingOccurrences(of: "-", with: "").hasPrefix(hex) }
            }
            let today = try await daySummary(on: nil)
            var found = matches(today.entries)
            var daysBack = 1
            while found.isEmpty && daysBack <= Self.daysSearchedForPrefixes {
                found = matches(try await entries(on: today.date.adding(days: -daysBack)))
                daysBack += 1
            }
            return Array(found.prefix(2))
        }
    }

    static let daysSearchedForPrefixes = 30

    /// Every entry of a day, following the pages.
    private func entries(on day: LocalDate) async throws -> [DayEntry] {
        var entries: [DayEntry] = []
        var cursor: String?
        repeat {
            var query = [URLQueryItem(name: "date", value: "\(day)"), URLQueryItem(name: "limit", value: "500")]
            if let cursor { query.append(URLQueryItem(name: "cursor", value: cursor)) }
            let page = try await client.send(API.entries, query: query)
            entries += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return entries
    }

    func deleteEntry(id: UUID) async throws -> DeletedEntry {
        try await client.send(API.deleteEntry, id)
    }

    func editDrink(id: UUID, _ change: IntakeChange) async throws -> EntryResult {
        try await client.send(API.editDrink, id, body: change)
    }

    // MARK: - Days

    func daySummary(on date: LocalDate?) async throws -> DaySummary {
        if let date { return try await client.send(API.day, date) }
        return try await client.send(API.today)
    }

    func history(days: Int, month: YearMonth?) async throws -> HydrationHistory {
        var query = [URLQueryItem(name: "days", value: String(days))]
        if let month { query.append(URLQueryItem(name: "month", value: "\(month)")) }
        return try await client.send(API.history, query: query)
    }

    // MARK: - Goal and profile

    func goalStatus() async throws -> GoalStatus { try await client.send(API.goal) }
    func setGoal(_ choice: GoalChoice) async throws -> GoalStatus { try await client.send(API.setGoal, body: GoalChange(choice)) }
    func calculateGoal(for profile: Profile) async throws -> GoalBreakdown { try await client.send(API.calculateGoal, body: profile) }

    func setProfile(_ profile: Profile?) async throws -> GoalStatus {
        if let profile { return try await client.send(API.setProfile, body: profile) }
        return try await client.send(API.clearProfile)
    }

    // MARK: - Drink kinds

    func drinkKinds() async throws -> [DrinkKind] { try await client.send(API.kinds) }

    func addDrinkKind(name: String, factor: Double) async throws -> DrinkKind {
        try await client.send(API.addKind, body: NewKind(name: name, factor: factor))
    }

    func renameDrinkKind(_ name: String, to newName: String) async throws -> DrinkKind {
        try await changeKind(named: name, KindChange(name: newName))
    }

    func retireDrinkKind(_ name: String) async throws -> DrinkKind {
        try await changeKind(named: name, KindChange(retired: true))
    }

    func setFactor(of name: String, to factor: Double) async throws -> DrinkKind {
        try await changeKind(named: name, KindChange(factor: factor))
    }

    /// The API changes kinds by id: find the active kind of that name as the service would, and
    /// let the server judge the change (built-in kinds keep their names, factor range…).
    private func changeKind(named name: String, _ change: KindChange) async throws -> DrinkKind {
        let kind = try HydrationService.activeKind(named: name, among: try await drinkKinds())
        return try await client.send(API.changeKind, kind.id, body: change)
    }

    func useFactors(_ set: DrinkFactorSet) async throws -> [DrinkKind] {
        try await client.send(API.useFactors, body: FactorSetChange(set: set))
    }

    // MARK: - Settings

    func setUnit(_ unit: VolumeUnit) async throws -> HydrationSettings {
        try await client.send(API.changeSettings, body: SettingsChange(unit: unit)).settings()
    }

    func setTimeZone(_ identifier: String) async throws -> HydrationSettings {
        try await client.send(API.changeSettings, body: SettingsChange(timeZone: identifier)).settings()
    }

    func setPresets(_ amountsMl: [Double]?) async throws -> HydrationSettings {
        try await client.send(API.setPresets, body: PresetsChange(amountsMl: amountsMl)).settings()
    }

    // MARK: - Bottle

    func bottle() async throws -> Bottle { try await client.send(API.bottle) }
    // The id makes a sip the network repeats count once.
    func sip() async throws -> BottleResult { try await client.send(API.sip, body: SipRequest(id: UUID())) }
    func fillBottle() async throws -> Bottle { try await client.send(API.fillBottle) }

    func adjustBottle(capacityMl: Double?, levelMl: Double?, sipMl: Double?) async throws -> Bottle {
        try await client.send(API.changeBottle, body: BottleChange(levelMl: levelMl, capacityMl: capacityMl, sipMl: sipMl))
    }

    // MARK: - Reminders

    func reminders() async throws -> RemindersView { try await client.send(API.reminders) }
    func saveReminders(_ settings: ReminderSettings) async throws -> RemindersView {
        try await client.send(API.saveReminders, body: settings)
    }

    // MARK: - Apple Health

    func forgetDeletedImports() async throws -> ForgottenImports { try await client.send(API.forgetDeletedImports) }

    func importAppleHealth(_ file: URL) async throws -> AppleHealthImportReport {
        guard FileManager.default.fileExists(atPath: file.path) else { throw AppleHealthExport.missing(file) }
        // The server reads a big export for a while before it answers.
        return try await client.upload(API.importAppleHealth, file: file, contentType: "application/octet-stream", timeout: 30 * 60)
    }

    // MARK: - CSV of drinks

    func exportCSV(_ write: (Data) async throws -> Void) async throws {
        try await client.download(API.exportDrinksCSV, to: write)
    }

    func importCSV(_ file: URL, unit: VolumeUnit?) async throws -> DrinkCSVImportReport {
        guard FileManager.default.isReadableFile(atPath: file.path) else { throw DrinkCSV.missing(file) }
        return try await client.upload(API.importDrinksCSV, file: file, query: unit.map { [URLQueryItem(name: "unit", value: $0.rawValue)] } ?? [],
                                       contentType: "text/csv", timeout: 10 * 60)
    }
}
