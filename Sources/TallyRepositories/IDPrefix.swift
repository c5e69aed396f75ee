import Foundation

/// The ids that start with some hex digits, as the range of 16-byte keys they lie in: an id
/// typed in part (`tally expenses delete 3f2a`) is found on the primary key's index instead of
/// by turning every id of a ledger or a person into text.
package struct IDPrefix {
    package let lowest: Data
    package let highest: Data

    /// nil unless `text` is 1 to 32 hex digits; dashes are left out, as in a UUID's text.
    package init?(_ text: String) {
        let hex = text.replacingOccurrences(of: "-", with: "").lowercased()
        guard (1...32).contains(hex.count), hex.allSatisfy(\.isHexDigit) else { return nil }
        func bytes(_ padded: String) -> Data {
            var data = Data(capacity: 16)
            var index = padded.startIndex
            while index < padded.endIndex {
                let next = padded.index(index, offsetBy: 2)
                data.append(UInt8(padded[index..<next], radix: 16)!)
                index = next
            }
            return data
        }
        let rest = 32 - hex.count
        lowest = bytes(hex + String(repeating: "0", count: rest))
        highest = bytes(hex + String(repeating: "f", count: rest))
    }

    /// The bounds as ids, for a store that keeps ids as `uuid`, which PostgreSQL compares byte by byte too.
    package var ids: (lowest: UUID, highest: UUID) {
        func id(_ bytes: Data) -> UUID { bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) } }
        return (id(lowest), id(highest))
    }
}
