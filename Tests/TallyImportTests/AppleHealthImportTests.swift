import Foundation
import TallyCore
@testable import TallyImport
import TallyRepositories
import TallyServices
import TallyStore
import Testing
import ZIPFoundation

/// A2: Apple Health's export (Fixtures/apple-health, from scripts/apple-health-fixtures, in the
/// shape iOS 16 writes it) brought in as drinks and asleep intervals.
@Suite("Apple Health import (A2)")
struct AppleHealthImportTests {
    static func fixture(_ name: String) -> URL {
        Bundle.module.url(forResource: "Fixtures/apple-health/\(name)", withExtension: nil)!
    }

    static func instant(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    /// After the fixture's last record.
    static let afterwards = instant("2024-04-07T12:00:00Z")

    static func hydration(now: Date = afterwards, name: String = "ada") async throws -> (HydrationService, any TallyStorage) {
        let store = try SQLiteStore.inMemory()
        let directory = UserDirectory(store: store, clock: FixedClock(now))
        return (directory.hydration(for: try await directory.user(named: name, timeZone: "Europe/Berlin")), store)
    }

    // MARK: - Reading

    @Test("A2: water records with their unit; fractional values kept")
    func water() throws {
        let export = try AppleHealthExport.read(contentsOf: Self.fixture("export.xml"))
        #expect(export.water.map(\.volumeMl) == [250, 187.5, 8 * VolumeUnit.mlPerFluidOunce, 500, 6000, 330])
        // The key is the instants and the volume in microlitres, whatever offset or app wrote them.
        #expect(export.water[1].key == "1711865730|1711865730|187500")
        #expect(export.unreadable == 0)
    }

    @Test("A2: a record's day is the date written in its startDate, in the offset written with it")
    func dayFromOffset() throws {
        let water = try AppleHealthExport.read(contentsOf: Self.fixture("export.xml")).water
        // 23:59 in Berlin's winter time is that day, not the next one in UTC+2 or the previous one in UTC.
        #expect(water[0].day == LocalDate("2024-03-30")!)
        #expect(water[0].start == Self.instant("2024-03-30T22:59:00Z"))
        // 19:30 in New York is already the 3rd in Berlin: the day stays the 2nd, as the person lived it.
        #expect(water[3].day == LocalDate("2024-04-02")!)
        #expect(water[3].start == Self.instant("2024-04-02T23:30:00Z"))
    }

    @Test("A2: the asleep stages of the sleep records; in bed and awake are left out")
    func asleep() throws {
        let asleep = try AppleHealthExport.read(contentsOf: Self.fixture("export.xml")).asleep
        #expect(asleep.count == 7 * 3)
        #expect(asleep.first == DateInterval(start: Self.instant("2024-03-31T21:20:00Z"), end: Self.instant("2024-04-01T00:40:00Z")))
        #expect(asleep.allSatisfy { $0.duration < 4 * 3600 })
    }

    @Test("A2: iOS 16's broken DTD, U+000B in a value and attribute names with spaces are read past")
    func brokenExport() throws {
        let text = try String(contentsOf: Self.fixture("export.xml"), encoding: .utf8)
        // The fixture has the faults. (Foundation's XMLParser on Linux crashes on the first and
        // stops at the second, so it cannot be asked here.)
        #expect(text.contains("  brand            CDATA #IMPLIED\n\n<!ELEMENT RightEye"))
        #expect(text.contains("Jo\u{0B}s iPhone"))
        let export = try AppleHealthExport.read(xml: Array(text.utf8))
        #expect(export.water.last?.volumeMl == 330, "the record with \"Health Mate App Version\" is read")
    }

    @Test("A2: export.zip reads as the export.xml inside it (not export_cda.xml)")
    func zip() throws {
        let zipped = try AppleHealthExport.read(contentsOf: Self.fixture("export.zip"))
        let plain = try AppleHealthExport.read(contentsOf: Self.fixture("export.xml"))
        #expect(zipped.water == plain.water)
        #expect(zipped.asleep == plain.asleep)
    }

    @Test("A2: the scanner finds the same tags whatever size the chunks are", arguments: [1, 2, 3, 5, 8, 13, 64, 1000, 1 << 20])
    func chunks(_ size: Int) throws {
        let bytes = Array(try Data(contentsOf: Self.fixture("export.xml")))
        func tags(chunk: Int) throws -> [XMLTag] {
            var scanner = XMLTagScanner(wanted: ["Record", "HealthData", "MetadataEntry"])
            var tags: [XMLTag] = []
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                try scanner.feed(bytes[start..<min(start + chunk, bytes.count)]) { tags.append($0) }
            }
            try scanner.finish()
            return tags
        }
        let whole = try tags(chunk: bytes.count)
        #expect(whole.count == 1 + 6 + 1 + 1 + 35)
        #expect(try tags(chunk: size) == whole)
    }

    @Test("A2: comments, CDATA and processing instructions hide no records; entities are decoded")
    func xmlConstructs() throws {
        let xml = """
            <?xml version="1.0"?><!-- <Record type="HKQuantityTypeIdentifierDietaryWater"> -->
            <HealthData><![CDATA[ <Record type="x"> ]]>
            <Record type='HKQuantityTypeIdentifierDietaryWater' sourceName="A &lt;b&gt; &#233;&#x41; &bogus; &amp;" unit="mL"
              startDate="2024-01-01 08:00:00 +0000" endDate="2024-01-01 08:00:00 +0000" value="200"/>
            </HealthData>
            """
        let export = try AppleHealthExport.read(xml: Array(xml.utf8))
        #expect(export.water.count == 1)
        var scanner = XMLTagScanner(wanted: ["Record"])
        var names: [String?] = []
        try scanner.feed(Array(xml.utf8)) { names.append($0.attributes["sourceName"]) }
        #expect(names == ["A <b> éA &bogus; &"])
    }

    @Test("A2: a DOCTYPE may end with a space between ] and >")
    func doctypeSpace() throws {
        let xml = """
            <!DOCTYPE HealthData [ <!ELEMENT HealthData ANY> ] >
            <HealthData><Record type="HKQuantityTypeIdentifierDietaryWater" unit="mL" startDate="2024-01-01 08:00:00 +0000" value="200"/></HealthData>
            """
        #expect(try AppleHealthExport.read(xml: Array(xml.utf8)).water.count == 1)
    }

    @Test("A2: the same drink exported from another time zone is the same drink")
    func sameDrinkElsewhere() throws {
        func water(_ date: String) throws -> AppleHealthExport.Water {
            try #require(try AppleHealthExport.read(xml: Array("""
                <HealthData><Record type="HKQuantityTypeIdentifierDietaryWater" sourceName="Ada’s iPhone" unit="mL" \
                startDate="\(date)" endDate="\(date)" value="250"/></HealthData>
                """.utf8)).water.first)
        }
        let berlin = try water("2024-05-01 09:00:00 +0200"), newYork = try water("2024-05-01 03:00:00 -0400")
        #expect(berlin.key == newYork.key)
        #expect(berlin.day == newYork.day)
    }

    @Test("A2: a night recorded only as in bed counts; in bed around asleep stages does not add to them")
    func inBedOnly() throws {
        let xml = """
            <HealthData>
            <Record type="HKCategoryTypeIdentifierSleepAnalysis" value="HKCategoryValueSleepAnalysisInBed" startDate="2024-04-01 23:00:00 +0200" endDate="2024-04-02 07:00:00 +0200"/>
            <Record type="HKCategoryTypeIdentifierSleepAnalysis" value="HKCategoryValueSleepAnalysisInBed" startDate="2024-04-02 22:30:00 +0200" endDate="2024-04-03 07:30:00 +0200"/>
            <Record type="HKCategoryTypeIdentifierSleepAnalysis" value="HKCategoryValueSleepAnalysisAsleepCore" startDate="2024-04-02 23:10:00 +0200" endDate="2024-04-03 06:40:00 +0200"/>
            </HealthData>
            """
        let asleep = try AppleHealthExport.read(xml: Array(xml.utf8)).asleep
        let hours: [Double] = asleep.map { $0.duration / 3600 }.sorted()
        #expect(hours == [7.5, 8])
    }

    @Test("A2: an unknown unit or a broken date is counted, not guessed")
    func unreadable() throws {
        let xml = """
            <HealthData>
            <Record type="HKQuantityTypeIdentifierDietaryWater" unit="gallon" startDate="2024-01-01 08:00:00 +0000" value="1"/>
            <Record type="HKQuantityTypeIdentifierDietaryWater" unit="mL" startDate="2024-01-01T08:00:00Z" value="1"/>
            <Record type="HKQuantityTypeIdentifierDietaryWater" unit="mL" startDate="2024-01-01 08:00:00 +0000" value="lots"/>
            <Record type="HKCategoryTypeIdentifierSleepAnalysis" value="HKCategoryValueSleepAnalysisAsleep"
              startDate="2024-01-02 08:00:00 +0000" endDate="2024-01-01 23:00:00 +0000"/>
            </HealthData>
            """
        let export = try AppleHealthExport.read(xml: Array(xml.utf8))
        #expect(export.water.isEmpty && export.asleep.isEmpty)
        #expect(export.unreadable == 4)
    }

    @Test("A2: what is not an export is refused with a sentence that says what to send", arguments: [
        ("<html><body>Hello</body></html>", "no <HealthData>"),
        ("<HealthData><Record type=\"HKQuantityTypeIdentifierDietaryWater\" unit=\"mL", "cut off"),
        ("<HealthData><Record type=\"HKQuantityTypeIdentifierDietaryWater\"/>\n", "ends before </HealthData>"),
        ("name,amount\nwater,250\n", "no <HealthData>"),
    ])
    func notAnExport(_ text: String, _ message: String) throws {
        #expect { try AppleHealthExport.read(xml: Array(text.utf8)) } throws: { error in
            (error as? TallyError)?.message.contains(message) == true
        }
    }

    @Test("A2: an empty file and a zip without export.xml are refused", arguments: [
        ("", "empty"), ("no-export.zip", "no export.xml"),
    ])
    func notAnExportFile(_ fixture: String, _ message: String) throws {
        let file: URL
        if fixture.isEmpty {
            file = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID()).xml")
            try Data().write(to: file)
        } else {
            file = Self.fixture(fixture)
        }
        #expect { try AppleHealthExport.read(contentsOf: file) } throws: { error in
            (error as? TallyError)?.message.contains(message) == true
        }
    }

    /// A zip whose export.xml is a valid export padded with `padding` bytes of white space: a
    /// few kilobytes that unpack to megabytes. With `claiming`, the zip's headers say the entry
    /// unpacks to that many bytes instead, as a crafted zip may.
    static func bomb(padding: Int, claiming claimed: UInt32? = nil) throws -> URL {
        let xml = Data(("<HealthData>" + String(repeating: " ", count: padding) + "</HealthData>\n").utf8)
        let archive = try Archive(accessMode: .create)
        try archive.addEntry(with: "apple_health_export/export.xml", type: .file, uncompressedSize: Int64(xml.count),
                             compressionMethod: .deflate) { position, size in xml.subdata(in: Int(position)..<Int(position) + size) }
        var bytes = [UInt8](try #require(archive.data))
        if let claimed {
            // The uncompressed size: at offset 22 of the local header, 24 of the central one.
            for (signature, offset) in [([0x50, 0x4B, 0x03, 0x04] as [UInt8], 22), ([0x50, 0x4B, 0x01, 0x02], 24)] {
                let start = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == signature })
                withUnsafeBytes(of: claimed.littleEndian) { bytes.replaceSubrange(start + offset..<start + offset + 4, with: $0) }
            }
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bomb-\(UUID()).zip")
        try Data(bytes).write(to: file)
        return file
    }

    @Test("A2: a zip that unpacks to more than the cap is refused once the cap is reached, whatever it claims",
          arguments: [nil, 1000] as [UInt32?])
    func zipBomb(_ claimed: UInt32?) throws {
        let file = try Self.bomb(padding: 64 << 20, claiming: claimed)
        defer { try? FileManager.default.removeItem(at: file) }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        #expect(size < 1 << 20, "a small file")
        let refusal = TallyError.invalid("The export.xml in this zip unpacks to more than 1 MB, more than any Apple Health export: it is not one Tally reads.")
        #expect(throws: refusal) {
            try AppleHealthExport.read(contentsOf: file, maximumUncompressedBytes: 1 << 20)
        }
        // Stopped at the cap: the 63 MB behind it were never unpacked into the scanner.
        var reader = AppleHealthExport.Reader()
        #expect(throws: refusal) { try reader.readZip(file, maximumUncompressedBytes: 1 << 20) }
        #expect(reader.bytesRead <= (1 << 20) + Int64(AppleHealthExport.zipBufferSize), "read \(reader.bytesRead) bytes")
        // Within the cap, the same zip is an (empty) export.
        let small = try Self.bomb(padding: 1000)
        defer { try? FileManager.default.removeItem(at: small) }
        #expect(try AppleHealthExport.read(contentsOf: small, maximumUncompressedBytes: 1 << 20).water.isEmpty)
    }

    @Test("A2: dates as Apple Health writes them", arguments: [
        ("2024-03-31 07:45:10 +0200", "2024-03-31T05:45:10Z", "2024-03-31"),
        ("2024-12-31 23:30:00 -0500", "2025-01-01T04:30:00Z", "2024-12-31"),
        ("2024-06-01 00:15:00 +0545", "2024-05-31T18:30:00Z", "2024-06-01"),
    ])
    func dates(_ text: String, _ utc: String, _ day: String) throws {
        let date = try #require(HealthDate(text))
        #expect(date.instant == Self.instant(utc))
        #expect(date.day == LocalDate(day)!)
    }

    @Test("A2: malformed dates are not read", arguments: [
        "2024-03-31T07:45:10+02:00", "2024-02-30 07:45:10 +0200", "2024-03-31 25:45:10 +0200", "2024-03-31 07:45:10", "",
    ])
    func badDates(_ text: String) {
        #expect(HealthDate(text) == nil)
    }

    @Test("RFC 9562: a name-based UUID is the standard's example")
    func nameBasedUUID() {
        let dns = UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")!
        #expect(AppleHealthImporter.nameBasedUUID(namespace: dns, name: "www.example.com")
                == UUID(uuidString: "2ed6657d-e927-568b-95e1-2665a8aea6a2")!)
    }

    // MARK: - Importing

    @Test("A2: water becomes drinks of water (source import) on their days; importing again adds nothing")
    func importTwice() async throws {
        let (hydration, store) = try await Self.hydration()
        let export = try AppleHealthExport.read(contentsOf: Self.fixture("export.zip"))
        let importer = AppleHealthImporter(hydration: hydration)
        let first = try await importer.importExport(export)
        #expect(first == .init(drinksAdded: 5, drinksAlreadyThere: 0, sleepRecordsAdded: 21, skipped: 1))
        let again = try await importer.importExport(try AppleHealthExport.read(contentsOf: Self.fixture("export.xml")))
        #expect(again == .init(drinksAdded: 0, drinksAlreadyThere: 5, sleepRecordsAdded: 0, skipped: 1))

        let totals = try await store.dailyTotals(of: hydration.user, from: nil, through: nil)
        #expect(totals == [
            LocalDate("2024-03-30")!: 250, LocalDate("2024-03-31")!: 187.5, LocalDate("2024-04-01")!: 8 * VolumeUnit.mlPerFluidOunce,
            LocalDate("2024-04-02")!: 500, LocalDate("2024-04-03")!: 330,
        ])
        let drinks = try await store.entries(on: LocalDate("2024-04-02")!, of: hydration.user)
        guard case .intake(let drink)? = drinks.first else { Issue.record("no drink on 2 April"); return }
        #expect(drink.source == .import && drink.kindName == "water")
    }

    @Test("A2: an import is stored in batches: a failure halfway keeps the batches before it, and importing again finishes it")
    func batches() async throws {
        let (ada, store) = try await Self.hydration()
        let directory = UserDirectory(store: store, clock: FixedClock(Self.afterwards))
        let bob = directory.hydration(for: try await directory.user(named: "bob", timeZone: "Europe/Berlin"))
        let export = try AppleHealthExport.read(contentsOf: Self.fixture("export.xml"))
        // bob already has a drink with the id ada's third drink gets: her second batch fails.
        let third = export.water.filter { (try? EntryVolume.validate($0.volumeMl, unit: .ml)) != nil }.sorted { $0.start < $1.start }[2]
        let taken = try await bob.logDrink(.init(volumeMl: 100, id: AppleHealthImporter.drinkID(third.key, user: ada.user))).intake
        let importer = AppleHealthImporter(hydration: ada, batchSize: 2)
        await #expect(throws: TallyError.self) { try await importer.importExport(export) }
        #expect(try await store.dailyTotals(of: ada.user, from: nil, through: nil).count == 2, "the first batch is kept")

        _ = try await bob.deleteEntry(id: taken.id)
        let resumed = try await importer.importExport(export)
        #expect(resumed == .init(drinksAdded: 3, drinksAlreadyThere: 2, sleepRecordsAdded: 21, skipped: 1))
        #expect(try await AppleHealthImporter(hydration: ada, batchSize: 2).importExport(export)
                == .init(drinksAdded: 0, drinksAlreadyThere: 5, sleepRecordsAdded: 0, skipped: 1))
        #expect(try await store.dailyTotals(of: ada.user, from: nil, through: nil).count == 5)
    }

    @Test("A2: a drink deleted after an import stays deleted when the export is imported again")
    func deletedStaysDeleted() async throws {
        let (hydration, store) = try await Self.hydration()
        let export = try AppleHealthExport.read(contentsOf: Self.fixture("export.xml"))
        _ = try await AppleHealthImporter(hydration: hydration).importExport(export)
        let day = LocalDate("2024-04-02")!
        let drink = try #require(try await store.entries(on: day, of: hydration.user).first)
        _ = try await hydration.deleteEntry(id: drink.id)
        let again = try await AppleHealthImporter(hydration: hydration).importExport(export)
        #expect(again.drinksAdded == 0 && again.drinksAlreadyThere == 5)
        #expect(try await store.entries(on: day, of: hydration.user).isEmpty)
    }

    @Test("A2: two people importing the same export each get their own drinks")
    func twoPeople() async throws {
        let (ada, store) = try await Self.hydration()
        let directory = UserDirectory(store: store, clock: FixedClock(Self.afterwards))
        let bob = directory.hydration(for: try await directory.user(named: "bob", timeZone: "Europe/Berlin"))
        let export = try AppleHealthExport.read(contentsOf: Self.fixture("export.xml"))
        #expect(try await AppleHealthImporter(hydration: ada).importExport(export).drinksAdded == 5)
        #expect(try await AppleHealthImporter(hydration: bob).importExport(export).drinksAdded == 5)
        #expect(try await store.asleepIntervals(of: bob.user, endingAfter: .distantPast).count == 21)
    }

    @Test("A2: records after now are left out")
    func future() async throws {
        let (hydration, store) = try await Self.hydration(now: Self.instant("2024-04-02T12:00:00Z"))
        let report = try await AppleHealthImporter(hydration: hydration).importExport(
            try AppleHealthExport.read(contentsOf: Self.fixture("export.xml")))
        // New York's 19:30 and the 3 April drinks are later; so are the nights from 3 April on.
        #expect(report == .init(drinksAdded: 3, drinksAlreadyThere: 0, sleepRecordsAdded: 6, skipped: 3 + 15))
        #expect(try await store.asleepIntervals(of: hydration.user, endingAfter: .distantPast).count == 6)
    }

    // MARK: - The reminders' window (H11)

    @Test("H11: with sleep records chosen, reminders follow the typical night; otherwise, or without records, the manual times")
    func remindersFollowSleep() async throws {
        let (hydration, _) = try await Self.hydration()
        _ = try await AppleHealthImporter(hydration: hydration).importExport(
            try AppleHealthExport.read(contentsOf: Self.fixture("export.zip")))
        let manual = WakeWindow(wake: TimeOfDay(hour: 8, minute: 0)!, sleep: TimeOfDay(hour: 22, minute: 0)!)
        var settings = ReminderSettings(enabled: true, window: manual, frequency: 3, smartThresholdHours: nil)
        try await hydration.saveReminderSettings(settings)
        #expect(try await hydration.reminders().followedWindow == manual, "not chosen")

        settings.useSleepRecords = true
        try await hydration.saveReminderSettings(settings)
        // Asleep from 23:20 to 06:50 every night (Berlin summer time).
        let fromSleep = WakeWindow(wake: TimeOfDay(hour: 6, minute: 50)!, sleep: TimeOfDay(hour: 23, minute: 20)!)
        #expect(try await hydration.reminders().sleepRecordWindow == fromSleep)
        // Imported today: today keeps the window it started with (H11), the manual one…
        #expect(try await hydration.reminders().followedWindow == manual)
        #expect(try await hydration.reminders().upcoming.first == Self.instant("2024-04-07T13:00:00Z"), "15:00 in Berlin")
        // …and tomorrow starts with the records' window: 16.5 h awake, 3 reminders, every
        // 4 h 7.5 min from 06:50; 12:00 UTC is 14:00 in Berlin.
        let tomorrow = HydrationService(store: hydration.store, clock: FixedClock(Self.instant("2024-04-08T12:00:00Z")), user: hydration.user)
        #expect(try await tomorrow.reminders().followedWindow == fromSleep)
        let upcoming = try await tomorrow.reminders().upcoming
        #expect(upcoming.first == Self.instant("2024-04-08T13:05:00Z"))

        // Three weeks on, the records are too old: the manual times again.
        let later = HydrationService(store: hydration.store, clock: FixedClock(Self.instant("2024-04-28T12:00:00Z")), user: hydration.user)
        #expect(try await later.reminders().sleepRecordWindow == nil)
        #expect(try await later.reminders().followedWindow == manual)
    }
}
