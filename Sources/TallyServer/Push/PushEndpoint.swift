import Foundation
import NIOPosix
import TallyCore
#if canImport(Glibc)
import Glibc
#endif

/// Which addresses the server may post push messages to. A subscription names any URL its
/// browser likes; without this, a signed-in person could make the server reach its own
/// loopback, the private network or a cloud metadata service.
public enum PushEndpointPolicy: Sendable {
    /// https only, to public addresses: every real push service.
    case publicHTTPS
    /// Also http, to loopback only: the push service a test runs on 127.0.0.1.
    case loopbackForTests
}

/// A push endpoint, checked when it is subscribed and again, after DNS, when it is sent to.
struct PushEndpoint: Sendable {
    let url: URL
    let host: String

    /// A URL of the policy's scheme whose host, if written as an address, is allowed.
    init(_ text: String, policy: PushEndpointPolicy) throws {
        let refusal = TallyError.invalid("The subscription's endpoint must be an https URL of a push service on the internet.")
        guard text.utf8.count <= 2048, let url = URL(string: text), let host = url.host, !host.isEmpty, url.user == nil, url.password == nil
        else { throw refusal }
        switch (url.scheme, policy) {
        case ("https", _), ("http", .loopbackForTests): break
        default: throw refusal
        }
        self.url = url
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        if let literal = IPAddress(self.host), !Self.allows(literal, policy) { throw refusal }
    }

    static func allows(_ address: IPAddress, _ policy: PushEndpointPolicy) -> Bool {
        switch policy {
        case .publicHTTPS: address.isPublic
        case .loopbackForTests: address.isPublic || address.isLoopback
        }
    }

    /// The address to connect to: the host's, once every address it resolves to is allowed
    /// (a name with one private address among public ones is refused whole).
    func resolve(policy: PushEndpointPolicy) async throws -> IPAddress {
        let host = self.host
        let addresses = try await NIOThreadPool.singleton.runIfActive { Self.addresses(of: host) }
        guard let first = addresses.first else {
            throw TallyError.notFound("The push service \(host) has no address.")
        }
        guard addresses.allSatisfy({ Self.allows($0, policy) }) else {
            throw TallyError.invalid("The push service \(host) is not on the internet.")
        }
        return first
    }

    /// The host's addresses, by the system's resolver.
    static func addresses(of host: String) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var node = list
        while let info = node?.pointee {
            switch info.ai_family {
            case AF_INET:
                info.ai_addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    addresses.append(IPAddress(bytes: withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) }))
                }
            case AF_INET6:
                info.ai_addr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    addresses.append(IPAddress(bytes: withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }))
                }
            default: break
            }
            node = info.ai_next
        }
        return addresses
    }
}
