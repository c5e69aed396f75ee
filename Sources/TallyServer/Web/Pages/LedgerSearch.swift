import Foundation
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// The search of a ledger's history as its page carries it: the fields of the search form, in
/// the page's address, so that a search can be bookmarked, reloaded and paged through.
struct LedgerSearch: Equatable {
    var words = ""
    var member: MemberID?
    var category = ""
    var from: LocalDate?
    var through: LocalDate?

    static let none = LedgerSearch()

    /// From the page's address: an empty field is no condition. A field that cannot be read
    /// is refused with a sentence that names it.
    init(_ query: (String) -> String?) throws {
        func date(_ name: String, _ label: Phrase) throws -> LocalDate? {
            guard let text = query(name)?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return try LocalDate.parse(text, field: "“\(label)” in the search")
        }
        words = query("q") ?? ""
        if let text = query("member"), !text.isEmpty {
            guard let member = MemberID(text) else { throw TallyError.invalid("Choose the member to search for from the list.") }
            self.member = member
        }
        category = query("category") ?? ""
        from = try date("from", Phrase("From"))
        through = try date("through", Phrase("Through"))
        _ = try filter
    }

    private init() {}

    var isActive: Bool { self != .none }

    var filter: EntryFilter {
        get throws {
            try EntryFilter(words: words, member: member, category: category.isEmpty ? nil : category, from: from, through: through)
        }
    }

    /// The address's query for this search, and the entry a page starts after: "" for none.
    func query(after: UUID? = nil) -> String {
        var items: [URLQueryItem] = []
        if !words.isEmpty { items.append(URLQueryItem(name: "q", value: words)) }
        if let member { items.append(URLQueryItem(name: "member", value: String(member))) }
        if !category.isEmpty { items.append(URLQueryItem(name: "category", value: category)) }
        if let from { items.append(URLQueryItem(name: "from", value: from.description)) }
        if let through { items.append(URLQueryItem(name: "through", value: through.description)) }
        if let after { items.append(URLQueryItem(name: "after", value: after.uuidString)) }
        guard !items.isEmpty else { return "" }
        var components = URLComponents()
        components.queryItems = items
        // URLComponents leaves + as it is, which a query reads as a space.
        return "?" + (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
    }
}
