import CSV
import Foundation
import TallyCore

extension DrinkCSV {
    /// One line of a file, read and checked; what depends on the person's kinds (which kind, a
    /// new one?) is settled when it is stored.
    public struct Row: Sendable, Equatable {
        public var line: Int
        public var at: Date
        /// The day the file gives (Tally's own export does): the day the entry was logged on (H2).
        public var day: LocalDate?
        public var type: EntryType
        public var volumeMl: Double
        public var kindName: String?
        public var factor: Double?
        public var note: String?
        public var source: IntakeSource
        public var id: UUID
    }

    /// The earliest time a file may give: 1900-01-01 (UTC). Older ones are typos.
    static let earliest = Date(timeIntervalSince1970: -2_208_988_800)

    /// The most wrong lines one refusal names; the rest are counted.
    static let namedErrors = 10

    /// Reads a whole file (streamed: only the rows are kept), checking every line; a file with
    /// any wrong line is refused with each line and column that is wrong, and nothing is kept.
    /// Local times are in `zone`; `unit` is the amount's unit when the header does not say it.
    /// Rows without an id get one made from what they say, so that importing a file twice adds
    /// nothing twice.
    public static func read(_ stream: InputStream, zone: TimeZone, now: Date, unit: VolumeUnit?, user: UUID) throws -> [Row] {
        let reader: CSVReader
        do {
            reader = try CSVReader(stream: stream, hasHeaderRow: false)
        } catch {
            throw notText
        }
        guard let headerFields = reader.next(), !failed(reader) else {
            throw failed(reader) ? notText : TallyError.invalid("The file is empty: export your drinks as CSV and choose that file.")
        }
        // UTF-16 text reads as UTF-8 with a NUL beside every letter: not a CSV of drinks.
        guard !headerFields.contains(where: { $0.unicodeScalars.contains("\0") }) else { throw notText }
        var line = 1 + newlines(in: headerFields)
        let columns = try Columns(header: headerFields, unit: unit)
        var rows: [Row] = []
        var problems: [Phrase] = []
        var problemCount = 0
        var idLines: [UUID: Int] = [:]
        var occurrences: [String: Int] = [:]
        while let fields = reader.next() {
            line += 1
            let rowLine = line
            line += newlines(in: fields)
            if fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            do {
                guard fields.count == columns.count else {
                    throw LineError(column: nil, Phrase(
                        one: "it has \(fields.count) field where the header names \(columns.count) (a file cut short, or a comma in an unquoted field)",
                        other: "it has \(fields.count) fields where the header names \(columns.count) (a file cut short, or a comma in an unquoted field)"))
                }
                var row = try columns.row(fields, line: rowLine, zone: zone, now: now)
                if row.id == Self.unnamed {
                    let content = "\(row.at.timeIntervalSince1970)|\(row.type)|\(row.volumeMl)|\(row.kindName ?? "")|\(row.note ?? "")"
                    occurrences[content, default: 0] += 1
                    row.id = AppleHealthImporter.nameBasedUUID(namespace: user, name: "csv:\(content)#\(occurrences[content]!)")
                }
                if let first = idLines[row.id] {
                    throw LineError(column: "id", Phrase("the id \(row.id.uuidString.lowercased()) is on line \(first) too"))
                }
                idLines[row.id] = rowLine
                rows.append(row)
            } catch let error as LineError {
                problemCount += 1
                if problems.count < namedErrors { problems.append(error.sentence(line: rowLine)) }
            }
        }
        if failed(reader) { throw notText }
        guard problemCount == 0 else {
            var message = [Phrase(one: "Nothing was imported: \(problemCount) line is wrong.",
                                  other: "Nothing was imported: \(problemCount) lines are wrong.")] + problems
            if problemCount > problems.count { message.append(Phrase("… and \(problemCount - problems.count) more.")) }
            throw TallyError.invalid(.lines(message))
        }
        return rows
    }

    /// An id that stands for "none given" until one is made.
    static let unnamed = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// The refusal for a file that is not there.
    public static func missing(_ file: URL) -> TallyError {
        TallyError.notFound("Cannot read \(file.path): there is no such file, or it cannot be opened.")
    }

    static let notText = TallyError.invalid("The file is not text (UTF-8): choose a CSV file, such as the one Tally's export writes.")

    /// Whether reading stopped on an error: bytes that are not UTF-8, or a stream that failed. The
    /// library ends a file it read to the end with `cannotReadFile` (a file stream says it has
    /// bytes until a read finds none): that is the end, not an error.
    private static func failed(_ reader: CSVReader) -> Bool {
        switch reader.error {
        case nil, CSVError.cannotReadFile?: false
        default: true
        }
    }

    /// The line breaks inside quoted fields, as the CSV reader splits lines: CR, LF or CRLF (a
    /// U+2028 in a note is text, not a line of the file).
    private static func newlines(in fields: [String]) -> Int {
        fields.reduce(0) { $0 + $1.reduce(0) { $0 + ($1 == "\n" || $1 == "\r" || $1 == "\r\n" ? 1 : 0) } }
    }

    /// What is wrong with a line, and in which column.
    struct LineError: Error {
        var column: String?
        var problem: Phrase

        init(column: String?, _ problem: Phrase) {
            self.column = column
            self.problem = problem
        }

        func sentence(line: Int) -> Phrase {
            // A problem that is a refusal's sentence has its full stop already.
            if problem.key.hasSuffix(".") {
                return column.map { Phrase("Line \(line), column \($0): \(problem)") } ?? Phrase("Line \(line): \(problem)")
            }
            return column.map { Phrase("Line \(line), column \($0): \(problem).") } ?? Phrase("Line \(line): \(problem).")
        }
    }
}
