import Foundation
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// Everything of one person in one JSON document (A2): their account's name, settings, profile
/// and goal history, drink kinds, drinks and removals, bottle, reminders, sleep records, and the
/// ledgers they own. `docs/person-backup.schema.json` describes it; `version` says which shape
/// it has, and a Tally reads its own version and older ones.
public struct PersonBackup: Codable, Sendable {
    public static let format = "tally-person-backup"
    /// 2: a drink's kind is `kindID`, as the API spells it (version 1 wrote `kindId`).
    public static let currentVersion = 2

    public var format: String
    public var version: Int
    public var exportedAt: Date
    public var account: Account
    public var settings: HydrationSettings
    @ExplicitNull public var profile: Profile?
    public var goals: [GoalPeriod]
    public var kinds: [DrinkKind]
    public var bottle: Bottle
    public var reminders: ReminderSettings
    public var sleep: [Night]
    /// The ledgers the person owns, each as its JSON export (deleted entries too).
    public var ledgers: [LedgerExport.Document]
    /// Oldest first.
    public var entries: [Entry]

    public struct Account: Codable, Sendable, Equatable {
        public var name: String
        public var createdAt: Date
    }

    /// An asleep interval from Apple Health, and when Tally learned of it.
    public struct Night: Codable, Sendable, Equatable {
        public var start: Date
        public var end: Date
        @ExplicitNull public var importedAt: Date?
    }

    /// A drink or a removal, told apart by `type`.
    public struct Entry: Codable, Sendable, Equatable {
        public var type: DrinkCSV.EntryType
        public var id: UUID
        public var at: Date
        public var day: LocalDate
        public var volumeMl: Double
        /// For a drink: its kind's id among `kinds` and its name, and the factor it was logged with.
        public var kindID: UUID?
        public var kind: String?
        public var factor: Double?
        public var note: String?
        public var source: IntakeSource?

        init(_ entry: DayEntry) {
            switch entry {
            case .intake(let intake):
                (type, id, at, day, volumeMl) = (.drink, intake.id, intake.at, intake.day, intake.volumeMl)
                (kindID, kind, factor, note, source) = (intake.kindID, intake.kindName, intake.factor, intake.note, intake.source)
            case .removal(let removal):
                (type, id, at, day, volumeMl) = (.removal, removal.id, removal.at, removal.day, removal.volumeMl)
            }
        }

        private enum CodingKeys: String, CodingKey {
            case type, id, at, day, volumeMl, kindID, kind, factor, note, source
            /// Version 1's spelling of `kindID`.
            case kindId
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            type = try c.decode(DrinkCSV.EntryType.self, forKey: .type)
            id = try c.decode(UUID.self, forKey: .id)
            at = try c.decode(Date.self, forKey: .at)
            day = try c.decode(LocalDate.self, forKey: .day)
            volumeMl = try c.decode(Double.self, forKey: .volumeMl)
            kindID = try c.decodeIfPresent(UUID.self, forKey: c.contains(.kindID) ? .kindID : .kindId)
            kind = try c.decodeIfPresent(String.self, forKey: .kind)
            factor = try c.decodeIfPresent(Double.self, forKey: .factor)
            note = try c.decodeIfPresent(String.self, forKey: .note)
            source = try c.decodeIfPresent(IntakeSource.self, forKey: .source)
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(type, forKey: .type)
            try c.encode(id, forKey: .id)
            try c.encode(at, forKey: .at)
            try c.encode(day, forKey: .day)
            try c.encode(volumeMl, forKey: .volumeMl)
            // Absent values are written as null: every entry has every key.
            try c.encode(kindID, forKey: .kindID)
            try c.encode(kind, forKey: .kind)
            try c.encode(factor, forKey: .factor)
            try c.encode(note, forKey: .note)
            try c.encode(source, forKey: .source)
        }
    }

    /// The encoder and decoder of the document: ISO 8601 instants (with fractions of a second).
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(InternetTime.text(date, in: TimeZone(identifier: "UTC")!))
        }
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = InternetTime.instant(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(UserText.quoted(text)) is not an ISO 8601 time")
            }
            return date
        }
        return decoder
    }

    /// Reads a backup (parsed once when it is one): a file of another format, or of a newer
    /// version, is refused by name.
    public static func read(_ data: Data) throws -> PersonBackup {
        do {
            let backup = try decoder().decode(PersonBackup.self, from: data)
            try check(format: backup.format, version: backup.version)
            return backup
        } catch let error as DecodingError {
            // Why it is not one this Tally reads: its header says, when it has one.
            struct Header: Decodable { var format: String?; var version: Int? }
            guard let header = try? JSONDecoder().decode(Header.self, from: data) else {
                throw TallyError.invalid("This is not a Tally backup: it is not a JSON object (a file cut short, or another kind of file).")
            }
            try check(format: header.format, version: header.version)
            throw TallyError.invalid("This backup cannot be read: \(Self.describe(error)).")
        }
    }

    private static func check(format: String?, version: Int?) throws {
        guard format == Self.format, let version else {
            throw TallyError.invalid("This is not a Tally backup: its \"format\" is not \"\(Self.format)\". Choose the file that Tally's backup wrote.")
        }
        guard version <= currentVersion else {
            throw TallyError.invalid("This backup is of version \(version); this Tally reads version \(currentVersion) and older. Update Tally to restore it.")
        }
    }

    /// Where in the document a decoding error is, for a person.
    static func describe(_ error: DecodingError) -> Phrase {
        func path(_ context: DecodingError.Context) -> Phrase {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            return keys.isEmpty ? Phrase("the document") : .verbatim(String(keys.drop(while: { $0 == "." })))
        }
        switch error {
        case .keyNotFound(let key, let context): return Phrase("\(path(context)) has no \"\(key.stringValue)\"")
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return Phrase("\(path(context)) is not what it should be")
        case .dataCorrupted(let context): return Phrase("\(path(context)): \(context.debugDescription)")
        @unknown default: return Phrase("it is not a backup Tally knows")
        }
    }
}
