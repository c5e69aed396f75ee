extension PostgresMigrations {
    /// SQLite's migration 17, and a ledger's revision: a column that every change updates
    /// (see `log`) rather than its activity log's latest id, since identities are handed out
    /// before commit and a later id may commit first.
    static let revisions = Migration(version: 3, name: "revisions", sql: """
        ALTER TABLE ledger ADD COLUMN revision bigint NOT NULL DEFAULT 0;
        ALTER TABLE dayTotal ADD COLUMN revision bigint NOT NULL DEFAULT 0;
        CREATE OR REPLACE FUNCTION dayTotal_add(who uuid, onDay date, ml double precision) RETURNS void LANGUAGE sql AS $$
            INSERT INTO dayTotal (userId, day, totalMl, entryCount, revision) VALUES (who, onDay, ml, 1, 1)
            ON CONFLICT (userId, day) DO UPDATE
            SET totalMl = dayTotal.totalMl + excluded.totalMl, entryCount = dayTotal.entryCount + 1, revision = dayTotal.revision + 1;
        $$;
        CREATE OR REPLACE FUNCTION dayTotal_subtract(who uuid, onDay date, ml double precision) RETURNS void LANGUAGE sql AS $$
            UPDATE dayTotal SET totalMl = CASE WHEN entryCount = 1 THEN 0 ELSE totalMl - ml END,
                entryCount = entryCount - 1, revision = revision + 1
            WHERE userId = who AND day = onDay;
        $$;
        """)
}
