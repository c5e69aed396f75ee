/// The PostgreSQL schema. Names are SQLite's (unquoted, so PostgreSQL folds them to lower case
/// in the DDL and in every query alike), but for `users` (`user` is a reserved word) and
/// `asleepInterval.startAt`/`endAt` (`end` is one). The types are exact: `uuid`, `timestamptz`
/// for instants, `date` for local days, `bigint` minor units for money, `numeric` for shares.
enum PostgresSchema {
    static let version1 = """
        CREATE TABLE users (
            id uuid PRIMARY KEY,
            name text NOT NULL,
            createdAt timestamptz NOT NULL,
            -- NULL for a user who cannot sign in (the CLI's local user).
            passwordHash text,
            isAdmin boolean NOT NULL DEFAULT false,
            disabledAt timestamptz
        );
        -- SQLite's NOCASE: one name, however it is capitalised.
        CREATE UNIQUE INDEX users_name ON users (lower(name));

        CREATE TABLE userSettings (
            userId uuid PRIMARY KEY REFERENCES users ON DELETE CASCADE,
            unit text NOT NULL,
            timeZone text NOT NULL,
            -- JSON array of millilitres; NULL while the unit's defaults apply.
            presets text
        );
        CREATE TABLE userProfile (
            userId uuid PRIMARY KEY REFERENCES users ON DELETE CASCADE,
            age integer NOT NULL,
            weightKg double precision NOT NULL,
            activity text NOT NULL
        );
        CREATE TABLE userBottle (
            userId uuid PRIMARY KEY REFERENCES users ON DELETE CASCADE,
            capacityMl double precision NOT NULL,
            levelMl double precision NOT NULL,
            sipMl double precision NOT NULL
        );
        CREATE TABLE userReminders (
            userId uuid PRIMARY KEY REFERENCES users ON DELETE CASCADE,
            enabled boolean NOT NULL,
            wakeMinutes integer NOT NULL CHECK (wakeMinutes >= 0 AND wakeMinutes < 1440),
            sleepMinutes integer NOT NULL CHECK (sleepMinutes >= 0 AND sleepMinutes < 1440),
            frequency integer NOT NULL,
            smartThresholdHours integer,
            useSleepRecords boolean NOT NULL
        );
        CREATE TABLE userCalendar (
            userId uuid PRIMARY KEY REFERENCES users ON DELETE CASCADE,
            secretHash bytea NOT NULL UNIQUE
        );

        CREATE TABLE drinkKind (
            id uuid PRIMARY KEY,
            userId uuid NOT NULL REFERENCES users ON DELETE CASCADE,
            name text NOT NULL,
            factor double precision NOT NULL CHECK (factor >= 0 AND factor <= 1.5),
            isBuiltIn boolean NOT NULL,
            isRetired boolean NOT NULL DEFAULT false
        );
        CREATE INDEX drinkKind_user ON drinkKind (userId);
        CREATE UNIQUE INDEX drinkKind_activeName ON drinkKind (userId, lower(name)) WHERE NOT isRetired;

        CREATE TABLE intake (
            id uuid PRIMARY KEY,
            userId uuid NOT NULL REFERENCES users ON DELETE CASCADE,
            at timestamptz NOT NULL,
            -- The user's local day when it was drunk, fixed at logging.
            day date NOT NULL,
            volumeMl double precision NOT NULL CHECK (volumeMl > 0 AND volumeMl <= 5000),
            kindId uuid NOT NULL REFERENCES drinkKind,
            factor double precision NOT NULL,
            effectiveMl double precision NOT NULL,
            note text,
            source text NOT NULL
        );
        CREATE INDEX intake_byDay ON intake (userId, day) INCLUDE (effectiveMl);
        CREATE INDEX intake_kind ON intake (kindId);
        CREATE INDEX intake_byTime ON intake (userId, at);

        CREATE TABLE removal (
            id uuid PRIMARY KEY,
            userId uuid NOT NULL REFERENCES users ON DELETE CASCADE,
            at timestamptz NOT NULL,
            day date NOT NULL,
            volumeMl double precision NOT NULL CHECK (volumeMl > 0 AND volumeMl <= 5000)
        );
        CREATE INDEX removal_byDay ON removal (userId, day) INCLUDE (volumeMl);

        CREATE TABLE goal (
            userId uuid NOT NULL REFERENCES users ON DELETE CASCADE,
            startDay date NOT NULL,
            endDay date,
            mode text NOT NULL,
            targetMl double precision,
            PRIMARY KEY (userId, startDay)
        );

        -- Each day's total, kept by triggers in the transaction that changes an entry, as in SQLite.
        CREATE TABLE dayTotal (
            userId uuid NOT NULL REFERENCES users ON DELETE CASCADE,
            day date NOT NULL,
            totalMl double precision NOT NULL,
            entryCount integer NOT NULL,
            PRIMARY KEY (userId, day)
        );
        CREATE FUNCTION dayTotal_add(who uuid, onDay date, ml double precision) RETURNS void LANGUAGE sql AS $$
            INSERT INTO dayTotal (userId, day, totalMl, entryCount) VALUES (who, onDay, ml, 1)
            ON CONFLICT (userId, day) DO UPDATE
            SET totalMl = dayTotal.totalMl + excluded.totalMl, entryCount = dayTotal.entryCount + 1;
        $$;
        CREATE FUNCTION dayTotal_subtract(who uuid, onDay date, ml double precision) RETURNS void LANGUAGE sql AS $$
            UPDATE dayTotal SET totalMl = totalMl - ml, entryCount = entryCount - 1 WHERE userId = who AND day = onDay;
            DELETE FROM dayTotal WHERE userId = who AND day = onDay AND entryCount = 0;
        $$;
        CREATE FUNCTION intake_keepsDayTotal() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM dayTotal_subtract(OLD.userId, OLD.day, OLD.effectiveMl); END IF;
            IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM dayTotal_add(NEW.userId, NEW.day, NEW.effectiveMl); END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER intake_dayTotal AFTER INSERT OR UPDATE OR DELETE ON intake
            FOR EACH ROW EXECUTE FUNCTION intake_keepsDayTotal();
        CREATE FUNCTION removal_keepsDayTotal() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM dayTotal_subtract(OLD.userId, OLD.day, -OLD.volumeMl); END IF;
            IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM dayTotal_add(NEW.userId, NEW.day, -NEW.volumeMl); END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER removal_dayTotal AFTER INSERT OR UPDATE OR DELETE ON removal
            FOR EACH ROW EXECUTE FUNCTION removal_keepsDayTotal();

        CREATE TABLE session (
            tokenHash bytea PRIMARY KEY,
            userId uuid NOT NULL REFERENCES users ON DELETE CASCADE,
            createdAt timestamptz NOT NULL,
            expiresAt timestamptz NOT NULL,
            lastSeenAt timestamptz,
            device text
        );
        CREATE INDEX session_byUser ON session (userId);

        CREATE TABLE apiToken (
            id uuid PRIMARY KEY,
            userId uuid NOT NULL REFERENCES users ON DELETE CASCADE,
            name text NOT NULL,
            tokenHash bytea NOT NULL UNIQUE,
            createdAt timestamptz NOT NULL,
            revokedAt timestamptz,
            expiresAt timestamptz,
            lastUsedAt timestamptz
        );
        CREATE INDEX apiToken_user ON apiToken (userId);

        CREATE TABLE serverSetting (name text PRIMARY KEY, value text NOT NULL);
        CREATE TABLE signUpInvite (
            codeHash bytea PRIMARY KEY,
            createdAt timestamptz NOT NULL,
            expiresAt timestamptz NOT NULL,
            usesLeft integer NOT NULL
        );
        CREATE TABLE signInAttempt (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            key text NOT NULL,
            at timestamptz NOT NULL
        );
        CREATE INDEX signInAttempt_key ON signInAttempt (key, at);

        CREATE TABLE ledger (
            id uuid PRIMARY KEY,
            name text NOT NULL,
            currency text NOT NULL,
            createdAt timestamptz NOT NULL,
            ownerMemberId bigint
        );
        CREATE TABLE ledgerMember (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            ledgerId uuid NOT NULL REFERENCES ledger ON DELETE CASCADE,
            name text NOT NULL,
            userId uuid REFERENCES users ON DELETE SET NULL,
            UNIQUE (ledgerId, userId)
        );
        CREATE UNIQUE INDEX ledgerMember_name ON ledgerMember (ledgerId, lower(name));
        CREATE INDEX ledgerMember_user ON ledgerMember (userId);
        -- Deferrable: a whole installation copied from SQLite (`tally migrate-store`) brings ledgers before members.
        ALTER TABLE ledger ADD FOREIGN KEY (ownerMemberId) REFERENCES ledgerMember ON DELETE SET NULL DEFERRABLE;
        -- Removing a member sets the owner it was to NULL: found on an index, not by reading every ledger.
        CREATE INDEX ledger_owner ON ledger (ownerMemberId);

        CREATE TABLE ledgerInvite (
            codeHash bytea PRIMARY KEY,
            ledgerId uuid NOT NULL UNIQUE REFERENCES ledger ON DELETE CASCADE,
            createdAt timestamptz NOT NULL,
            expiresAt timestamptz NOT NULL,
            usesLeft integer NOT NULL CHECK (usesLeft >= 0)
        );

        CREATE TABLE spendingEntry (
            id uuid PRIMARY KEY,
            ledgerId uuid NOT NULL REFERENCES ledger ON DELETE CASCADE,
            kind text NOT NULL,
            -- In the currency's minor units.
            amount bigint NOT NULL CHECK (amount > 0),
            payerId bigint NOT NULL REFERENCES ledgerMember,
            date date NOT NULL,
            description text,
            category text,
            splitMethod text NOT NULL,
            createdAt timestamptz NOT NULL,
            deletedAt timestamptz,
            importKey text,
            -- The order entries were written in (SQLite's rowid): of two entries of one day and
            -- instant (an import's), the one written later is the newer.
            seq bigint GENERATED ALWAYS AS IDENTITY
        );
        -- The history a page at a time, in its order (newest first), and the recently deleted by when.
        CREATE INDEX spendingEntry_history ON spendingEntry (ledgerId, date DESC, createdAt DESC, seq DESC);
        CREATE INDEX spendingEntry_deleted ON spendingEntry (ledgerId, deletedAt DESC, seq DESC) WHERE deletedAt IS NOT NULL;
        -- Whether a member may be removed: do they pay for anything?
        CREATE INDEX spendingEntry_payer ON spendingEntry (payerId);
        CREATE UNIQUE INDEX spendingEntry_import ON spendingEntry (ledgerId, importKey) WHERE importKey IS NOT NULL;
        CREATE TABLE spendingShare (
            entryId uuid NOT NULL REFERENCES spendingEntry ON DELETE CASCADE,
            memberId bigint NOT NULL REFERENCES ledgerMember,
            value numeric NOT NULL,
            PRIMARY KEY (entryId, memberId)
        );
        CREATE INDEX spendingShare_member ON spendingShare (memberId);

        CREATE TABLE ledgerActivity (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            ledgerId uuid NOT NULL REFERENCES ledger ON DELETE CASCADE,
            at timestamptz NOT NULL,
            userId uuid REFERENCES users ON DELETE SET NULL,
            entryId uuid,
            text text NOT NULL
        );
        CREATE INDEX ledgerActivity_ledger ON ledgerActivity (ledgerId, id DESC);
        CREATE INDEX ledgerActivity_user ON ledgerActivity (userId);

        -- A ledger's kept totals (S3), in minor units.
        CREATE TABLE memberTotal (
            memberId bigint PRIMARY KEY REFERENCES ledgerMember ON DELETE CASCADE,
            ledgerId uuid NOT NULL REFERENCES ledger ON DELETE CASCADE,
            paid bigint NOT NULL,
            sent bigint NOT NULL,
            received bigint NOT NULL,
            shareUnits bigint NOT NULL
        );
        CREATE INDEX memberTotal_ledger ON memberTotal (ledgerId);
        CREATE TABLE memberShareFraction (
            memberId bigint NOT NULL REFERENCES ledgerMember ON DELETE CASCADE,
            denominator bigint NOT NULL CHECK (denominator > 1),
            numerator bigint NOT NULL,
            ledgerId uuid NOT NULL REFERENCES ledger ON DELETE CASCADE,
            PRIMARY KEY (memberId, denominator),
            CHECK (numerator > 0 AND numerator < denominator)
        );
        CREATE INDEX memberShareFraction_ledger ON memberShareFraction (ledgerId);

        CREATE TABLE serverKey (name text PRIMARY KEY, value bytea NOT NULL);
        CREATE TABLE pushSubscription (
            endpoint text PRIMARY KEY,
            userId uuid NOT NULL REFERENCES users ON DELETE CASCADE,
            p256dh bytea NOT NULL,
            auth bytea NOT NULL,
            createdAt timestamptz NOT NULL
        );
        CREATE INDEX pushSubscription_user ON pushSubscription (userId);
        CREATE TABLE reminderSent (key text PRIMARY KEY, sentAt timestamptz NOT NULL);

        CREATE TABLE asleepInterval (
            userId uuid NOT NULL REFERENCES users ON DELETE CASCADE,
            startAt timestamptz NOT NULL,
            endAt timestamptz NOT NULL,
            -- When Tally learned of it (a day's wake window comes from what was known when it began).
            importedAt timestamptz,
            PRIMARY KEY (userId, endAt, startAt)
        );
        CREATE TABLE importedDrink (
            userId uuid NOT NULL REFERENCES users ON DELETE CASCADE,
            id uuid NOT NULL,
            PRIMARY KEY (userId, id)
        );
        """
}

extension PostgresMigrations {
    static let schema = Migration(version: 1, name: "the schema of SQLite's migration 15", sql: PostgresSchema.version1)
}
