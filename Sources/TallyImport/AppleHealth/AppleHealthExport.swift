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
        /// What identifies the drink in any export of the same data, whichever time zone the
        /// phone was in and whichever app wrote it: its instants and its volume.
        public var key: String {
            "\(Int64(start.timeIntervalSince1970))|\(Int64(end.timeIntervalSince1970))|\(Int64((volumeMl * 1000).rounded()))"
        }
        var end: Date
    }

    public var water: [Water] = []
    /// The asleep intervals: SleepAnalysis records in an asleep stage, and the in-bed records of
    /// nights that have no asleep stage (exports from a phone without a watch have only those).
    public var asleep: [DateInterval] { Self.asleep(stages: asleepStages, inBed: inBed) }
    /// Records of these two types that could not be read (no date, an unknown unit, no value).
    public var unreadable = 0

    var asleepStages: [DateInterval] = []
    var inBed: [DateInterval] = []

    public init() {}

    /// More water or sleep records than this is not a person's export (a million is a glass a
    /// minute for two years): refused, so that a crafted file cannot take the server's memory.
    static let maximumRecords = 1_000_000

    static let waterType = "HKQuantityTypeIdentifierDietaryWater"
    static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"
    /// "Asleep" before iOS 16; "AsleepUnspecified", "AsleepCore", "AsleepDeep", "AsleepREM" since.
    static let asleepPrefix = "HKCategoryValueSleepAnalysisAsleep"
    static let inBedValue = "HKCategoryValueSleepAnalysisInBed"

    /// Millilitres per unit, for the volume units HealthKit writes.
    static let millilitres: [String: Double] = [
        "mL": 1, "cL": 10, "dL": 100, "L": 1000,
        "fl_oz_us": VolumeUnit.mlPerFluidOunce, "fl_oz_imp": 28.4130625,
        "cup_us": 236.5882365, "cup_imp": 284.130625,
        "pt_us": 473.176473, "pt_imp": 568.26125,
    ]

    /// Takes in one `<Record>` tag; other types are passed over.
    mutating func add(_ record: XMLTag) throws {
        switch record.attributes["type"] {
        case Self.waterType:
            guard let water = Self.water(record.attributes) else { unreadable += 1; return }
            self.water.append(water)
            try Self.checkCount(self.water.count, .water)
        case Self.sleepType:
            guard let value = record.attributes["value"] else { unreadable += 1; return }
            let isAsleep = value.hasPrefix(Self.asleepPrefix)
            guard isAsleep || value == Self.inBedValue else { return } // awake
            guard let start = record.attributes["startDate"].flatMap(HealthDate.init),
                  let end = record.attributes["endDate"].flatMap(HealthDate.init), end.instant >= start.instant else {
                unreadable += 1
                return
            }
            let interval = DateInterval(start: start.instant, end: end.instant)
            if isAsleep { asleepStages.append(interval) } else { inBed.append(interval) }
            try Self.checkCount(asleepStages.count + inBed.count, .sleep)
        default:
            return
        }
    }

    /// The records an export may hold at most `maximumRecords` of.
    private enum RecordKind { case water, sleep }

    private static func checkCount(_ count: Int, _ kind: RecordKind) throws {
        guard count <= maximumRecords else {
            switch kind {
            case .water: throw TallyError.invalid("This export has more than \(maximumRecords) water records, more than Tally imports at once.")
            case .sleep: throw TallyError.invalid("This export has more than \(maximumRecords) sleep records, more than Tally imports at once.")
            }
        }
    }

    private static func water(_ attributes: [String: String]) -> Water? {
        guard let start = attributes["startDate"].flatMap(HealthDate.init),
              let unit = attributes["unit"], let perUnit = millilitres[unit],
              let valueText = attributes["value"], let value = Double(valueText), value.isFinite else { return nil }
        let end = attributes["endDate"].flatMap(HealthDate.init)?.instant ?? start.instant
        return Water(start: start.instant, day: start.day, volumeMl: value * perUnit, end: end)
    }

    /// The asleep stages, and each in-bed interval that no asleep stage overlaps.
    static func asleep(stages: [DateInterval], inBed: [DateInterval]) -> [DateInterval] {
        guard !inBed.isEmpty else { return stages }
        let sorted = stages.sorted { $0.start < $1.start }
        let longest = sorted.map(\.duration).max() ?? 0
        let unmatched = inBed.filter { bed in
            // Only stages that start after bed.start - longest can reach into the bed interval.
            var low = 0, high = sorted.count
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle].start < bed.start.addingTimeInterval(-longest) { low = middle + 1 } else { high = middle }
            }
            return !sorted[low...].prefix { $0.start < bed.end }.contains { $0.end > bed.start }
        }
        return stages + unmatched
    }
}

extension AppleHealthExport {
    /// The most bytes an `export.xml` in a zip may unpack to. The exports of many years of an
    /// Apple Watch are a few GB; a zip bomb (a small file that inflates a thousandfold) stops
    /// here, after a minute or so of reading, instead of taking a core for hours.
    public static let maximumUncompressedBytes: Int64 = 16 << 30

    /// Reads `export.zip` (as the Health app shares it) or the `export.xml` inside it, streaming:
    /// memory grows with the water and sleep records, not with the file. A zip's export.xml may
    /// unpack to at most `maximumUncompressedBytes`.
    public static func read(contentsOf file: URL, maximumUncompressedBytes: Int64 = maximumUncompressedBytes) throws -> AppleHealthExport {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: file) } catch {
            throw FileManager.default.fileExists(atPath: file.path) ? TallyError.invalid("Cannot read \(file.path): \(error.localizedDescription)")
                : missing(file)
        }
        let magic = (try? handle.read(upToCount: 4)) ?? Data()
        try? handle.close()
        guard !magic.isEmpty else { throw TallyError.invalid("The file is empty: choose Apple Health's export.zip or export.xml.") }
        var reader = Reader()
        if magic.elementsEqual([0x50, 0x4B, 0x03, 0x04]) {
            try reader.readZip(file, maximumUncompressedBytes: maximumUncompressedBytes)
        } else {
            try reader.readXML(file)
        }
        return try reader.finished()
    }

    /// Bytes read from a zip, and unpacked, at a time.
    static let zipBufferSize = 1 << 20

    /// The error for a zip whose export.xml does not come out as it went in (its checksum or size).
    static let damagedZip = TallyError.invalid(
        "The zip file is damaged: its export.xml does not unpack to what the zip says it holds. Share the export from the Health app again.")

    /// The error for an export file that is not there.
    public static func missing(_ file: URL) -> TallyError {
        TallyError.notFound("There is no file at \(file.path).")
    }

    /// Reads an export from memory (tests, small uploads).
    public static func read(xml: some Collection<UInt8>) throws -> AppleHealthExport {
        var reader = Reader()
        try reader.feed(xml)
        return try reader.finished()
    }

    struct Reader {
        var scanner = XMLTagScanner(wanted: ["Record", "HealthData"],
                                    only: ["Record": ("type", [AppleHealthExport.waterType, AppleHealthExport.sleepType])])
        var export = AppleHealthExport()
        var sawHealthData = false
        /// How much of the XML has been read: a zip bomb must stop at the cap, not behind it.
        private(set) var bytesRead: Int64 = 0

        mutating func feed(_ bytes: some Collection<UInt8>) throws {
            bytesRead += Int64(bytes.count)
            try scanner.feed(bytes) { tag in
                if tag.name == "Record" { try export.add(tag) } else { sawHealthData = true }
            }
        }

        mutating func finished() throws -> AppleHealthExport {
            try scanner.finish()
            guard sawHealthData else {
                throw TallyError.invalid("This is not an Apple Health export: it has no <HealthData>. Use export.zip or its export.xml.")
            }
            guard scanner.closed.contains("HealthData") else {
                throw TallyError.invalid("The Apple Health export ends before </HealthData>: the file seems to be cut off.")
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

        mutating func readZip(_ file: URL, maximumUncompressedBytes: Int64) throws {
            let archive: Archive
            do { archive = try Archive(url: file, accessMode: .read) } catch {
                throw TallyError.invalid("The zip file cannot be opened: \(error.localizedDescription)")
            }
            // export.xml, not export_cda.xml (clinical documents) or the workout routes.
            guard let entry = archive.first(where: { $0.type == .file && ($0.path as NSString).lastPathComponent == "export.xml" }) else {
                throw TallyError.invalid("The zip file has no export.xml: share the whole export from the Health app.")
            }
            // The size the zip declares is checked first, and the bytes that come out are counted
            // as well, since a crafted zip can declare anything.
            let tooBig = TallyError.invalid("The export.xml in this zip unpacks to more than \(Self.readableSize(maximumUncompressedBytes)), more than any Apple Health export: it is not one Tally reads.")
            guard entry.uncompressedSize <= UInt64(maximumUncompressedBytes) else { throw tooBig }
            var unpacked: Int64 = 0
            // The checksum is this reader's own: ZIPFoundation's is slow on Linux, and its
            // extract(_:consumer:) returns it without comparing it with the zip's.
            var checksum = ZipCRC32()
            do {
                _ = try archive.extract(entry, bufferSize: AppleHealthExport.zipBufferSize, skipCRC32: true) { chunk in
                    unpacked += Int64(chunk.count)
                    guard unpacked <= maximumUncompressedBytes else { throw tooBig }
                    chunk.withUnsafeBytes { checksum.update($0) }
                    try feed(chunk)
                }
            } catch let error as TallyError {
                throw error
            } catch {
                throw TallyError.invalid("The zip file is damaged: \(error.localizedDescription)")
            }
            guard checksum.value == entry.checksum, unpacked == Int64(clamping: entry.uncompressedSize) else {
                throw AppleHealthExport.damagedZip
            }
        }

        /// "16 GB", or "1 MB" for the small caps of tests.
        static func readableSize(_ bytes: Int64) -> String {
            bytes >= 1 << 30 ? "\(bytes >> 30) GB" : "\(max(1, bytes >> 20)) MB"
        }
    }
}
