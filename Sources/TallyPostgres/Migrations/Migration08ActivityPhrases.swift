extension PostgresMigrations {
    static let activityPhrases = Migration(version: 8, name: "the activity log's phrases", sql: "ALTER TABLE ledgerActivity ADD COLUMN phrase text;")
}
