import Foundation
import GRDB
import TallyCore
import TallyRepositories

// The rows of the SQLite schema: plain structs, converted to and from TallyCore's values here
// and nowhere else.

/// The account: who the person is and how they sign in. What they set up for themselves is in
/// the tables keyed by their id (migration 14): `userSettings` (one row per user, written with
/// the account), and `userProfile`, `userBottle`, `userReminders` and `userCalendar`, each a row
/// only once the person has set one.
struct UserRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "user"
    var id: UUID
    var name: String
    var createdAt: Date
    /// NULL for a user who cannot sign in (the CLI's local user).
    var passwordHash: String?
    var isAdmin: Bool
    var disabledAt: Date?
    var language: String?

    enum Columns {
        static let name = Column(CodingKeys.name)
    }

    /// The columns by name, never `*`: a statement that a pool's reader prepared before a
    /// migration would keep the old columns of `*` (see `SQLiteStore.init`).
    static var databaseSelection: [any SQLSelectable] {
        [Column("id"), Column("name"), Column("createdAt"), Column("passwordHash"), Column("isAdmin"), Column("disabledAt"), Column("language")]
    }

    init(_ user: User) {
        id = user.id
        name = user.name
        createdAt = user.createdAt
        isAdmin = false
        language = user.language
    }

    var user: User { User(id: id, name: name, createdAt: createdAt, language: language) }

    var account: Account? {
        passwordHash.map {
            Account(user: user, passwordHash: $0, isAdmin: isAdmin, disabledAt: disabledAt)
        }
    }
}

// The parts of a person kept beside the account, read from the columns of their tables by name,
// so that one statement can join them to the account or to each other. A part whose row is
// absent (NULL columns through a LEFT JOIN) reads as its default.

extension User {
    /// From `user.id`, `user.name`, `user.createdAt` and `user.language`.
    init(row: Row) {
        self.init(id: row["id"], name: row["name"], createdAt: StoredDate.date(row["createdAt"]) ?? row["createdAt"],
                  language: row["language"])
    }

    static let columns = "user.id, user.name, user.createdAt, user.language"
}

extension HydrationSettings {
    /// From the columns of `userSettings`.
    init(row: Row) {
        self.init(unitColumn: row["unit"], timeZone: row["timeZone"], presetsColumn: row["presets"])
    }

    static let columns = "userSettings.unit, userSettings.timeZone, userSettings.presets"

    func save(of user: UUID, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO userSettings (userId, unit, timeZone, presets) VALUES (?, ?, ?, ?)
            ON CONFLICT (userId) DO UPDATE SET unit = excluded.unit, timeZone = excluded.timeZone, presets = excluded.presets
            """, arguments: [user, unit.rawValue, timeZone, presetsColumn])
    }
}

extension Profile {
    /// From the columns of `userProfile`; nil without a row (or with values the rules refuse now).
    static func read(_ row: Row) -> Profile? {
        stored(age: row["age"], weightKg: row["weightKg"], activity: row["activity"])
    }

    static let columns = "userProfile.age, userProfile.weightKg, userProfile.activity"

    /// Stores the profile, or removes it (nil).
    static func save(_ profile: Profile?, of user: UUID, _ db: Database) throws {
        guard let profile else {
            try db.execute(sql: "DELETE FROM userProfile WHERE userId = ?", arguments: [user])
            return
        }
        try db.execute(sql: """
            INSERT INTO userProfile (userId, age, weightKg, activity) VALUES (?, ?, ?, ?)
            ON CONFLICT (userId) DO UPDATE SET age = excluded.age, weightKg = excluded.weightKg, activity = excluded.activity
            """, arguments: [user, profile.age, profile.weightKg, profile.activity.rawValue])
    }
}

extension Bottle {
    /// From the columns of `userBottle`; a full standard bottle without a row.
    init(row: Row) {
        self = .stored(capacityMl: row["capacityMl"], levelMl: row["levelMl"], sipMl: row["sipMl"])
    }

    static let columns = "userBottle.capacityMl, userBottle.levelMl, userBottle.sipMl"

    func save(of user: UUID, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO userBottle (userId, capacityMl, levelMl, sipMl) VALUES (?, ?, ?, ?)
            ON CONFLICT (userId) DO UPDATE SET capacityMl = excluded.capacityMl, levelMl = excluded.levelMl, sipMl = excluded.sipMl
            """, arguments: [user, capacityMl, levelMl, sipMl])
    }
}

extension ReminderSettings {
    /// From the columns of `userReminders`; the standard settings without a row.
    init(row: Row) {
        self = .stored(enabled: row["enabled"], wakeMinutes: row["wakeMinutes"], sleepMinutes: row["sleepMinutes"],
                       frequency: row["frequency"], smartThresholdHours: row["smartThresholdHours"],
                       useSleepRecords: row["useSleepRecords"])
    }

    static let columns = """
        userReminders.enabled, userReminders.wakeMinutes, userReminders.sleepMinutes, userReminders.frequency,
        userReminders.smartThresholdHours, userReminders.useSleepRecords
        """

    func save(of user: UUID, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO userReminders (userId, enabled, wakeMinutes, sleepMinutes, frequency, smartThresholdHours, useSleepRecords)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (userId) DO UPDATE SET enabled = excluded.enabled, wakeMinutes = excluded.wakeMinutes,
                sleepMinutes = excluded.sleepMinutes, frequency = excluded.frequency,
                smartThresholdHours = excluded.smartThresholdHours, useSleepRecords = excluded.useSleepRecords
            """, arguments: [user, enabled, window.wake.minutes, window.sleep.minutes, frequency, smartThresholdHours, useSleepRecords])
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

/// A drink as its row is written. Its columns are set one by one rather than through Codable:
/// GRDB's record encoder was 3 % of a drink's CPU, almost half of its insert (perf). Rows are
/// read back as `IntakeRow`.
struct IntakeRecord: PersistableRecord {
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

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["userId"] = userId
        container["at"] = StoredDate.value(at)
        container["day"] = day
        container["volumeMl"] = volumeMl
        container["kindId"] = kindId
        container["factor"] = factor
        container["effectiveMl"] = effectiveMl
        container["note"] = note
        container["source"] = source
    }

    /// Inserts the row with one prepared statement and its values by place: GRDB's record insert
    /// (a container of columns by name, matched to the table's) took 111,000 instructions of a
    /// drink's 1,000,000 (callgrind).
    func insert(into db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO intake (id, userId, at, day, volumeMl, kindId, factor, effectiveMl, note, source)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [id, userId, StoredDate.value(at), day, volumeMl, kindId, factor, effectiveMl, note, source])
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
}

/// An intake row with its kind's current name, read from `select`'s columns by their place: a
/// day's answer reads every drink of the day, and decoding each column by name (through
/// Codable) cost more than the query (bench/server.sh).
struct IntakeRow: FetchableRecord {
    let value: Intake

    static let select = """
        SELECT intake.id, intake.at, intake.day, intake.volumeMl, intake.kindId, drinkKind.name, intake.factor,
        intake.effectiveMl, intake.note, intake.source FROM intake JOIN drinkKind ON drinkKind.id = intake.kindId
        """

    init(row: Row) throws {
        value = .stored(id: try row.decode(atIndex: 0), at: try StoredDate.date(row[1]) ?? row.decode(atIndex: 1), day: LocalDate(number: try row.decode(atIndex: 2)),
                        volumeMl: try row.decode(atIndex: 3), kindID: try row.decode(atIndex: 4), kindName: try row.decode(atIndex: 5),
                        factor: try row.decode(atIndex: 6), effectiveMl: try row.decode(atIndex: 7), note: try row.decode(atIndex: 8),
                        source: try row.decode(atIndex: 9))
    }
}

struct RemovalRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "removal"
    static var databaseDateEncodingStrategy: DatabaseDateEncodingStrategy { .custom(StoredDate.value) }
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
        GoalPeriod(start: LocalDate(number: startDay), end: endDay.map(LocalDate.init(number:)), goal: .stored(mode: mode, targetMl: targetMl))
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
        at = StoredDate.date(row["at"]) ?? row["at"]
        day = row["day"]
        volumeMl = row["volumeMl"]
        kindId = row["kindId"]
        factor = row["factor"]
        effectiveMl = row["effectiveMl"]
        note = row["note"]
        source = row["source"]
    }
}

extension GoalRecord {
    init(row: Row) throws {
        userId = row["userId"]
        startDay = row["startDay"]
        endDay = row["endDay"]
        mode = row["mode"]
        targetMl = row["targetMl"]
    }
}

extension RemovalRecord {
    init(row: Row) throws {
        id = row["id"]
        userId = row["userId"]
        at = StoredDate.date(row["at"]) ?? row["at"]
        day = row["day"]
        volumeMl = row["volumeMl"]
    }
}
