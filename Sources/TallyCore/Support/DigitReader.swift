/// The number a fixed-width field of ASCII digits spells ("0042" is 42), or nil when any byte is
/// not a digit: the strict reading of dates and times that `DigitWriter` writes and others send.
package enum DigitReader {
    package static func number(_ digits: some Collection<UInt8>) -> Int? {
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }
}
