import Foundation
import GRDB
import TallyCore
import TallyRepositories

enum Migration12LedgerOwnersAndInvites: Migration {
    static let name = "12 ledger owners and invites"

    static func migrate(_ db: Database) throws {
        // S1: a ledger has an owner, and its invite expires, runs out and is kept hashed.
        try db.create(table: "ledgerInvite", options: .withoutRowID) { t in
            t.primaryKey("codeHash", .blob)
            t.belongsTo("ledger", onDelete: .cascade).notNull().unique()
            t.column("createdAt", .datetime).notNull()
            t.column("expiresAt", .datetime).notNull()
            t.column("usesLeft", .integer).notNull().check { $0 >= 0 }
        }
        // Links already shared keep working for a week, for as many people as a ledger
        // may have: nobody who was sent one is shut out by the upgrade.
        let now = Date()
        for row in try Row.fetchAll(db, sql: "SELECT id, inviteCode FROM ledger WHERE inviteCode IS NOT NULL") {
            let code: String = row["inviteCode"]
            try db.execute(sql: """
                INSERT INTO ledgerInvite (codeHash, ledgerId, createdAt, expiresAt, usesLeft) VALUES (?, ?, ?, ?, ?)
                """, arguments: [InviteCode.hash(code), row["id"] as UUID, now,
                                 now.addingTimeInterval(7 * 86_400), 50])
        }
        // The ledger table again, without the plain codes and with the owner: the member of
        // whoever wrote the ledger's first activity line ("Created the ledger …"), or the
        // first member with an account when that one has gone.
        try db.create(table: "ledgerWithOwner") { t in
            t.primaryKey("id", .blob)
            t.column("name", .text).notNull()
            t.column("currency", .text).notNull()
            t.column("createdAt", .datetime).notNull()
            t.column("ownerMemberId", .integer).references("ledgerMember", onDelete: .setNull)
        }
        try db.execute(sql: """
            INSERT INTO ledgerWithOwner (id, name, currency, createdAt, ownerMemberId)
            SELECT id, name, currency, createdAt, COALESCE(
                (SELECT member.id FROM ledgerMember AS member WHERE member.ledgerId = ledger.id AND member.userId = (
                    SELECT userId FROM ledgerActivity WHERE ledgerId = ledger.id ORDER BY id LIMIT 1)),
                (SELECT member.id FROM ledgerMember AS member WHERE member.ledgerId = ledger.id AND member.userId IS NOT NULL
                 ORDER BY member.id LIMIT 1))
            FROM ledger
            """)
        try db.drop(table: "ledger")
        try db.rename(table: "ledgerWithOwner", to: "ledger")
    }
}
