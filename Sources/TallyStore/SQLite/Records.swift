import Foundation
import GRDB
import TallyCore

// The rows of the SQLite schema: plain structs, converted to and from TallyCore's values here
// and nowhere else.

struct UserRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "user"
    var id: UUID
    var name: String
    var createdAt: Date
    var unit: String
    var timeZone: String
    var presets: String?
    var age: Int?
    var weightKg: Double?
    var activity: String?
    var passwordHash: String?
    var isAdmin: Bool
    var disabledAt: Date?
    var bottleCapacityMl: Double?
    var bottleLevelMl: Double?
    var bottleSipMl: Double?
    /// ReminderSettings as JSON.
    var reminders: String?
    var calendarSecretHash: Data?

    enum Columns {
        static let name = Column(CodingKeys.name)
    }

    init(_ user: User, settings: HydrationSettings) {
        id = user.id
        name = user.name
        createdAt = user.createdAt
        unit = settings.unit.rawValue
        timeZone = settings.timeZone
        isAdmin = false
        apply(settings)
    }

    var user: User { User(id: id, name: name, createdAt: createdAt) }

    var bottle: Bottle {
        guard let bottleCapacityMl, let bottleLevelMl, let bottleSipMl else { return .standard }
        return Bottle(capacityMl: bottleCapacityMl, levelMl: bottleLevelMl, sipMl: bottleSipMl)
    }

    var reminderSettings: ReminderSettings {
        reminders.flatMap { try? JSONDecoder().decode(ReminderSettings.self, from: Data($0.utf8)) } ?? .standard
    }

    mutating func apply(_ bottle: Bottle) {
        bottleCapacityMl = bottle.capacityMl
        bottleLevelMl = bottle.levelMl
        bottleSipMl = bottle.sipMl
    }

    var account: Account? {
        passwordHash.map {
            Account(user: user, passwordHash: $0, isAdmin: isAdmin, disabledAt: disabledAt)
        }
    }

    var settings: HydrationSettings {
        let amounts = presets.flatMap { try? JSONDecoder().decode([Double].self, from: Data($0.utf8)) }
        return HydrationSettings(
            unit: VolumeUnit(rawValue: unit) ?? .ml,
            timeZone: timeZone,
            customPresets: amounts.flatMap { try? Presets(amountsMl: $0, unit: .ml) })
    }

    mutating func apply(_ settings: HydrationSettings) {
        unit = settings.unit.rawValue
        timeZone = settings.timeZone
        presets = settings.customPresets.map { String(decoding: try! JSONEncoder().encode($0.amountsMl), as: UTF8.self) }
    }

    var profile: Profile? {
        guard let age, let weightKg, let activity = activity.flatMap(ActivityLevel.init(rawValue:)) else { return nil }
        return try? Profile(age: age, weightKg: weightKg, activity: activity)
    }

    mutating func apply(_ profile: Profile?) {
        age = profile?.age
        weightKg = profile?.weightKg
        activity = profile?.activity.rawValue
    }
}

struct DrinkKindRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "drinkKind"
    var id: UUID
    var userId: UUID
    var name: String
    var factor: Double
    var isBuiltIn: Bool
    var isRetired: Bool

    enum Columns {
        static let userId = Column(CodingKeys.userId)
        static let isBuiltIn = Column(CodingKeys.isBuiltIn)
        static let name = Column(CodingKeys.name)
    }

    init(_ kind: DrinkKind, userId: UUID) {
        id = kind.id
        self.userId = userId
        name = kind.name
        factor = kind.factor
        isBuiltIn = kind.isBuiltIn
        isRetired = kind.isRetired
    }

    var kind: DrinkKind {
        DrinkKind(id: id, name: name, factor: factor, isBuiltIn: isBuiltIn, isRetired: isRetired)
    }
}

struct IntakeRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "intake"
    var id: UUID
    var userId: UUID
    var at: Date
    var day: Int
    var volumeMl: Double
    var kindId: UUID
    var factor: Double
    var effectiveMl: Double
    var note: String?
    var source: String

    enum Columns {
        static let userId = Column(CodingKeys.userId)
        static let day = Column(CodingKeys.day)
        static let at = Column(CodingKeys.at)
    }

    init(_ intake: Intake, userId: UUID) {
        id = intake.id
        self.userId = userId
        at = intake.at
        day = intake.day.number
        volumeMl = intake.volumeMl
        kindId = intake.kindID
        factor = intake.factor
        effectiveMl = intake.effectiveMl
        note = intake.note
        source = intake.source.rawValue
    }

    func intake(kindName: String) -> Intake {
        var intake = Intake(
            id: id, at: at, day: LocalDate(number: day), volumeMl: volumeMl,
            kind: DrinkKind(id: kindId, name: kindName, factor: factor),
            note: note, source: IntakeSource(rawValue: source) ?? .manual)
        // The stored effective amount is the record: never recompute it.
        intake.effectiveMl = effectiveMl
        return intake
    }
}

/// An intake row with its kind's current name.
struct IntakeRow: Decodable, FetchableRecord {
    var intake: IntakeRecord
    var kindName: String

    init(row: Row) throws {
        intake = try IntakeRecord(row: row)
        kindName = row["kindName"]
    }

    static let select = "SELECT intake.*, drinkKind.name AS kindName FROM intake JOIN drinkKind ON drinkKind.id = intake.kindId"

    var value: Intake { intake.intake(kindName: kindName) }
}

struct RemovalRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "removal"
    var id: UUID
    var userId: UUID
    var at: Date
    var day: Int
    var volumeMl: Double

    init(_ removal: Removal, userId: UUID) {
        id = removal.id
        self.userId = userId
        at = removal.at
        day = removal.day.number
        volumeMl = removal.volumeMl
    }

    var removal: Removal { Removal(id: id, at: at, day: LocalDate(number: day), volumeMl: volumeMl) }
}

struct GoalRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "goal"
    var userId: UUID
    var startDay: Int
    var endDay: Int?
    var mode: String
    var targetMl: Double?

    init(_ period: GoalPeriod, userId: UUID) {
        self.userId = userId
        startDay = period.start.number
        endDay = period.end?.number
        mode = period.goal.mode.rawValue
        targetMl = period.goal.targetMl
    }

    var period: GoalPeriod {
        GoalPeriod(start: LocalDate(number: startDay), end: endDay.map(LocalDate.init(number:)),
                   goal: Goal(mode: Goal.Mode(rawValue: mode) ?? .automatic, targetMl: targetMl))
    }
}

extension LocalDate {
    /// The day as stored: the number YYYYMMDD, which sorts and compares like the day.
    var number: Int { year * 10_000 + month * 100 + day }

    init(number: Int) {
        self.init(year: number / 10_000, month: number / 100 % 100, day: number % 100)!
    }
}

// Rows read column by column on the paths every request takes: GRDB's Codable decoding of a row
// cost more than the query itself (bench/server.sh). The columns and their meaning are the
// Codable ones.

extension UserRecord {
    init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        createdAt = row["createdAt"]
        unit = row["unit"]
        timeZone = row["timeZone"]
        presets = row["presets"]
        age = row["age"]
        weightKg = row["weightKg"]
        activity = row["activity"]
        passwordHash = row["passwordHash"]
        isAdmin = row["isAdmin"]
        disabledAt = row["disabledAt"]
        bottleCapacityMl = row["bottleCapacityMl"]
        bottleLevelMl = row["bottleLevelMl"]
        bottleSipMl = row["bottleSipMl"]
        reminders = row["reminders"]
        calendarSecretHash = row["calendarSecretHash"]
    }
}

extension DrinkKindRecord {
    init(row: Row) throws {
        id = row["id"]
        userId = row["userId"]
        name = row["name"]
        factor = row["factor"]
        isBuiltIn = row["isBuiltIn"]
        isRetired = row["isRetired"]
    }
}

extension IntakeRecord {
    init(row: Row) throws {
        id = row["id"]
        userId = row["userId"]
        at = row["at"]
        day = row["day"]
        volumeMl = row["volumeMl"]
        kindId = row["kindId"]
        factor = row["factor"]
        effectiveMl = row["effectiveMl"]
        note = row["note"]
        source = row["source"]
    }
}

extension RemovalRecord {
    init(row: Row) throws {
        id = row["id"]
        userId = row["userId"]
        at = row["at"]
        day = row["day"]
        volumeMl = row["volumeMl"]
    }
}
