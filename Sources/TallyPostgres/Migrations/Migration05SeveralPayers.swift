extension PostgresMigrations {
    /// SQLite's migration 19.
    static let severalPayers = Migration(version: 5, name: "several payers", sql: """
        CREATE TABLE spendingPayer (
            entryId uuid NOT NULL REFERENCES spendingEntry ON DELETE CASCADE,
            memberId bigint NOT NULL REFERENCES ledgerMember,
            paid bigint NOT NULL CHECK (paid > 0),
            PRIMARY KEY (entryId, memberId)
        );
        CREATE INDEX spendingPayer_member ON spendingPayer (memberId);
        ALTER TABLE recurringExpense ADD COLUMN payers text;
        """)
}
