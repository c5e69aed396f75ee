import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

extension PostgresStore {
    public func referenceRates() async throws -> ReferenceRates? {
        try await connection { [self] connection in
            ReferenceRates.stored(try await connection.row(
                "SELECT value FROM serverSetting WHERE name = \(ReferenceRates.settingName)", logger: logger)?.decode(String.self))
        }
    }

    public func keepReferenceRates(_ rates: ReferenceRates) async throws {
        try await write(locking: .server) { [self] connection in
            try await connection.run("""
                INSERT INTO serverSetting (name, value) VALUES (\(ReferenceRates.settingName), \(rates.stored))
                ON CONFLICT (name) DO UPDATE SET value = excluded.value
                """, logger: logger)
        }
    }
}
