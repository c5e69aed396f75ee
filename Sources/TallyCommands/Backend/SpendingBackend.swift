import Foundation
import TallyAPI
import TallyCore
import TallyImport
import TallyRepositories
import TallyServices

/// What the spending commands need: the user's ledgers, in the local database or on a Tally
/// server. Both answer with the API's views (TallyAPI), so that a command prints the same
/// text and JSON whichever it runs against. Members are named by id here: the commands resolve
/// the names people type against the ledger's members first.
package protocol SpendingBackend: Sendable {
    func ledgers() async throws -> [LedgerJSON]
    func createLedger(name: String, currency: String, members: [String]?) async throws -> LedgerJSON
    func changeLedger(_ ledger: UUID, name: String?, currency: String?) async throws -> LedgerJSON
    /// Whether you hear of the changes others make (set when `on` is given).
    func notifications(in ledger: UUID, set on: Bool?) async throws -> LedgerNotifications
    func addMember(to ledger: UUID, name: String) async throws -> LedgerJSON
    func renameMember(_ member: MemberID, in ledger: UUID, to name: String) async throws -> LedgerJSON
    func removeMember(_ member: MemberID, from ledger: UUID) async throws -> LedgerJSON
    /// A new invite (the server's defaults for what is nil); the answer alone has its code.
    func openInvite(_ ledger: UUID, days: Int?, uses: Int?) async throws -> LedgerJSON
    func revokeInvite(_ ledger: UUID) async throws -> LedgerJSON
    func transferOwnership(of ledger: UUID, to member: MemberID) async throws -> LedgerJSON
    /// Joins as the member called `memberName`, or as a new member called `newName`.
    func join(code: String, memberName: String?, newName: String?) async throws -> LedgerJSON

    func addExpense(to ledger: UUID, _ expense: NewExpense) async throws -> EntryJSON
    func recordPayment(in ledger: UUID, _ payment: NewPayment) async throws -> EntryJSON
    /// Newest first, those `search` finds.
    func entries(in ledger: UUID, includeDeleted: Bool, matching search: EntryFilter, limit: Int) async throws -> [EntryJSON]
    /// The ids of the entries `listing` names that start with `prefix`, two at most.
    func entryIDs(startingWith prefix: String, in ledger: UUID, _ listing: EntryListing) async throws -> [UUID]
    func editEntry(_ id: UUID, in ledger: UUID, _ change: EntryChangeBody) async throws -> EntryJSON
    func deleteEntry(_ id: UUID, in ledger: UUID) async throws -> EntryJSON
    func restoreEntry(_ id: UUID, in ledger: UUID) async throws -> EntryJSON
    func summary(of ledger: UUID) async throws -> SummaryJSON
    func activity(in ledger: UUID, limit: Int) async throws -> [ActivityJSON]

    /// One entry, deleted or not.
    func entry(_ id: UUID, in ledger: UUID) async throws -> EntryJSON
    /// Keeps `file` as the entry's receipt, in place of any before it. What the file is comes from
    /// its bytes; `mediaType` is only what its name says.
    func attachReceipt(_ file: Data, mediaType: String, to id: UUID, in ledger: UUID) async throws -> EntryJSON
    /// The entry's receipt as it is kept; not found when it has none.
    func receipt(of id: UUID, in ledger: UUID) async throws -> KeptReceipt
    func removeReceipt(of id: UUID, in ledger: UUID) async throws -> EntryJSON

    func recurringExpenses(in ledger: UUID) async throws -> [RecurringExpenseJSON]
    func addRecurringExpense(to ledger: UUID, _ expense: NewRecurringExpense) async throws -> RecurringExpenseJSON
    func changeRecurringExpense(_ id: UUID, in ledger: UUID, _ change: RecurringExpenseChange) async throws -> RecurringExpenseJSON
    func deleteRecurringExpense(_ id: UUID, in ledger: UUID) async throws

    /// Another app's export (IHateMoney's JSON or CSV, Splitwise's CSV) into `ledger`, or into a
    /// new ledger called `name`; `rates` as typed (`USD=0.92`).
    func importExport(_ export: Data, from app: OtherAppExport.App, into ledger: UUID?, name: String, currency: String?,
                      rates: [String]) async throws -> IHateMoneyImporter.Report
    func export(_ ledger: UUID, format: LedgerExport.Format) async throws -> Data
}

/// A receipt as it is kept with its entry (a photo written again as a JPEG or PNG, or a PDF),
/// as either backend reads it back.
package struct KeptReceipt: Sendable {
    let format: ReceiptFormat
    let bytes: Data

    package init(format: ReceiptFormat, bytes: Data) {
        (self.format, self.bytes) = (format, bytes)
    }
}

/// The local database, through the same service the server uses. With no server to record the
/// recurring expenses on their day, a command that reads a ledger records the ones due first.
struct LocalSpending: SpendingBackend {
    let service: SpendingService

    private func recordDue() async throws {
        _ = try await RecurringSchedule(store: service.store, clock: service.clock).recordDue()
    }

    private func json(_ details: LedgerDetails) -> LedgerJSON { LedgerJSON(details, user: service.user) }

    func ledgers() async throws -> [LedgerJSON] { try await service.ledgers().map(json) }

    func createLedger(name: String, currency: String, members: [String]?) async throws -> LedgerJSON {
        json(try await service.createLedger(name: name, currency: currency, memberNames: members))
    }

    func changeLedger(_ ledger: UUID, name: String?, currency: String?) async throws -> LedgerJSON {
        json(try await service.changeLedger(ledger, name: name, currency: currency))
    }

    func notifications(in ledger: UUID, set on: Bool?) async throws -> LedgerNotifications {
        if let on { try await service.setChangeNotifications(on, in: ledger) }
        return LedgerNotifications(changes: try await service.changeNotifications(in: ledger))
    }

    func addMember(to ledger: UUID, name: String) async throws -> LedgerJSON { json(try await service.addMember(to: ledger, name: name)) }

    func renameMember(_ member: MemberID, in ledger: UUID, to name: String) async throws -> LedgerJSON {
        json(try await service.renameMember(member, in: ledger, to: name))
    }

    func removeMember(_ member: MemberID, from ledger: UUID) async throws -> LedgerJSON {
        json(try await service.removeMember(member, from: ledger))
    }

    func openInvite(_ ledger: UUID, days: Int?, uses: Int?) async throws -> LedgerJSON {
        json(try await service.openInvite(ledger, terms: try LedgerInviteTerms(days: days, uses: uses)))
    }

    func transferOwnership(of ledger: UUID, to member: MemberID) async throws -> LedgerJSON {
        json(try await service.transferOwnership(of: ledger, to: .id(member)))
    }
    func revokeInvite(_ ledger: UUID) async throws -> LedgerJSON { json(try await service.revokeInvite(ledger)) }

    func join(code: String, memberName: String?, newName: String?) async throws -> LedgerJSON {
        json(try await service.join(code: code, as: memberName.map { .name($0) }, newName: newName))
    }

    func addExpense(to ledger: UUID, _ expense: NewExpense) async throws -> EntryJSON {
        try EntryJSON(try await service.addExpense(to: ledger, expense).entry)
    }

    func recordPayment(in ledger: UUID, _ payment: NewPayment) async throws -> EntryJSON {
        try EntryJSON(try await service.recordPayment(in: ledger, payment).entry)
    }

    func entries(in ledger: UUID, includeDeleted: Bool, matching search: EntryFilter, limit: Int) async throws -> [EntryJSON] {
        try await recordDue()
        return try await service.entries(in: ledger, includeDeleted ? .all : .current, matching: search, limit: limit).map(EntryJSON.init)
    }

    func entryIDs(startingWith prefix: String, in ledger: UUID, _ listing: EntryListing) async throws -> [UUID] {
        try await service.entryIDs(startingWith: prefix, in: ledger, listing)
    }

    func editEntry(_ id: UUID, in ledger: UUID, _ change: EntryChangeBody) async throws -> EntryJSON {
        try EntryJSON(try await service.editEntry(id, in: ledger, change))
    }

    func deleteEntry(_ id: UUID, in ledger: UUID) async throws -> EntryJSON { try EntryJSON(try await service.deleteEntry(id, in: ledger)) }
    func restoreEntry(_ id: UUID, in ledger: UUID) async throws -> EntryJSON { try EntryJSON(try await service.restoreEntry(id, in: ledger)) }
    func summary(of ledger: UUID) async throws -> SummaryJSON {
        try await recordDue()
        return SummaryJSON(try await service.summary(of: ledger))
    }

    func activity(in ledger: UUID, limit: Int) async throws -> [ActivityJSON] {
        try await service.activity(in: ledger, limit: limit).map(ActivityJSON.init)
    }

    func entry(_ id: UUID, in ledger: UUID) async throws -> EntryJSON { try EntryJSON(try await service.entry(id, in: ledger)) }

    /// A photo is cleaned here, by libvips, which is opened on the first one.
    func attachReceipt(_ file: Data, mediaType _: String, to id: UUID, in ledger: UUID) async throws -> EntryJSON {
        try EntryJSON(try await service.attachReceipt(to: id, in: ledger) { file })
    }

    func receipt(of id: UUID, in ledger: UUID) async throws -> KeptReceipt {
        let receipt = try await service.receipt(of: id, in: ledger)
        return KeptReceipt(format: receipt.format, bytes: receipt.bytes)
    }

    func removeReceipt(of id: UUID, in ledger: UUID) async throws -> EntryJSON {
        try EntryJSON(try await service.removeReceipt(of: id, in: ledger))
    }

    func recurringExpenses(in ledger: UUID) async throws -> [RecurringExpenseJSON] {
        try await recordDue()
        return try await service.recurringExpenses(in: ledger).map(RecurringExpenseJSON.init)
    }

    func addRecurringExpense(to ledger: UUID, _ expense: NewRecurringExpense) async throws -> RecurringExpenseJSON {
        try RecurringExpenseJSON(try await service.addRecurringExpense(to: ledger, expense))
    }

    func changeRecurringExpense(_ id: UUID, in ledger: UUID, _ change: RecurringExpenseChange) async throws -> RecurringExpenseJSON {
        try RecurringExpenseJSON(try await service.changeRecurringExpense(id, in: ledger, change))
    }

    func deleteRecurringExpense(_ id: UUID, in ledger: UUID) async throws {
        try await service.deleteRecurringExpense(id, in: ledger)
    }

    func importExport(_ export: Data, from app: OtherAppExport.App, into ledger: UUID?, name: String, currency: String?,
                      rates: [String]) async throws -> IHateMoneyImporter.Report {
        try await OtherAppExport(export, from: app).importInto(ledger, name: name, currency: currency, rates: try ImportRates(parsing: rates),
                                                               spending: service)
    }

    func export(_ ledger: UUID, format: LedgerExport.Format) async throws -> Data {
        try await LedgerExport.data(of: ledger, format: format, spending: service)
    }
}
