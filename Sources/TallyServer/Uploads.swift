import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import TallyCore

/// The files people bring in being received and read on this server: a person sends one at a
/// time, and the server takes a few of each kind at once. Beyond that an upload is refused (429
/// with Retry-After) before a byte of it is read. Its body must keep coming (`SteadyBody`), so
/// that nobody holds a place by sending slowly.
final class Uploads: Sendable {
    enum Kind: Sendable {
        /// An Apple Health export, a CSV of drinks, another app's export, a backup to restore:
        /// each takes a thread, disk and minutes.
        case file
        /// A receipt: at most 10 MB in memory while it arrives, and a second's decoding (one
        /// photo at a time on the whole server, see `ReceiptCleaning`).
        case receipt
    }

    /// Files at once on the whole server, unless a test says otherwise.
    static let standardServerWide = 2
    /// Receipts arriving at once on the whole server: 80 MB of memory at most.
    static let receiptsAtOnce = 8
    /// Files at once on the whole server.
    let serverWide: Int
    /// Seconds to wait before trying again: an ordinary file takes well under a minute.
    static let retryAfter = 60
    private let body: SteadyBody

    /// Who is sending, and what.
    private let receiving = NIOLockedValueBox([UUID: Kind]())

    init(serverWide: Int = standardServerWide, body: SteadyBody = SteadyBody()) {
        self.serverWide = serverWide
        self.body = body
    }

    /// Runs `read` on `request` as the user's upload of `kind`, or, when they or the server have
    /// enough, answers with `refused` (by default the refusal is thrown); `read` gets the request
    /// with its body watched.
    func run<T: Sendable>(for user: UUID, _ kind: Kind = .file, receiving request: Request,
                          _ read: @escaping @Sendable (Request) async throws -> T,
                          refused: (TallyError) async throws -> T = { throw $0 }) async throws -> T {
        do {
            try reserve(for: user, kind)
        } catch let error as TallyError {
            return try await refused(error)
        }
        defer { release(user) }
        return try await body.reading(request, read)
    }

    /// Runs `work` on a file that has arrived already (a form's field) as the user's upload.
    func run<T>(for user: UUID, _ work: () async throws -> T) async throws -> T {
        try reserve(for: user, .file)
        defer { release(user) }
        return try await work()
    }

    func reserve(for user: UUID, _ kind: Kind = .file) throws {
        try receiving.withLockedValue { receiving in
            guard receiving[user] == nil else {
                throw TallyError(.tooManyRequests, "You are already sending a file (an export, a backup or a receipt); wait until it has finished, then try again.",
                                 retryAfter: Self.retryAfter)
            }
            let alike = receiving.values.filter { $0 == kind }.count
            switch kind {
            case .file where alike >= serverWide:
                throw TallyError(.tooManyRequests, "The server is busy importing other people's files; try again in a minute.",
                                 retryAfter: Self.retryAfter)
            case .receipt where alike >= Self.receiptsAtOnce:
                throw TallyError(.tooManyRequests, "The server is busy taking other people's receipts; try again in a few seconds.",
                                 retryAfter: 5)
            default:
                receiving[user] = kind
            }
        }
    }

    func release(_ user: UUID) {
        _ = receiving.withLockedValue { $0.removeValue(forKey: user) }
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
