extension PostgresMigrations {
    /// SQLite's migration 26.
    static let providerSubjects = Migration(version: 12, name: "provider subjects", sql: """
        CREATE TABLE accountIdentity (
            issuer text NOT NULL,
            subject text NOT NULL,
            userId uuid NOT NULL REFERENCES users ON DELETE CASCADE,
            linkedAt timestamptz NOT NULL,
            PRIMARY KEY (issuer, subject),
            UNIQUE (userId, issuer)
        );
        """)
}
