import Foundation
import Synchronization

/// An API token the server has seen before, whose holder is known, to be checked again inside
/// the first transaction its request opens: a request then needs no read of its own to know who
/// asks, and a token revoked or expired, or an account disabled, is still refused at once, by
/// every instance that shares the database.
///
/// The server sets it for the request's task (`current`); each store checks it at the start of
/// every transaction (`check`) until one has admitted it. A refused token throws `Refused` from
/// that check, before the transaction reads or writes anything, and every later check of the
/// request throws it again.
public final class TokenAdmission: Sendable {
    public enum State: Sendable { case unchecked, admitted, refused }

    /// The request's own, for the stores to check.
    @TaskLocal public static var current: TokenAdmission?

    public let tokenHash: Data
    public let user: UUID
    public let now: Date
    private let state = Mutex(State.unchecked)

    public init(tokenHash: Data, user: UUID, now: Date) {
        self.tokenHash = tokenHash
        self.user = user
        self.now = now
    }

    public struct Refused: Error {}

    public var checked: State { state.withLock { $0 } }

    /// Once per request: `stillAdmits` asks the store, in the transaction at hand, whether the
    /// token is still `user`'s, neither revoked nor expired, of an enabled account.
    public func check(_ stillAdmits: () throws -> Bool) throws {
        switch checked {
        case .admitted: return
        case .refused: throw Refused()
        case .unchecked:
            let admits = try stillAdmits()
            state.withLock { $0 = admits ? .admitted : .refused }
            if !admits { throw Refused() }
        }
    }

    public func check(_ stillAdmits: () async throws -> Bool) async throws {
        switch checked {
        case .admitted: return
        case .refused: throw Refused()
        case .unchecked:
            let admits = try await stillAdmits()
            state.withLock { $0 = admits ? .admitted : .refused }
            if !admits { throw Refused() }
        }
    }
}
