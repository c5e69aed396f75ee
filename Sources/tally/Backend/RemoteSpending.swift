import Foundation
import TallyCore
import TallyImport
import TallyStore

/// A Tally server's ledgers, through its API (`--server`, `--token`).
struct RemoteSpending: SpendingBackend {
    let client: APIClient

    private func path(_ ledger: UUID, _ rest: String = "") -> String { "ledgers/\(ledger.uuidString)\(rest)" }

    func ledgers() async throws -> [LedgerJSON] { try await client.send("GET", "ledgers", as: LedgerList.self).items }

    func createLedger(name: String, currency: String, members: [String]?) async throws -> LedgerJSON {
        try await client.send("POST", "ledgers", body: LedgerBody(name: name, currency: currency, members: members))
    }

    func changeLedger(_ ledger: UUID, name: String?, currency: String?) async throws -> LedgerJSON {
        try await client.send("PATCH", path(ledger), body: LedgerBody(name: name, currency: currency))
    }

    func addMember(to ledger: UUID, name: String) async throws -> LedgerJSON {
        try await client.send("POST", path(ledger, "/members"), body: ["name": name])
    }

    func renameMember(_ member: MemberID, in ledger: UUID, to name: String) async throws -> LedgerJSON {
        try await client.send("PATCH", path(ledger, "/members/\(member)"), body: ["name": name])
    }

    func removeMember(_ member: MemberID, from ledger: UUID) async throws -> LedgerJSON {
        try await client.send("DELETE", path(ledger, "/members/\(member)"))
    }

    func openInvite(_ ledger: UUID, days: Int?, uses: Int?) async throws -> LedgerJSON {
        try await client.send("POST", path(ledger, "/invite"), body: InviteBody(days: days, uses: uses))
    }

    func transferOwnership(of ledger: UUID, to member: MemberID) async throws -> LedgerJSON {
        try await client.send("PUT", path(ledger, "/owner"), body: ["member": member])
    }
    func revokeInvite(_ ledger: UUID) async throws -> LedgerJSON { try await client.send("DELETE", path(ledger, "/invite")) }

    func join(code: String, memberName: String?, newName: String?) async throws -> LedgerJSON {
        try await client.send("POST", "ledgers/join", body: JoinBody(code: code, memberName: memberName, name: newName))
    }

    func addExpense(to ledger: UUID, _ expense: ExpenseRequest) async throws -> EntryJSON {
        try await client.send("POST", path(ledger, "/expenses"), body: expense)
    }

    func recordPayment(in ledger: UUID, from: MemberID, to: MemberID, amount: String, date: LocalDate?, note: String?) async throws -> EntryJSON {
        try await client.send("POST", path(ledger, "/payments"), body: PaymentBody(from: from, to: to, amount: amount, date: date, note: note))
    }

    func entries(in ledger: UUID, includeDeleted: Bool, limit: Int) async throws -> [EntryJSON] {
        var items: [EntryJSON] = []
        var cursor: String?
        // The server pages at 500 at most: follow the cursor until `limit` entries are in.
        repeat {
            var query = [URLQueryItem(name: "limit", value: String(min(500, limit - items.count))),
                         URLQueryItem(name: "deleted", value: String(includeDeleted))]
            if let cursor { query.append(URLQueryItem(name: "cursor", value: cursor)) }
            let page = try await client.send("GET", path(ledger, "/entries"), query: query, as: EntryListJSON.self)
            items += page.items
            cursor = page.nextCursor
        } while cursor != nil && items.count < limit
        return items
    }

    /// The API finds entries by whole ids only: the pages are read until two match.
    func entryIDs(startingWith prefix: String, in ledger: UUID, _ listing: EntryListing) async throws -> [UUID] {
        let wanted = prefix.lowercased()
        return try await entries(in: ledger, includeDeleted: listing != .current, limit: .max)
            .filter { entry in
                switch listing {
                case .current, .all: true
                case .deleted: entry.deletedAt != nil
                }
            }
            .map(\.id).filter { $0.uuidString.lowercased().hasPrefix(wanted) }.prefix(2).map { $0 }
    }

    func editEntry(_ id: UUID, in ledger: UUID, _ change: EntryChangeRequest) async throws -> EntryJSON {
        try await client.send("PATCH", path(ledger, "/entries/\(id.uuidString)"), body: change)
    }

    func deleteEntry(_ id: UUID, in ledger: UUID) async throws -> EntryJSON {
        try await client.send("DELETE", path(ledger, "/entries/\(id.uuidString)"))
    }

    func restoreEntry(_ id: UUID, in ledger: UUID) async throws -> EntryJSON {
        try await client.send("POST", path(ledger, "/entries/\(id.uuidString)/restore"))
    }

    func summary(of ledger: UUID) async throws -> SummaryJSON { try await client.send("GET", path(ledger, "/summary")) }

    func activity(in ledger: UUID, limit: Int) async throws -> [ActivityJSON] {
        try await client.send("GET", path(ledger, "/activity"), query: [URLQueryItem(name: "limit", value: String(min(500, limit)))],
                              as: ActivityList.self).items
    }

    func importIHateMoney(_ export: Data, into ledger: UUID?, name: String, currency: String?) async throws -> IHateMoneyImporter.Report {
        var query = [URLQueryItem(name: "name", value: name)]
        if let ledger { query.append(URLQueryItem(name: "ledger", value: ledger.uuidString)) }
        if let currency { query.append(URLQueryItem(name: "currency", value: currency)) }
        let format = IHateMoneyExport.format(of: export)
        let answer = try await client.exchange("POST", "ledgers/import/ihatemoney", query: query, body: export,
                                               contentType: format == .json ? "application/json" : "text/csv")
        do {
            return try JSONDecoder().decode(IHateMoneyImporter.Report.self, from: answer)
        } catch {
            throw RemoteFailure("The server at \(client.server) answered the import with a body this tally cannot read.")
        }
    }

    func export(_ ledger: UUID, format: LedgerExport.Format) async throws -> Data {
        try await client.exchange("GET", path(ledger, "/export"), query: [URLQueryItem(name: "format", value: format.rawValue)],
                                  contentType: "application/json")
    }
}

private struct LedgerBody: Encodable {
    var name: String?
    var currency: String?
    var members: [String]?
}

private struct InviteBody: Encodable {
    var days: Int?
    var uses: Int?
}

private struct JoinBody: Encodable {
    var code: String
    var memberName: String?
    var name: String?
}

private struct PaymentBody: Encodable {
    /// So that a request the network repeats records the payment once.
    var id = UUID()
    var from: MemberID
    var to: MemberID
    var amount: String
    var date: LocalDate?
    var note: String?
}
