import Foundation
import TallyCore

/// An RFC 9457 problem: what the API answers for every error, with a sentence a person can act on.
public struct Problem: Codable, Sendable, Equatable {
    public var type = "about:blank"
    public var title: String
    public var status: Int
    public var detail: String
    /// The field of the request's body the problem is about, when it is about one (an extension
    /// member of RFC 9457): `amount`, `payers`, or a path such as `split.parts[0].value`.
    public var field: String?

    public init(title: String, status: Int, detail: String, field: String? = nil) {
        self.title = title
        self.status = status
        self.detail = detail
        self.field = field
    }

    /// The refusal a problem stands for, as the server's own service raised it: its kind from the
    /// status, with its sentence and field; nil for a status that is the server's failure.
    public var error: TallyError? {
        Self.kind(of: status).map { TallyError($0, .verbatim(detail), field: field) }
    }

    /// The status that answers an error of this kind: the one place where kinds become statuses.
    public static func status(of kind: TallyError.Kind) -> Int {
        switch kind {
        case .invalidInput: 400
        case .notFound: 404
        case .conflict: 409
        case .unauthorized: 401
        case .forbidden: 403
        case .tooManyRequests: 429
        case .unsupportedType: 415
        case .tooLarge: 413
        case .busy, .storageUnavailable: 503
        case .storageFull: 507
        }
    }

    /// The kind of error a client reports for a problem with this status, as the server's own
    /// service would have raised it; nil for a status that is the server's failure.
    public static func kind(of status: Int) -> TallyError.Kind? {
        switch status {
        case 401: .unauthorized
        case 403: .forbidden
        case 404: .notFound
        case 409: .conflict
        case 413: .tooLarge
        case 415: .unsupportedType
        case 429: .tooManyRequests
        case 503: .busy
        case 507: .storageFull
        case 400..<500: .invalidInput
        default: nil
        }
    }
}
