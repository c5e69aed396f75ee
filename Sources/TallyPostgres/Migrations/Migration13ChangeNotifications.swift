extension PostgresMigrations {
    /// What an open page follows, told to every instance's listener when the change commits
    /// (see `PostgresStore.watchChanges`): a ledger whose revision moved, a day whose total
    /// was written. PostgreSQL sends a transaction's notifications once it commits, each
    /// distinct one once.
    static let changeNotifications = Migration(version: 13, name: "change notifications", sql: """
        CREATE FUNCTION tally_ledger_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('tally_changes', 'l ' || NEW.id::text);
            RETURN NULL;
        END $$;
        CREATE TRIGGER ledger_changed AFTER UPDATE OF revision ON ledger
            FOR EACH ROW EXECUTE FUNCTION tally_ledger_changed();
        CREATE FUNCTION tally_day_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('tally_changes', 'd ' || NEW.userId::text || ' ' || to_char(NEW.day, 'YYYYMMDD'));
            RETURN NULL;
        END $$;
        CREATE TRIGGER day_changed AFTER INSERT OR UPDATE ON dayTotal
            FOR EACH ROW EXECUTE FUNCTION tally_day_changed();
        """)
}
