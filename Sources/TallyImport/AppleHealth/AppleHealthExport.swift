import Foundation
import TallyCore
import ZIPFoundation

/// What Tally takes from an Apple Health export (A2): the water records and the asleep intervals.
public struct AppleHealthExport: Sendable {
    /// One DietaryWater record.
    public struct Water: Equatable, Sendable {
        public var start: Date
        /// The calendar day written in the record's startDate, in the offset written with it.
        public var day: LocalDate
        public var volumeMl: Double
        /// What identifies the record in any export of the same data: re-importing adds nothing.
        public var key: String
    }

    public var water: [Water] = []
    /// SleepAnalysis records whose value is one of the asleep stages (not in bed, not awake).
    public var asleep: [DateInterval] = []
    /// Records of these two types that could not be read (no date, an unknown unit, no value).
    public var unreadable = 0

    public init() {}

    static let waterType = "HKQuantityTypeIdentifierDietaryWater"
    static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"
    /// "Asleep" before iOS 16; "AsleepUnspecified", "AsleepCore", "AsleepDeep", "AsleepREM" since.
    static let asleepPrefix = "HKCategoryValueSleepAnalysisAsleep"

    /// Millilitres per unit, for the volume units HealthKit writes.
    static let millilitres: [String: Double] = [
        "mL": 1, "cL": 10, "dL": 100, "L": 1000,
        "fl_oz_us": 29.5735295625, "fl_oz_imp": 28.4130625,
        "cup_us": 236.5882365, "cup_imp": 284.130625,
        "pt_us": 473.176473, "pt_imp": 568.26125,
    ]

    /// Takes in one `<Record>` tag; other types are passed over.
    mutating func add(_ record: XMLTag) {
        switch record.attributes["type"] {
        case Self.waterType:
            guard let water = Self.water(record.attributes) else { unreadable += 1; return }
            self.water.append(water)
        case Self.sleepType:
            guard let value = record.attributes["value"], value.hasPrefix(Self.asleepPrefix) else { return }
            guard let start = record.attributes["startDate"].flatMap(HealthDate.init),
                  let end = record.attributes["endDate"].flatMap(HealthDate.init), end.instant >= start.instant else {
                unreadable += 1
                return
            }
            asleep.append(DateInterval(start: start.instant, end: end.instant))
        default:
            return
        }
    }

    private static func water(_ attributes: [String: String]) -> Water? {
        guard let startText = attributes["startDate"], let start = HealthDate(startText),
              let unit = attributes["unit"], let perUnit = millilitres[unit],
              let valueText = attributes["value"], let value = Double(valueText), value.isFinite else { return nil }
        let key = [attributes["sourceName"] ?? "", startText, attributes["endDate"] ?? "", valueText, unit].joined(separator: "|")
        return Water(start: start.instant, day: start.day, volumeMl: value * perUnit, key: key)
    }
}

extension AppleHealthExport {
    /// Reads `export.zip` (as the Health app shares it) or the `export.xml` inside it, streaming:
    /// memory grows with the water and sleep records, not with the file.
    public static func read(contentsOf file: URL) throws -> AppleHealthExport {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: file) } catch {
            throw TallyError.invalid("Cannot read \(file.path): \(error.localizedDescription)")
        }
        let magic = (try? handle.read(upToCount: 4)) ?? Data()
        try? handle.close()
        guard !magic.isEmpty else { throw TallyError.invalid("The file is empty: choose Apple Health's export.zip or export.xml.") }
        var reader = Reader()
        if magic.elementsEqual([0x50, 0x4B, 0x03, 0x04]) {
            try reader.readZip(file)
        } else {
            try reader.readXML(file)
        }
        return try reader.finished()
    }

    /// Reads an export from memory (tests, small uploads).
    public static func read(xml: some Collection<UInt8>) throws -> AppleHealthExport {
        var reader = Reader()
        try reader.feed(xml)
        return try reader.finished()
    }

    private struct Reader {
        var scanner = XMLTagScanner(wanted: ["Record", "HealthData"])
        var export = AppleHealthExport()
        var sawHealthData = false

        mutating func feed(_ bytes: some Collection<UInt8>) throws {
            try scanner.feed(bytes) { tag in
                if tag.name == "Record" { export.add(tag) } else { sawHealthData = true }
            }
        }

        mutating func finished() throws -> AppleHealthExport {
            try scanner.finish()
            guard sawHealthData else {
                throw TallyError.invalid("This is not an Apple Health export: it has no <HealthData>. Use export.zip or its export.xml.")
            }
            return export
        }

        mutating func readXML(_ file: URL) throws {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                try feed(chunk)
            }
        }

        mutating func readZip(_ file: URL) throws {
            let archive: Archive
            do { archive = try Archive(url: file, accessMode: .read) } catch {
                throw TallyError.invalid("The zip file cannot be opened: \(error.localizedDescription)")
            }
            // export.xml, not export_cda.xml (clinical documents) or the workout routes.
            guard let entry = archive.first(where: { $0.type == .file && ($0.path as NSString).lastPathComponent == "export.xml" }) else {
                throw TallyError.invalid("The zip file has no export.xml: share the whole export from the Health app.")
            }
            do {
                _ = try archive.extract(entry, bufferSize: 1 << 20) { chunk in try feed(chunk) }
            } catch let error as TallyError {
                throw error
            } catch {
                throw TallyError.invalid("The zip file is damaged: \(error.localizedDescription)")
            }
        }
    }
}
