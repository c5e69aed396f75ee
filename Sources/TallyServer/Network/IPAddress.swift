import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address as its bytes: what a push endpoint resolves to, and who sent a
/// request.
struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6.
    let bytes: [UInt8]

    init?(_ text: String) {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: v4) { Array($0) }
        } else if inet_pton(AF_INET6, text.split(separator: "%").first.map(String.init) ?? text, &v6) == 1 {
            bytes = withUnsafeBytes(of: v6) { Array($0) }
        } else {
            return nil
        }
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    var description: String {
        bytes.count == 4 ? bytes.map(String.init).joined(separator: ".")
            : stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(separator: ":")
    }

    /// The IPv4 address inside an IPv4-mapped IPv6 one (::ffff:a.b.c.d).
    var unmapped: IPAddress {
        bytes.count == 16 && bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
            ? IPAddress(bytes: Array(bytes[12...])) : self
    }

    var isLoopback: Bool { IPNetwork.loopback.contains { $0.contains(self) } }

    /// Whether the address is on the public internet: not loopback, private, link-local (cloud
    /// metadata services live at 169.254.169.254), shared, documentation, multicast or reserved.
    var isPublic: Bool { !IPNetwork.notPublic.contains { $0.contains(self) } }
}

/// An address range written as CIDR ("10.0.0.0/8", "fd00::/8"), or a single address.
struct IPNetwork: Sendable, CustomStringConvertible {
    let address: IPAddress
    let prefixLength: Int

    init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let address = parts.first.flatMap(IPAddress.init) else { return nil }
        let bits = address.bytes.count * 8
        guard let length = parts.count == 2 ? Int(parts[1]) : bits, (0...bits).contains(length) else { return nil }
        self.address = address
        prefixLength = length
    }

    var description: String { "\(address)/\(prefixLength)" }

    func contains(_ candidate: IPAddress) -> Bool {
        let candidate = address.bytes.count == 4 ? candidate.unmapped : candidate
        guard candidate.bytes.count == address.bytes.count else { return false }
        for bit in 0..<prefixLength {
            let mask = UInt8(0x80) >> UInt8(bit % 8)
            if candidate.bytes[bit / 8] & mask != address.bytes[bit / 8] & mask { return false }
        }
        return true
    }

    static let loopback = ["127.0.0.0/8", "::1/128"].compactMap(IPNetwork.init)

    /// The special-purpose ranges of RFC 6890 and its updates (IANA's registries), with the
    /// IPv4-compatible addresses (::/96, deprecated by RFC 4291): ::127.0.0.1 must not reach
    /// this machine by a detour.
    static let notPublic = [
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
        "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24",
        "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
        "::/96", "::1/128", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64", "2001::/23", "2001:db8::/32", "2002::/16",
        "fc00::/7", "fe80::/10", "ff00::/8",
    ].compactMap(IPNetwork.init)
}
