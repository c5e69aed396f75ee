extension PostgresMigrations {
    /// SQLite's migration 25. A photo is compressed already: its bytes are kept out of line
    /// as they are, not compressed again.
    static let receipts = Migration(version: 11, name: "receipts", sql: """
        CREATE TABLE entryReceipt (
            entryId uuid PRIMARY KEY REFERENCES spendingEntry ON DELETE CASCADE,
            format text NOT NULL,
            attachedAt timestamptz NOT NULL,
            thumbnail bytea,
            bytes bytea NOT NULL
        );
        ALTER TABLE entryReceipt ALTER COLUMN bytes SET STORAGE EXTERNAL;
        """)
}
