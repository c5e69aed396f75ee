import Foundation
import TallyAPI
import TallyCore
import TallyRepositories

/// One user's hydration tally: what the CLI and the server call. It reads the clock, applies
/// TallyCore's rules and asks the store to keep each change atomic; it holds no rules of its own.
public struct HydrationService: Sendable {
    public let store: any HydrationStore
    public let clock: any WallClock
    public let user: UUID

    public init(store: any HydrationStore, clock: any WallClock, user: UUID) {
        self.store = store
        self.clock = clock
        self.user = user
    }

    /// The user's settings with the zone their days are counted in.
    public func settings() async throws -> HydrationSettings {
        try await store.settings(of: user)
    }

    /// The user's local day now.
    public func today() async throws -> LocalDate {
        LocalDate(containing: clock.now, in: try await settings().zone)
    }

    // MARK: - Drinks and removals (H1–H3)

    public struct Drink: Sendable {
        public var volume: VolumeAmount
        public var kindName: String?
        public var at: Date?
        public var note: String?
        public var id: UUID?
        public var source: IntakeSource

        public init(volumeMl: Double, kindName: String? = nil, at: Date? = nil, note: String? = nil,
                    id: UUID? = nil, source: IntakeSource = .manual) {
            self.init(volume: .milliliters(volumeMl), kindName: kindName, at: at, note: note, id: id, source: source)
        }

        /// A volume in millilitres, or as typed in the user's unit.
        public init(volume: VolumeAmount, kindName: String? = nil, at: Date? = nil, note: String? = nil,
                    id: UUID? = nil, source: IntakeSource = .manual) {
            self.volume = volume
            self.kindName = kindName
            self.at = at
            self.note = note
            self.id = id
            self.source = source
        }
    }

    /// Logs a drink. A repeated id returns the drink stored under it, never a second one (H1).
    @discardableResult
    public func logDrink(_ drink: Drink) async throws -> (intake: Intake, created: Bool) {
        let logged = try await logDrinkWithProgress(drink)
        return (logged.intake, logged.created)
    }

    /// Logs a drink and gives its day's progress after it: the settings, the kinds, the write and
    /// the progress in one write transaction.
    public func logDrinkResult(_ drink: Drink) async throws -> EntryResult {
        let logged = try await logDrinkWithProgress(drink)
        return EntryResult(created: logged.created, entry: .intake(logged.intake), day: logged.day, unit: logged.unit)
    }

    private func logDrinkWithProgress(_ drink: Drink) async throws -> LoggedIntake {
        let now = clock.now
        return try await store.logIntake(of: user) { settings, kinds in
            let volumeMl = try drink.volume.milliliters(defaultUnit: settings.unit)
            try EntryVolume.validate(volumeMl, unit: settings.unit, what: Phrase("A drink"))
            let note = try Intake.validate(note: drink.note)
            let at = drink.at ?? now
            try EntryTime.checkNotFuture(at, now: now)
            let kind = try Self.activeKind(named: drink.kindName ?? DrinkKind.defaultName, among: kinds)
            return Intake(id: drink.id ?? UUID(), at: at, day: LocalDate(containing: at, in: settings.zone),
                          volumeMl: volumeMl, kind: kind, note: note, source: drink.source)
        }
    }

    /// Takes water off the day it is logged on, never below zero (H3).
    @discardableResult
    public func remove(volumeMl: Double, at: Date? = nil, id: UUID? = nil) async throws -> (removal: Removal, created: Bool) {
        try await remove(.milliliters(volumeMl), at: at, id: id)
    }

    /// A removal of a volume in millilitres, or as typed in the user's unit: the settings, the
    /// check and the write in one transaction.
    public func remove(_ volume: VolumeAmount, at: Date? = nil, id: UUID? = nil) async throws -> (removal: Removal, created: Bool) {
        let now = clock.now
        return try await store.addRemoval(of: user, { settings in
            let volumeMl = try volume.milliliters(defaultUnit: settings.unit)
            try EntryVolume.validate(volumeMl, unit: settings.unit, what: Phrase("A removal"))
            let at = at ?? now
            try EntryTime.checkNotFuture(at, now: now)
            return Removal(id: id ?? UUID(), at: at, day: LocalDate(containing: at, in: settings.zone), volumeMl: volumeMl)
        }, check: { removal, settings, total in
            try DailyTotal.checkRemoval(removal.volumeMl, from: total, unit: settings.unit)
        })
    }

    /// Edits a drink. A new kind brings its current factor; an edit that would leave the drink's
    /// old day below zero is refused (H3). Checked and written in one transaction.
    public func editDrink(id: UUID, _ change: IntakeChange) async throws -> Intake {
        let note = try change.note.change.map { try Intake.validate(note: $0) }
        if let at = change.at { try EntryTime.checkNotFuture(at, now: clock.now) }
        return try await store.updateIntake(id: id, of: user) { current, dayTotal, settings, kinds in
            if let volume = change.volumeMl { try EntryVolume.validate(volume, unit: settings.unit, what: Phrase("A drink")) }
            let newKind = try change.kind.map { try Self.activeKind(named: $0, among: kinds) }
            var edited = Intake(
                id: current.id, at: change.at ?? current.at, day: current.day,
                volumeMl: change.volumeMl ?? current.volumeMl,
                kind: newKind ?? DrinkKind(id: current.kindID, name: current.kindName, factor: current.factor),
                note: note ?? current.note, source: current.source)
            if let at = change.at { edited.day = LocalDate(containing: at, in: settings.zone) }
            if newKind == nil && change.volumeMl == nil { edited.effectiveMl = current.effectiveMl }
            let lost = edited.day == current.day ? current.effectiveMl - edited.effectiveMl : current.effectiveMl
            try DailyTotal.checkDrinkChange(losing: lost, from: dayTotal, unit: settings.unit)
            return edited
        }
    }

    /// Deletes a drink or a removal; deleting a drink that removals depend on is refused (H3).
    @discardableResult
    public func deleteEntry(id: UUID) async throws -> DayEntry {
        try await store.deleteEntry(id: id, of: user) { entry, dayTotal, settings in
            if case .intake(let intake) = entry {
                try DailyTotal.checkDrinkChange(losing: intake.effectiveMl, from: dayTotal, unit: settings.unit)
            }
        }
    }

    /// The entry whose id is `reference` or starts with it (at least 4 characters, as shown by
    /// `today`); an ambiguous or unknown reference says so.
    public func resolveEntryID(_ reference: String) async throws -> UUID {
        try await Self.resolveEntryID(reference) { prefix in
            try await store.entryIDs(startingWith: prefix, of: user, limit: 2)
        }
    }

    /// The rules of `resolveEntryID(_:)` over any source of entries: `matching` gives up to two
    /// ids that start with the reference (a client of the API looks through recent days).
    public static func resolveEntryID(_ reference: String, matching: (String) async throws -> [UUID]) async throws -> UUID {
        if let id = UUID(uuidString: reference) { return id }
        guard reference.count >= 4 else {
            throw TallyError.invalid("Give at least the first 4 characters of the entry's id, as `today` shows it.")
        }
        let matches = try await matching(reference)
        switch matches.count {
        case 0: throw TallyError.notFound("There is no entry whose id starts with \(reference).")
        case 1: return matches[0]
        default: throw TallyError.invalid("More than one entry's id starts with \(reference); give more of it.")
        }
    }

    // MARK: - Views (H2, H9, H12)

    /// A day's total, goal and entries; today when `date` is nil.
    public func daySummary(on date: LocalDate? = nil) async throws -> DaySummary {
        let now = clock.now
        let snapshot = try await store.daySnapshot(of: user) { settings in
            date ?? LocalDate(containing: now, in: settings.zone)
        }
        return DaySummary(date: snapshot.day, entries: snapshot.entries, goal: snapshot.goals.goal(on: snapshot.day),
                          unit: snapshot.settings.unit)
    }

    /// Moves on with every change to the drinks and removals of `day`, from any instance.
    public func dayRevision(on day: LocalDate) async throws -> Int64 {
        try await store.dayRevision(of: user, on: day)
    }

    /// The last `days` days, a month's calendar (this month when nil) and the streaks.
    public func history(days: Int = 7, month: YearMonth? = nil) async throws -> HydrationHistory {
        guard HydrationHistory.dayCountRange.contains(days) else {
            throw TallyError.invalid("History covers 1 to 366 days; \(days) is out of range.")
        }
        let today = try await today()
        let totals = try await store.dailyTotals(of: user, from: nil, through: nil)
        let goals = try await store.goalHistory(of: user)
        return HydrationHistory(today: today, dayCount: days, month: month ?? today.yearMonth,
                                totals: totals, goals: goals)
    }

    // MARK: - Drink kinds (H6)

    public func drinkKinds() async throws -> [DrinkKind] {
        try await store.drinkKinds(of: user)
    }

    /// The kind not retired whose name is `name` in any case, or an error that lists the kinds.
    public static func activeKind(named name: String, among allKinds: [DrinkKind]) throws -> DrinkKind {
        let kinds = allKinds.filter { !$0.isRetired }
        guard let kind = kinds.first(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) else {
            throw TallyError.notFound(
                "There is no drink kind named \(name); the kinds are \(kinds.map(\.name).joined(separator: ", ")).")
        }
        return kind
    }

    @discardableResult
    public func addDrinkKind(name: String, factor: Double) async throws -> DrinkKind {
        let kind = DrinkKind(name: try DrinkKind.validate(name: name, factor: factor), factor: factor)
        try await store.saveDrinkKind(kind, of: user)
        return kind
    }

    @discardableResult
    public func renameDrinkKind(_ name: String, to newName: String) async throws -> DrinkKind {
        try await changeKind { kinds in
            var kind = try Self.ownKind(named: name, among: kinds, changing: .rename)
            kind.name = try DrinkKind.validate(name: newName, factor: kind.factor)
            return kind
        }
    }

    /// Retires a kind the user added: past drinks keep it, new ones cannot use it.
    @discardableResult
    public func retireDrinkKind(_ name: String) async throws -> DrinkKind {
        try await changeKind { kinds in
            var kind = try Self.ownKind(named: name, among: kinds, changing: .retire)
            kind.isRetired = true
            return kind
        }
    }

    /// Sets a kind's factor; only new drinks get it (H1).
    @discardableResult
    public func setFactor(of name: String, to factor: Double) async throws -> DrinkKind {
        try await changeKind { kinds in
            var kind = try Self.activeKind(named: name, among: kinds)
            _ = try DrinkKind.validate(name: kind.name, factor: factor)
            kind.factor = factor
            return kind
        }
    }

    /// Gives the built-in kinds the factors of `set` (standard or the Beverage Hydration Index).
    public func useFactors(_ set: DrinkFactorSet) async throws -> [DrinkKind] {
        try await store.changeDrinkKinds(of: user) { kinds in
            let updated = kinds.map { kind in
                var kind = kind
                if kind.isBuiltIn, let factor = set.factors.first(where: { $0.key == kind.name })?.value { kind.factor = factor }
                return kind
            }
            return (save: updated.filter(\.isBuiltIn), answer: updated)
        }
    }

    /// Changes a kind found by id: its name and retirement (kinds the user added only) and its
    /// factor (any kind; new drinks only).
    public func changeDrinkKind(id: UUID, name: String? = nil, factor: Double? = nil, retired: Bool? = nil) async throws -> DrinkKind {
        try await changeKind { kinds in
            guard var kind = kinds.first(where: { $0.id == id }) else {
                throw TallyError.notFound("There is no drink kind with the id \(id).")
            }
            if name != nil || retired != nil { try Self.checkOwn(kind, changing: name != nil ? .rename : .retire) }
            kind.name = try DrinkKind.validate(name: name ?? kind.name, factor: factor ?? kind.factor)
            kind.factor = factor ?? kind.factor
            kind.isRetired = retired ?? kind.isRetired
            return kind
        }
    }

    /// One kind changed in one transaction, from the kinds as they stand.
    private func changeKind(_ change: @escaping @Sendable ([DrinkKind]) throws -> DrinkKind) async throws -> DrinkKind {
        try await store.changeDrinkKinds(of: user) { kinds in
            let kind = try change(kinds)
            return (save: [kind], answer: kind)
        }
    }

    /// What only a kind the user added may have done to it.
    private enum KindChange { case rename, retire }

    private static func ownKind(named name: String, among kinds: [DrinkKind], changing change: KindChange) throws -> DrinkKind {
        let kind = try activeKind(named: name, among: kinds)
        try checkOwn(kind, changing: change)
        return kind
    }

    private static func checkOwn(_ kind: DrinkKind, changing change: KindChange) throws {
        guard !kind.isBuiltIn else {
            switch change {
            case .rename: throw TallyError.invalid("\(kind.name) is a built-in kind and cannot be renamed; only kinds you added can.")
            case .retire: throw TallyError.invalid("\(kind.name) is a built-in kind and cannot be retired; only kinds you added can.")
            }
        }
    }

    // MARK: - Settings (H2, H4, H5)

    public func setUnit(_ unit: VolumeUnit) async throws -> HydrationSettings {
        try await changeSettings(unit: unit, timeZone: nil)
    }

    public func setTimeZone(_ identifier: String) async throws -> HydrationSettings {
        try await changeSettings(unit: nil, timeZone: identifier)
    }

    /// Sets 3 or 4 preset amounts, or goes back to the unit's defaults with nil; checked against
    /// the unit in force when they are saved.
    public func setPresets(_ amountsMl: [Double]?) async throws -> HydrationSettings {
        try await store.changeSettings(of: user) { settings in
            settings.customPresets = try amountsMl.map { try Presets(amountsMl: $0, unit: settings.unit) }
        }
    }

    /// Changes the unit, the time zone or both, all or nothing: a bad zone leaves the unit as it was.
    public func changeSettings(unit: VolumeUnit?, timeZone: String?) async throws -> HydrationSettings {
        let zone = try timeZone.map(UserTimeZone.validated)
        return try await store.changeSettings(of: user) { settings in
            if let unit { settings.unit = unit }
            if let zone { settings.timeZone = zone }
        }
    }
}
