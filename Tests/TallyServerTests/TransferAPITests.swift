import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// S6 through the API: an IHateMoney export in, a ledger's CSV and JSON out.
@Suite("Import and export API")
struct TransferAPITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../TallyImportTests/Fixtures/ihatemoney").standardized

    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("S6: an IHateMoney export becomes a ledger once; the ledger exports as CSV and JSON")
    func importThenExport() async throws {
        let f = try await ServerFixture()
        let ada = f.adaToken
        let json = try Self.fixture("household.json")
        let csv = try Self.fixture("household.csv")
        try await f.test { client in
            // act
            let first = try await client.send(.post, "/api/v1/ledgers/import/ihatemoney?name=Flat", token: ada, json: json)
            // check
            #expect(first.status == .created, "\(first)")
            let report = try first.json()
            #expect(report["added"] as? Int == 14 && report["alreadyThere"] as? Int == 0)
            let ledger = try #require(report["ledger"] as? String)

            // act: the CSV of the same project, into the same ledger
            let again = try await client.send(.post, "/api/v1/ledgers/import/ihatemoney?ledger=\(ledger)", token: ada, json: csv,
                                              headers: [.contentType: "text/csv"])
            #expect(again.status == .ok, "\(again)")
            #expect(try again.json()["added"] as? Int == 0)

            // act and check: the exports
            let exported = try await client.send(.get, "/api/v1/ledgers/\(ledger)/export?format=csv", token: ada)
            #expect(exported.status == .ok)
            #expect(exported.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(exported.headers[.contentDisposition] == "attachment; filename=\"Flat.csv\"")
            #expect(exported.text.split(whereSeparator: \.isNewline).count == 15)
            let document = try await client.send(.get, "/api/v1/ledgers/\(ledger)/export?format=json", token: ada).json()
            #expect((document["entries"] as? [Any])?.count == 14)
            let summary = try await client.send(.get, "/api/v1/ledgers/\(ledger)/summary", token: ada).json()
            #expect((summary["members"] as? [[String: Any]])?.map { $0["balance"] as? String } == ["15.10", "-84.36", "69.26"])
        }
    }

    @Test("S6: a refused import changes nothing; another user's ledger is not found")
    func refused() async throws {
        let f = try await ServerFixture()
        let (ada, bob) = (f.adaToken, f.bobToken)
        let couple = try Self.fixture("couple.json")
        try await f.test { client in
            // setup
            let own = try await client.send(.post, "/api/v1/ledgers", token: ada, json: #"{"name": "Home", "currency": "EUR"}"#).json()
            let ledger = try #require(own["id"] as? String)
            // act and check
            #expect(try await client.send(.post, "/api/v1/ledgers/import/ihatemoney", token: ada, json: couple)
                .problem(.badRequest).contains("--currency"))
            #expect(try await client.send(.post, "/api/v1/ledgers/import/ihatemoney", token: ada, json: #"{"no": "bills"}"#)
                .problem(.badRequest).contains("not an IHateMoney JSON export"))
            #expect(try await client.send(.post, "/api/v1/ledgers/import/ihatemoney?ledger=\(ledger)", token: bob, json: couple)
                .problem(.notFound).contains("no ledger"))
            #expect(try await client.send(.get, "/api/v1/ledgers/\(ledger)/export", token: bob).problem(.notFound).contains("no ledger"))
            #expect(try await client.send(.get, "/api/v1/ledgers/\(ledger)/export?format=xml", token: ada)
                .problem(.badRequest).contains("csv or json"))
            let huge = String(repeating: "x", count: TallyRequestContext.maxImportSize + 1)
            #expect(try await client.send(.post, "/api/v1/ledgers/import/ihatemoney", token: ada, json: huge).status == .contentTooLarge)
            // Nothing was created or added.
            let list = try await client.send(.get, "/api/v1/ledgers", token: ada).json()
            #expect((list["items"] as? [Any])?.count == 1)
            let bobs = try await client.send(.get, "/api/v1/ledgers", token: bob).json()
            #expect((bobs["items"] as? [Any])?.isEmpty == true)
        }
    }
}
