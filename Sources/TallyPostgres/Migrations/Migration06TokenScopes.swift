extension PostgresMigrations {
    /// SQLite's migration 20.
    static let tokenScopes = Migration(version: 6, name: "token scopes", sql: "ALTER TABLE apiToken ADD COLUMN scope text NOT NULL DEFAULT 'write';")
}
