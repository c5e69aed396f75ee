import Foundation
import GRDB
@testable import TallyStore
import Testing

/// The stored text of a date is GRDB's own, to the byte: the columns compare as text
/// (`expiresAt > ?`) and every row written before must read the same.
@Suite("Stored dates")
struct StoredDateTests {
    static func grdb(_ date: Date) -> String { String.fromDatabaseValue(date.databaseValue)! }

    @Test("Any instant from 1583 to 9999, to the millisecond and between, is written as GRDB writes it")
    func matchesGRDB() {
        var generator = SystemRandomNumberGenerator()
        // 1583-01-01 to 9999-12-31 in seconds since 2001, and fractions that land on and around
        // half a millisecond, where rounding shows.
        let range = -13_190_860_800.0...252_423_993_599.0
        let fractions = [0, 0.0005, 0.0004999, 0.0005001, 0.9995, 0.9999999, 0.123456]
        for _ in 0..<20_000 {
            let whole = Double(Int.random(in: Int(range.lowerBound)...Int(range.upperBound), using: &generator))
            for fraction in [fractions.randomElement(using: &generator)!, Double.random(in: 0..<1, using: &generator)] {
                let date = Date(timeIntervalSinceReferenceDate: whole + fraction)
                #expect(StoredDate.text(date) == Self.grdb(date), "\(date.timeIntervalSinceReferenceDate)")
            }
        }
        for text in ["1583-01-01 00:00:00.000", "1999-12-31 23:59:59.999", "2024-02-29 12:00:00.000", "9999-12-31 23:59:59.999"] {
            let date = Date.fromDatabaseValue(text.databaseValue)!
            #expect(StoredDate.text(date) == text)
        }
    }

    @Test("A stored date reads as GRDB reads it, to the bit, from 1583 to 9999")
    func readsAsGRDB() {
        var generator = SystemRandomNumberGenerator()
        let range = -13_190_860_800.0...252_423_993_599.0
        for _ in 0..<20_000 {
            let date = Date(timeIntervalSinceReferenceDate: Double.random(in: range, using: &generator))
            let text = Self.grdb(date)
            let read = StoredDate.date(text.databaseValue)
            #expect(read?.timeIntervalSinceReferenceDate.bitPattern
                    == Date.fromDatabaseValue(text.databaseValue)!.timeIntervalSinceReferenceDate.bitPattern, "\(text)")
        }
        for text in ["1583-01-01 00:00:00.000", "1970-01-01 00:00:00.000", "2000-12-31 23:59:59.999", "2024-02-29 12:00:00.001"] {
            #expect(StoredDate.date(text.databaseValue) == Date.fromDatabaseValue(text.databaseValue), "\(text)")
        }
    }

    @Test("Any other value is left to GRDB")
    func othersLeftToGRDB() {
        let others: [DatabaseValue] = [
            "2024-02-30 12:00:00.000".databaseValue, "2024-02-29 24:00:00.000".databaseValue, "2024-02-29T12:00:00.000".databaseValue,
            "2024-02-29 12:00:00".databaseValue, "1582-12-31 23:59:59.999".databaseValue, "2024-02-29 12:00:0x.000".databaseValue,
            "+024-02-29 12:00:00.000".databaseValue, "٢٠٢٤-02-29 12:00:00.000".databaseValue, 1_700_000_000.databaseValue, .null,
        ]
        for value in others {
            #expect(StoredDate.date(value) == nil, "\(value)")
        }
    }

    @Test("Before 1583 and after 9999, GRDB's own text is stored")
    func outside() {
        for seconds in [-13_190_860_800.001, -63_114_076_800.0, 252_423_993_600.0, 400_000_000_000.0] {
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            #expect(StoredDate.text(date) == nil, "\(seconds)")
            #expect(StoredDate.value(date) == date.databaseValue, "\(seconds)")
        }
    }
}
