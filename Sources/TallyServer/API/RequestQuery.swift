import Foundation
import Hummingbird
import TallyCore

// The parts of a request beside its body: query parameters and the ids in the path.

extension Request {
    static let pageSizes = 1...500

    /// The `limit` query parameter: how many items a page holds (1–500).
    func pageLimit(default value: Int) throws -> Int {
        let limit = try query("limit", Int.init, form: Phrase("a whole number")) ?? value
        guard Self.pageSizes.contains(limit) else {
            throw TallyError.invalid("The query parameter limit must be between 1 and 500; \(limit) is not.")
        }
        return limit
    }

    /// The `cursor` query parameter of a page after the first.
    var pageOffset: Int {
        get throws { try query("cursor", { Int($0).flatMap { $0 >= 0 ? $0 : nil } }, form: Phrase("a cursor from an earlier page")) ?? 0 }
    }

    /// A query parameter as typed, or a 400 that names it and its form.
    func query<T>(_ name: String, _ parse: (String) -> T?, form: Phrase) throws -> T? {
        guard let text = uri.queryParameters.get(name) else { return nil }
        guard let value = parse(text) else {
            throw TallyError.invalid("The query parameter \(name) must be \(form); \(UserText.quoted(text)) is not.")
        }
        return value
    }
}

extension Parameters {
    /// The path's id: an id that is not even a UUID names nothing, so it is a 404.
    func id(_ what: Phrase, parameter: String = "id") throws -> UUID {
        guard let text = get(parameter), let id = UUID(uuidString: text) else {
            throw TallyError.notFound("There is no \(what) with the id \(get(parameter) ?? "").")
        }
        return id
    }

    /// The ledger named in the path.
    var ledger: UUID {
        get throws { try id(Phrase("ledger you are a member of"), parameter: "ledger") }
    }

    /// The ledger member named in the path.
    var member: MemberID {
        get throws {
            guard let text = get("member"), let id = MemberID(text) else {
                throw TallyError.notFound("This ledger has no member with the id \(get("member") ?? "").")
            }
            return id
        }
    }
}
