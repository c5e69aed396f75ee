/// Text of zero-padded numbers and separators ("2025-03-30", "2025-03-30T06:15:00Z") written into
/// one string at once: every API answer writes a date and an instant per drink, and joining a
/// dozen small strings for each was a measurable part of it (bench/server.sh).
package struct DigitWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    package private(set) var count = 0

    /// The text `write` writes, at most `length` bytes.
    package static func string(length: Int, _ write: (inout DigitWriter) -> Void) -> String {
        String(unsafeUninitializedCapacity: length) { buffer in
            var writer = DigitWriter(buffer: buffer)
            write(&writer)
            return writer.count
        }
    }

    /// How many bytes `digits(value, width)` writes: `value`'s digits and sign, or `width` if more.
    package static func length(of value: Int, width: Int) -> Int {
        var length = value < 0 ? 2 : 1
        var rest = value.magnitude / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        return max(length, width)
    }

    private init(buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    /// `value` in decimal with zeros in front up to `width` bytes, the sign included, as `%0*d`
    /// writes it.
    package mutating func digits(_ value: Int, _ width: Int) {
        let length = Self.length(of: value, width: width)
        precondition(count + length <= buffer.count, "DigitWriter: \(value) does not fit the length given")
        if value < 0 { buffer[count] = UInt8(ascii: "-") }
        var rest = value.magnitude
        for index in (count + (value < 0 ? 1 : 0)..<count + length).reversed() {
            buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count += length
    }

    /// A day as `YYYY-MM-DD`, in `dateLength(year:)` bytes.
    package mutating func date(year: Int, month: Int, day: Int) {
        digits(year, 4)
        character("-")
        digits(month, 2)
        character("-")
        digits(day, 2)
    }

    /// The length of a day's `YYYY-MM-DD` in `year`: 10, unless the year has more than four digits or a sign.
    package static func dateLength(year: Int) -> Int { length(of: year, width: 4) + 6 }

    package mutating func character(_ character: Unicode.Scalar) {
        precondition(count < buffer.count, "DigitWriter: \(character) does not fit the length given")
        buffer[count] = UInt8(ascii: character)
        count += 1
    }
}

/// `value` in decimal with zeros in front up to `width` bytes, as `%0*d` writes it.
func zeroPadded(_ value: Int, _ width: Int) -> String {
    DigitWriter.string(length: DigitWriter.length(of: value, width: width)) { $0.digits(value, width) }
}
