import Foundation
import GRDB
import TallyCore
import TallyRepositories

// The rows of the spending tables, converted to and from TallyCore's values here only.

struct LedgerRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "ledger"
    var id: UUID
    var name: String
    var currency: String
    var createdAt: Date
    var ownerMemberId: Int64?

    init(_ details: LedgerDetails) {
        id = details.ledger.id
        name = details.ledger.name
        currency = details.ledger.currency.code
        createdAt = details.ledger.createdAt
        ownerMemberId = details.ownerID
    }

    func ledger() throws -> Ledger {
        Ledger(id: id, name: name, currency: try Currency(code: currency), createdAt: createdAt)
    }
}

/// A ledger's one open invite, found by the hash of its code.
struct LedgerInviteRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "ledgerInvite"
    var codeHash: Data
    var ledgerId: UUID
    var createdAt: Date
    var expiresAt: Date
    var usesLeft: Int

    init(_ invite: LedgerInvite, ledger: UUID) {
        codeHash = invite.codeHash
        ledgerId = ledger
        createdAt = invite.createdAt
        expiresAt = invite.expiresAt
        usesLeft = invite.usesLeft
    }

    var invite: LedgerInvite { LedgerInvite(codeHash: codeHash, createdAt: createdAt, expiresAt: expiresAt, usesLeft: usesLeft) }
}

struct LedgerMemberRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "ledgerMember"
    var id: Int64?
    var ledgerId: UUID
    var name: String
    var userId: UUID?

    init(_ member: LedgerMember, ledger: UUID) {
        id = member.id == 0 ? nil : member.id
        ledgerId = ledger
        name = member.name
        userId = member.userID
    }

    var member: LedgerMember { LedgerMember(id: id ?? 0, name: name, userID: userId) }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

struct SpendingEntryRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "spendingEntry"
    var id: UUID
    var ledgerId: UUID
    var kind: String
    var amount: Int64
    var payerId: Int64
    var date: Int
    var description: String?
    var category: String?
    var splitMethod: String
    var createdAt: Date
    var deletedAt: Date?
    var importKey: String?
    var searchKey: String?
    var originalAmount: Int64?
    var originalCurrency: String?
    var rate: String?

    init(_ entry: SpendingEntry, ledger: UUID, importKey: String?) {
        id = entry.id
        ledgerId = ledger
        kind = entry.kind.rawValue
        amount = entry.amount.minorUnits
        payerId = entry.payer
        date = entry.date.number
        description = entry.description
        category = entry.category
        splitMethod = entry.split.method.rawValue
        createdAt = entry.createdAt
        deletedAt = entry.deletedAt
        self.importKey = importKey
        searchKey = entry.description.map(UserText.searchKey)
        let original = entry.storedOriginal
        originalAmount = original?.amount
        originalCurrency = original?.currency
        rate = original?.rate
    }

    /// The stored entry with its split and payers, rebuilt through the same checks it passed when written.
    func entry(currency: Currency, shares: [SpendingShareRecord], payers: [SpendingPayerRecord],
               members: [LedgerMember]) throws -> SpendingEntry {
        try .stored(id: id, kind: kind, amount: amount, currency: currency, payer: payerId, payers: payers.map { ($0.memberId, $0.paid) },
                    date: LocalDate(number: date), description: description, category: category, splitMethod: splitMethod,
                    createdAt: createdAt, deletedAt: deletedAt, shares: shares.map { ($0.memberId, $0.value) },
                    original: StoredOriginal(amount: originalAmount, currency: originalCurrency, rate: rate), members: members)
    }
}

/// What one of an expense's several payers paid. An expense one member paid has no rows here:
/// its `payerId` says who.
struct SpendingPayerRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "spendingPayer"
    var entryId: UUID
    var memberId: Int64
    var paid: Int64

    static func rows(of entry: SpendingEntry) -> [SpendingPayerRecord] {
        guard entry.hasSeveralPayers else { return [] }
        return entry.typedPayers.map { SpendingPayerRecord(entryId: entry.id, memberId: $0.member, paid: $0.amount.minorUnits) }
    }
}

struct SpendingShareRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "spendingShare"
    var entryId: UUID
    var memberId: Int64
    var value: String

    static func rows(of entry: SpendingEntry) -> [SpendingShareRecord] {
        entry.split.parts.map { SpendingShareRecord(entryId: entry.id, memberId: $0.member, value: $0.storedValue) }
    }
}
