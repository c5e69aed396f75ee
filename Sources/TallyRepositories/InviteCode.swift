import Crypto
import Foundation

/// Invite codes: 12 letters and digits without look-alikes (no 0/O, 1/I/L), in groups of four,
/// read aloud or typed from a phone: 54 bits of randomness.
public enum InviteCode {
    static let alphabet = Array("23456789ABCDEFGHJKMNPQRSTUVWXYZ")

    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let characters = (0..<12).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] }
        return stride(from: 0, to: 12, by: 4).map { String(characters[$0..<$0 + 4]) }.joined(separator: "-")
    }

    /// What the store keeps of a code: its SHA-256, so that a copy of the database lets no one
    /// in. The code has 54 random bits and lasts days, so a plain hash is enough.
    public static func hash(_ code: String) -> Data {
        Data(SHA256.hash(data: Data(normalize(code).utf8)))
    }

    /// The code as people see it, from what someone typed or pasted: any case, with or without dashes,
    /// or the whole invite link.
    public static func normalize(_ text: String) -> String {
        let last = text.split(separator: "/").last.map(String.init) ?? text
        let characters = last.uppercased().filter { alphabet.contains($0) }
        guard characters.count == 12 else { return last }
        let array = Array(characters)
        return stride(from: 0, to: 12, by: 4).map { String(array[$0..<$0 + 4]) }.joined(separator: "-")
    }
}
