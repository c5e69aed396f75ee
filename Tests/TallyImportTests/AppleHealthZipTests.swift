import Foundation
import Testing
import TallyCore
@testable import TallyImport
import ZIPFoundation

/// A2: reading export.zip fast and checking what comes out of it: the CRC-32 of the zip format,
/// and zips damaged on the way (a flipped byte, a wrong checksum, a cut-off file).
@Suite("Apple Health export.zip (A2)")
struct AppleHealthZipTests {
    /// The CRC-32 a byte at a time, as the zip format defines it.
    static func referenceCRC(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    @Test("A2: the CRC-32 of the standard's check string, and of nothing")
    func checkValue() {
        var crc = ZipCRC32()
        crc.update(Array("123456789".utf8))
        #expect(crc.value == 0xCBF4_3926)
        #expect(ZipCRC32().value == 0)
    }

    @Test("A2: the CRC-32 is the same whatever the chunks, and the same as a byte at a time", arguments: [1, 3, 7, 8, 9, 64, 1000])
    func chunks(_ size: Int) {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<5000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var crc = ZipCRC32()
        for start in stride(from: 0, to: bytes.count, by: size) {
            crc.update(bytes[start..<min(start + size, bytes.count)])
        }
        #expect(crc.value == Self.referenceCRC(bytes))
    }

    @Test("A2: the checksum of the fixture's export.xml is the one in its zip")
    func fixtureChecksum() throws {
        let archive = try Archive(url: AppleHealthImportTests.fixture("export.zip"), accessMode: .read)
        let entry = try #require(archive["apple_health_export/export.xml"])
        var crc = ZipCRC32()
        crc.update([UInt8](try Data(contentsOf: AppleHealthImportTests.fixture("export.xml"))))
        #expect(crc.value == entry.checksum)
    }

    /// The fixture's export.zip with `change` made to its bytes, in a temporary file.
    static func damaged(_ change: (inout [UInt8]) throws -> Void) throws -> URL {
        var bytes = [UInt8](try Data(contentsOf: AppleHealthImportTests.fixture("export.zip")))
        try change(&bytes)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("damaged-\(UUID()).zip")
        try Data(bytes).write(to: file)
        return file
    }

    /// Where the header with `signature` of the entry named `name` starts.
    static func header(_ signature: [UInt8], of name: String, in bytes: [UInt8]) throws -> Int {
        let name = Array(name.utf8)
        let nameOffset = signature == [0x50, 0x4B, 0x03, 0x04] ? 30 : 46
        return try #require((0..<bytes.count - nameOffset - name.count).first {
            Array(bytes[$0..<$0 + 4]) == signature && Array(bytes[$0 + nameOffset..<$0 + nameOffset + name.count]) == name
        })
    }

    static let local: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
    static let central: [UInt8] = [0x50, 0x4B, 0x01, 0x02]
    static let entry = "apple_health_export/export.xml"

    @Test("A2: a zip whose export.xml does not match its checksum is refused as damaged")
    func wrongChecksum() throws {
        let file = try Self.damaged { bytes in
            // The CRC-32 is at offset 14 of the local header, 16 of the central one.
            for (signature, offset) in [(Self.local, 14), (Self.central, 16)] {
                let start = try Self.header(signature, of: Self.entry, in: bytes)
                bytes[start + offset] ^= 0x01
            }
        }
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: AppleHealthExport.damagedZip) { try AppleHealthExport.read(contentsOf: file) }
    }

    @Test("A2: a byte changed inside the compressed export.xml is an error that says the zip is damaged", arguments: [0, 100, 700, 1400])
    func flippedByte(_ offset: Int) throws {
        let file = try Self.damaged { bytes in
            let start = try Self.header(Self.local, of: Self.entry, in: bytes)
            bytes[start + 30 + Self.entry.utf8.count + offset] ^= 0x20
        }
        defer { try? FileManager.default.removeItem(at: file) }
        #expect { try AppleHealthExport.read(contentsOf: file) } throws: { error in
            (error as? TallyError)?.message.contains("damaged") == true
        }
    }

    @Test("A2: a zip cut off anywhere is refused with a sentence, not a crash", arguments: [0.1, 0.5, 0.9, 0.99])
    func cutOff(_ fraction: Double) throws {
        let file = try Self.damaged { bytes in bytes.removeLast(Int(Double(bytes.count) * (1 - fraction))) }
        defer { try? FileManager.default.removeItem(at: file) }
        #expect { try AppleHealthExport.read(contentsOf: file) } throws: { error in
            let message = (error as? TallyError)?.message ?? ""
            return message.contains("zip") || message.contains("export")
        }
    }

    @Test("A2: a bigger export.xml, over many buffers of the zip reader, reads the same as the bare file")
    func manyBuffers() throws {
        var xml = "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_DE\">\n"
        for minute in 0..<20_000 {
            let type = minute % 100 == 0 ? "HKQuantityTypeIdentifierDietaryWater" : "HKQuantityTypeIdentifierHeartRate"
            let time = String(format: "2024-03-%02d %02d:%02d:00 +0100", 1 + minute / 1440, minute / 60 % 24, minute % 60)
            xml += " <Record type=\"\(type)\" sourceName=\"Watch\" unit=\"mL\" startDate=\"\(time)\" endDate=\"\(time)\" value=\"\(minute % 7 + 1)\">\n"
            xml += "  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"0\"/>\n </Record>\n"
        }
        xml += "</HealthData>\n"
        let data = Data(xml.utf8)
        #expect(data.count > 3 * AppleHealthExport.zipBufferSize)
        let archive = try Archive(accessMode: .create)
        try archive.addEntry(with: Self.entry, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID()).zip")
        defer { try? FileManager.default.removeItem(at: file) }
        try #require(archive.data).write(to: file)
        let zipped = try AppleHealthExport.read(contentsOf: file)
        let plain = try AppleHealthExport.read(xml: Array(data))
        #expect(zipped.water.count == 200)
        #expect(zipped.water == plain.water)
    }

    @Test("A2: the type filter and quoted '>' read the same in chunks of any size", arguments: Array(1...12) + [40, 1000])
    func filterInChunks(_ size: Int) throws {
        let xml = Array("""
            <HealthData locale="en">
             <Record subtype="HKQuantityTypeIdentifierDietaryWater" type="HKQuantityTypeIdentifierHeartRate" value="1"/>
             <Record sourceName="a > b" type='HKQuantityTypeIdentifierDietaryWater' unit="mL" value="2"/>
             <Record type="HKQuantityTypeIdentifierDietaryWaterX" value="3"/>
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" value="4"><MetadataEntry key="k" value=">"/></Record>
             <Record	type="HKQuantityTypeIdentifierDietaryWater"	value="5"/>
            </HealthData>

            """.utf8)
        func tags(chunk: Int) throws -> (values: [String?], closed: Set<String>) {
            var scanner = XMLTagScanner(wanted: ["Record", "HealthData"], only: ["Record": ("type", [
                "HKQuantityTypeIdentifierDietaryWater", "HKCategoryTypeIdentifierSleepAnalysis",
            ])])
            var values: [String?] = []
            for start in stride(from: 0, to: xml.count, by: chunk) {
                try scanner.feed(xml[start..<min(start + chunk, xml.count)]) { values.append($0.attributes["value"]) }
            }
            try scanner.finish()
            return (values, scanner.closed)
        }
        let whole = try tags(chunk: xml.count)
        #expect(whole.values == [nil, "2", "4", "5"])
        #expect(whole.closed == ["Record", "HealthData"])
        let chunked = try tags(chunk: size)
        #expect(chunked.values == whole.values)
        #expect(chunked.closed == whole.closed)
    }
}
