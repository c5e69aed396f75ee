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
        /// The file sent is of a kind that is not taken here (a receipt that is not a photo or a PDF).
        case unsupportedType
        /// What was sent is bigger than the most that is taken.
        case tooLarge
        /// The server has too much to do right now: try again shortly.
        case busy
        /// The server's disk is full: nothing was saved.
        case storageFull
        /// The server cannot write to its database (read-only, a disk error, unreachable):
        /// nothing was saved; it goes on by itself once the cause is gone.
        case storageUnavailable
    }

    public let kind: Kind
    /// What to tell the person, in English until it is written in their language.
    public let phrase: Phrase
    /// The sentence in English (logs, the CLI's JSON, tests).
    public var message: String { phrase.description }
    /// For `tooManyRequests`, `busy` and the storage kinds: how many seconds to wait before trying again.
    public let retryAfter: Int?
    /// The field of the request the error is about, when it is about one, named as the API's
    /// bodies name it (`amount`, `payers`, `split`, `startDate`): the API's problem says it, and a
    /// page shows the sentence at that input.
    public private(set) var field: String?

    public init(_ kind: Kind, _ phrase: Phrase, retryAfter: Int? = nil, field: String? = nil) {
        self.kind = kind
        self.phrase = phrase
        self.retryAfter = retryAfter
        self.field = field
    }

    public static func invalid(_ phrase: Phrase, field: String? = nil) -> TallyError { TallyError(.invalidInput, phrase, field: field) }
    public static func notFound(_ phrase: Phrase) -> TallyError { TallyError(.notFound, phrase) }
    public static func conflict(_ phrase: Phrase, field: String? = nil) -> TallyError { TallyError(.conflict, phrase, field: field) }

    /// This error, about `field` unless it already names a field: the check closest to the value
    /// knows best which one it is.
    public func about(_ field: String) -> TallyError {
        var error = self
        error.field = error.field ?? field
        return error
    }

    /// Runs `body`; a TallyError it throws is about `field` unless it already names one.
    public static func about<T>(_ field: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as TallyError {
            throw error.about(field)
        }
    }

    public var description: String { message }

    /// Two refusals are the same when they say the same, in English, about the same field: how
    /// their sentence was put together does not matter.
    public static func == (lhs: TallyError, rhs: TallyError) -> Bool {
        lhs.kind == rhs.kind && lhs.message == rhs.message && lhs.retryAfter == rhs.retryAfter && lhs.field == rhs.field
    }
}
