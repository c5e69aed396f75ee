import Foundation
import GRDB
import TallyCore
import TallyRepositories

extension SQLiteStore {
    public func referenceRates() async throws -> ReferenceRates? {
        try await read { db in
            ReferenceRates.stored(try String.fetchOne(db, sql: "SELECT value FROM serverSetting WHERE name = ?",
                                                      arguments: [ReferenceRates.settingName]))
        }
    }

    public func keepReferenceRates(_ rates: ReferenceRates) async throws {
        try await write { db in
            try db.execute(sql: "INSERT INTO serverSetting (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                           arguments: [ReferenceRates.settingName, rates.stored])
        }
    }
}
