import Foundation
import TallyAPI
import TallyCommands
import TallyCore
import TallyImport
import TallyRepositories
import TallyServices

/// A Tally server's ledgers, through its API (`--server`, `--token`).
struct RemoteSpending: SpendingBackend {
    let client: APIClient

    func ledgers() async throws -> [LedgerJSON] { try await client.send(API.ledgers).items }

    func createLedger(name: String, currency: String, members: [String]?) async throws -> LedgerJSON {
        try await client.send(API.createLedger, body: NewLedger(name: name, currency: currency, members: members))
    }

    func changeLedger(_ ledger: UUID, name: String?, currency: String?) async throws -> LedgerJSON {
        try await client.send(API.changeLedger, ledger, body: LedgerChange(name: name, currency: currency))
    }

    func notifications(in ledger: UUID, set on: Bool?) async throws -> LedgerNotifications {
        guard let on else { return try await client.send(API.ledgerNotifications, ledger) }
        return try await client.send(API.setLedgerNotifications, ledger, body: LedgerNotifications(changes: on))
    }

    func addMember(to ledger: UUID, name: String) async throws -> LedgerJSON {
        try await client.send(API.addMember, ledger, body: MemberName(name: name))
    }

    func renameMember(_ member: MemberID, in ledger: UUID, to name: String) async throws -> LedgerJSON {
        try await client.send(API.renameMember, ledger, member, body: MemberName(name: name))
    }

    func removeMember(_ member: MemberID, from ledger: UUID) async throws -> LedgerJSON {
        try await client.send(API.removeMember, ledger, member)
    }

    func openInvite(_ ledger: UUID, days: Int?, uses: Int?) async throws -> LedgerJSON {
        try await client.send(API.openInvite, ledger, body: InviteRequest(days: days, uses: uses))
    }

    func transferOwnership(of ledger: UUID, to member: MemberID) async throws -> LedgerJSON {
        try await client.send(API.transferOwnership, ledger, body: NewOwner(member: member))
    }

    func revokeInvite(_ ledger: UUID) async throws -> LedgerJSON { try await client.send(API.revokeInvite, ledger) }

    func join(code: String, memberName: String?, newName: String?) async throws -> LedgerJSON {
        try await client.send(API.joinLedger, body: JoinRequest(code: code, memberName: memberName, name: newName))
    }

    func addExpense(to ledger: UUID, _ expense: NewExpense) async throws -> EntryJSON {
        try await client.send(API.addExpense, ledger, body: expense)
    }

    func recordPayment(in ledger: UUID, _ payment: NewPayment) async throws -> EntryJSON {
        try await client.send(API.recordPayment, ledger, body: payment)
    }

    func entries(in ledger: UUID, includeDeleted: Bool, matching search: EntryFilter, limit: Int) async throws -> [EntryJSON] {
        var items: [EntryJSON] = []
        var cursor: String?
        var searched: [URLQueryItem] = []
        // The words as typed: the server folds them itself.
        if let words = search.typedWords { searched.append(URLQueryItem(name: "q", value: words)) }
        if let member = search.member { searched.append(URLQueryItem(name: "member", value: String(member))) }
        if let category = search.category { searched.append(URLQueryItem(name: "category", value: category)) }
        if let from = search.from { searched.append(URLQueryItem(name: "from", value: from.description)) }
        if let through = search.through { searched.append(URLQueryItem(name: "through", value: through.description)) }
        // The server pages at 500 at most: follow the cursor until `limit` entries are in.
        repeat {
            var query = [URLQueryItem(name: "limit", value: String(min(500, limit - items.count))),
                         URLQueryItem(name: "deleted", value: String(includeDeleted))] + searched
            if let cursor { query.append(URLQueryItem(name: "cursor", value: cursor)) }
            let page = try await client.send(API.ledgerEntries, ledger, query: query)
            items += page.items
            cursor = page.nextCursor
        } while cursor != nil && items.count < limit
        return items
    }

    /// The API finds entries by whole ids only: the pages are read until two match.
    func entryIDs(startingWith prefix: String, in ledger: UUID, _ listing: EntryListing) async throws -> [UUID] {
        let wanted = prefix.lowercased()
        return try await entries(in: ledger, includeDeleted: listing != .current, matching: .everything, limit: .max)
            .filter { entry in
                switch listing {
                case .current, .all: true
                case .deleted: entry.deletedAt != nil
                }
            }
            .map(\.id).filter { $0.uuidString.lowercased().hasPrefix(wanted) }.prefix(2).map { $0 }
    }

    func editEntry(_ id: UUID, in ledger: UUID, _ change: EntryChangeBody) async throws -> EntryJSON {
        try await client.send(API.editLedgerEntry, ledger, id, body: change)
    }

    func deleteEntry(_ id: UUID, in ledger: UUID) async throws -> EntryJSON { try await client.send(API.deleteLedgerEntry, ledger, id) }
    func restoreEntry(_ id: UUID, in ledger: UUID) async throws -> EntryJSON { try await client.send(API.restoreLedgerEntry, ledger, id) }
    func summary(of ledger: UUID) async throws -> SummaryJSON { try await client.send(API.summary, ledger) }

    func activity(in ledger: UUID, limit: Int) async throws -> [ActivityJSON] {
        try await client.send(API.activity, ledger, query: [URLQueryItem(name: "limit", value: String(min(500, limit)))]).items
    }

    func entry(_ id: UUID, in ledger: UUID) async throws -> EntryJSON { try await client.send(API.ledgerEntry, ledger, id) }

    /// The file's bytes are the body; the server reads what they are from them.
    func attachReceipt(_ file: Data, mediaType: String, to id: UUID, in ledger: UUID) async throws -> EntryJSON {
        // Up to 10 MB, over what may be a phone's connection.
        try await client.upload(API.attachReceipt, ledger, id, data: file, contentType: mediaType, timeout: APIClient.timeout * 4)
    }

    /// What the receipt is kept as is the answer's `Content-Type`.
    func receipt(of id: UUID, in ledger: UUID) async throws -> KeptReceipt {
        var bytes = Data()
        let mediaType = try await client.download(API.receipt, ledger, id) { bytes.append($0) }
        let type = mediaType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let format = type.flatMap(ReceiptFormat.init(rawValue:)) else {
            throw RemoteFailure(Phrase(
                "The server at \(client.server) answered \(API.receipt) with a body this tally cannot read: check that it is a Tally server of this version."))
        }
        return KeptReceipt(format: format, bytes: bytes)
    }

    func removeReceipt(of id: UUID, in ledger: UUID) async throws -> EntryJSON { try await client.send(API.removeReceipt, ledger, id) }

    func recurringExpenses(in ledger: UUID) async throws -> [RecurringExpenseJSON] {
        try await client.send(API.recurringExpenses, ledger).items
    }

    func addRecurringExpense(to ledger: UUID, _ expense: NewRecurringExpense) async throws -> RecurringExpenseJSON {
        try await client.send(API.addRecurringExpense, ledger, body: expense)
    }

    func changeRecurringExpense(_ id: UUID, in ledger: UUID, _ change: RecurringExpenseChange) async throws -> RecurringExpenseJSON {
        try await client.send(API.changeRecurringExpense, ledger, id, body: change)
    }

    func deleteRecurringExpense(_ id: UUID, in ledger: UUID) async throws {
        _ = try await client.send(API.deleteRecurringExpense, ledger, id)
    }

    func importExport(_ export: Data, from app: OtherAppExport.App, into ledger: UUID?, name: String, currency: String?,
                      rates: [String]) async throws -> IHateMoneyImportReport {
        var query = [URLQueryItem(name: "name", value: name)]
        if let ledger { query.append(URLQueryItem(name: "ledger", value: ledger.uuidString)) }
        if let currency { query.append(URLQueryItem(name: "currency", value: currency)) }
        query += rates.map { URLQueryItem(name: "rate", value: $0) }
        let json = app == .ihatemoney && IHateMoneyExport.format(of: export) == .json
        return try await client.upload(app == .ihatemoney ? API.importIHateMoney : API.importSplitwise, data: export, query: query,
                                       contentType: json ? "application/json" : "text/csv")
    }

    func export(_ ledger: UUID, format: LedgerExport.Format) async throws -> Data {
        var file = Data()
        try await client.download(API.exportLedger, ledger, query: [URLQueryItem(name: "format", value: format.rawValue)]) {
            file.append($0)
        }
        return file
    }
}
