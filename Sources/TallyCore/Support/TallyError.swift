import Foundation

/// An error a user can cause, with a sentence that tells them what to do about it.
///
/// Every layer maps it in one place: the CLI to a non-zero exit code, the API to a 4xx problem.
public struct TallyError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable {
        /// The input is malformed or out of range.
        case invalidInput
        /// The thing asked for does not exist (or belongs to someone else).
        case notFound
        /// The request is well formed but clashes with what is stored.
        case conflict
        /// Who is asking is not known (a wrong password, a missing or revoked token).
        case unauthorized
        /// Who is asking is known, but their credential does not allow this (a read-only token).
        case forbidden
        /// Too many tries in too short a time: wait and try again.
        case tooManyRequests
        /// The server has too much to do right now: try again shortly.
        case busy
        /// The server's disk is full: nothing was saved.
        case storageFull
        /// The server cannot write to its database (read-only, a disk error, unreachable):
        /// nothing was saved; it goes on by itself once the cause is gone.
        case storageUnavailable
    }

    public let kind: Kind
    public let message: String
    /// For `tooManyRequests`, `busy` and the storage kinds: how many seconds to wait before trying again.
    public let retryAfter: Int?

    public init(_ kind: Kind, _ message: String, retryAfter: Int? = nil) {
        self.kind = kind
        self.message = message
        self.retryAfter = retryAfter
    }

    public static func invalid(_ message: String) -> TallyError { TallyError(.invalidInput, message) }
    public static func notFound(_ message: String) -> TallyError { TallyError(.notFound, message) }
    public static func conflict(_ message: String) -> TallyError { TallyError(.conflict, message) }

    public var description: String { message }
}
