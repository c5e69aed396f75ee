/// Text of zero-padded numbers and separators ("2025-03-30", "2025-03-30T06:15:00Z") written into
/// one string at once: every API answer writes a date and an instant per drink, and joining a
/// dozen small strings for each was a measurable part of it (bench/server.sh).
struct DigitWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    /// The text `write` writes, at most `length` bytes.
    static func string(length: Int, _ write: (inout DigitWriter) -> Void) -> String {
        String(unsafeUninitializedCapacity: length) { buffer in
            var writer = DigitWriter(buffer: buffer)
            write(&writer)
            return writer.count
        }
    }

    private init(buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    /// `value`'s last `width` digits, zero-padded: the caller keeps it within 0 ..< 10^width.
    mutating func digits(_ value: Int, _ width: Int) {
        var rest = value
        for index in (count..<count + width).reversed() {
            buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count += width
    }

    /// A day as `YYYY-MM-DD`: the caller keeps the year within 0...9999.
    mutating func date(year: Int, month: Int, day: Int) {
        digits(year, 4)
        character("-")
        digits(month, 2)
        character("-")
        digits(day, 2)
    }

    mutating func character(_ character: Unicode.Scalar) {
        buffer[count] = UInt8(ascii: character)
        count += 1
    }
}
