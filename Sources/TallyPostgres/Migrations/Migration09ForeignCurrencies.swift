extension PostgresMigrations {
    /// SQLite's migration 23.
    static let foreignCurrencies = Migration(version: 9, name: "entries in another currency", sql: """
        ALTER TABLE spendingEntry ADD COLUMN originalAmount bigint, ADD COLUMN originalCurrency text, ADD COLUMN rate text;
        CREATE INDEX spendingEntry_foreign ON spendingEntry (ledgerId, originalCurrency) WHERE originalCurrency IS NOT NULL;
        """)
}
