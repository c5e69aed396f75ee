extension PostgresMigrations {
    /// SQLite's migration 18: a ledger's expenses that record themselves on the days of their rule
    /// (the split as JSON text, the rule as its frequency and days).
    static let recurringExpenses = Migration(version: 4, name: "recurring expenses", sql: """
        CREATE TABLE recurringExpense (
            id uuid PRIMARY KEY,
            ledgerId uuid NOT NULL REFERENCES ledger ON DELETE CASCADE,
            amount bigint NOT NULL CHECK (amount > 0),
            payerId bigint NOT NULL REFERENCES ledgerMember,
            description text,
            category text,
            splitMethod text NOT NULL,
            splitParts text NOT NULL,
            every text NOT NULL,
            weekday integer,
            day integer,
            month integer,
            timeZone text NOT NULL,
            nextDate date NOT NULL,
            endDate date,
            pausedAt timestamptz,
            createdBy uuid REFERENCES users ON DELETE SET NULL,
            createdAt timestamptz NOT NULL
        );
        CREATE INDEX recurringExpense_ledger ON recurringExpense (ledgerId);
        CREATE INDEX recurringExpense_payer ON recurringExpense (payerId);
        CREATE INDEX recurringExpense_createdBy ON recurringExpense (createdBy);
        -- What the schedule looks for every minute: the running ones whose day has come.
        CREATE INDEX recurringExpense_due ON recurringExpense (nextDate) WHERE pausedAt IS NULL;
        """)
}
