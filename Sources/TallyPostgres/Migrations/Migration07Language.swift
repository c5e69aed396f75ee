extension PostgresMigrations {
    static let language = Migration(version: 7, name: "the account's language", sql: "ALTER TABLE users ADD COLUMN language text;")
}
