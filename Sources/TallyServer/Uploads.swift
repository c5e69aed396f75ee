import Foundation
import NIOConcurrencyHelpers
import TallyCore

/// The files people bring in (Apple Health exports, CSVs of drinks, IHateMoney exports, backups
/// to restore) being received and read on this server. Each takes a thread, disk and minutes,
/// so a person brings in one at a time and the server a few: beyond that an upload is refused
/// (429 with Retry-After) before a byte of it is stored.
final class Uploads: Sendable {
    /// Uploads at once on the whole server, unless a test says otherwise.
    static let standardServerWide = 2
    /// Uploads at once on the whole server.
    let serverWide: Int
    /// Seconds to wait before trying again: an ordinary file takes well under a minute.
    static let retryAfter = 60

    private let receiving = NIOLockedValueBox(Set<UUID>())

    init(serverWide: Int = standardServerWide) {
        self.serverWide = serverWide
    }

    /// Runs `body` as the user's upload, or refuses it when they or the server have enough.
    func run<T>(for user: UUID, _ body: () async throws -> T) async throws -> T {
        try reserve(for: user)
        defer { release(user) }
        return try await body()
    }

    func reserve(for user: UUID) throws {
        try receiving.withLockedValue { receiving in
            guard !receiving.contains(user) else {
                throw TallyError(.tooManyRequests, "You are already sending a file (an export, a backup or a receipt); wait until it has finished, then try again.",
                                 retryAfter: Self.retryAfter)
            }
            guard receiving.count < serverWide else {
                throw TallyError(.tooManyRequests, "The server is busy importing other people's files; try again in a minute.",
                                 retryAfter: Self.retryAfter)
            }
            receiving.insert(user)
        }
    }

    func release(_ user: UUID) {
        _ = receiving.withLockedValue { $0.remove(user) }
    }
}

/// The disk that the uploads in progress take, counted against a budget for the whole server:
/// past it, an upload is refused as a full disk would refuse it (507), and what it had stored
/// is given back.
final class UploadSpace: Sendable {
    /// The disk the uploads in progress on this server may take together.
    static let server = UploadSpace(budget: 6 << 30)

    let budget: Int64
    private let used = NIOLockedValueBox<Int64>(0)

    init(budget: Int64) {
        self.budget = budget
    }

    var inUse: Int64 { used.withLockedValue { $0 } }

    /// The space of one file, given back when the lease goes (its file is deleted with it).
    func lease() -> Lease { Lease(space: self) }

    fileprivate func take(_ bytes: Int64) -> Bool {
        used.withLockedValue { used in
            guard used + bytes <= budget else { return false }
            used += bytes
            return true
        }
    }

    fileprivate func giveBack(_ bytes: Int64) {
        used.withLockedValue { $0 -= bytes }
    }

    final class Lease: @unchecked Sendable {
        private let space: UploadSpace
        private var held: Int64 = 0

        fileprivate init(space: UploadSpace) {
            self.space = space
        }

        /// Counts `bytes` more of this file, or refuses the upload when the budget is spent.
        func take(_ bytes: Int64) throws {
            guard space.take(bytes) else { throw HealthUpload.cannotStore() }
            held += bytes
        }

        deinit { space.giveBack(held) }
    }
}
