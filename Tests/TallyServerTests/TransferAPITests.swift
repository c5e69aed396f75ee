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

    /// A Splitwise export in two currencies: two rows in USD, one in EUR.
    static let splitwise = """
        Date,Description,Category,Cost,Currency,Ana,Bob\r
        2024-05-01,"Hotel, two nights",Accommodation,200.00,USD,100.00,-100.00\r
        2024-05-02,Museum,Entertainment,30.00,EUR,-15.00,15.00\r
        2024-05-03,Lunch,Dining out,25.00,USD,-12.50,12.50\r
        2024-05-04,Ferry,Transportation,0.00,USD,0.00,0.00\r
        \r
        2024-05-04,Total balance,,,USD,87.50,-87.50\r
        2024-05-04,Total balance,,,EUR,-15.00,15.00\r

        """

    @Test("S6: a Splitwise export through the API: a rate for each other currency, refused without one, once only")
    func importSplitwise() async throws {
        let f = try await ServerFixture()
        let ada = f.adaToken
        try await f.test { client in
            let csv: HTTPFields = [.contentType: "text/csv"]
            // act and check: EUR has no rate
            let refused = try await client.send(.post, "/api/v1/ledgers/import/splitwise?name=Trip", token: ada, json: Self.splitwise, headers: csv)
            #expect(try refused.problem(.badRequest) == "This export has entries in EUR, and the ledger keeps USD: give the rate of each to USD, such as EUR=0.92.")
            #expect(try refused.json()["field"] as? String == "rate")
            #expect(try await client.send(.post, "/api/v1/ledgers/import/splitwise?rate=EUR", token: ada, json: Self.splitwise, headers: csv)
                .problem(.badRequest).contains("is not a rate such as USD=0.92"))
            #expect(try await client.send(.post, "/api/v1/ledgers/import/splitwise", token: ada, json: "what,bill_type\n", headers: csv)
                .problem(.badRequest).contains("is not the header of a Splitwise export"))
            let none = try await client.send(.get, "/api/v1/ledgers", token: ada).json()
            #expect((none["items"] as? [Any])?.isEmpty == true)

            // act: with the rate (its = written as %3D or as it is)
            let first = try await client.send(.post, "/api/v1/ledgers/import/splitwise?name=Trip&rate=EUR%3D1.08", token: ada,
                                              json: Self.splitwise, headers: csv)
            #expect(first.status == .created, "\(first)")
            let report = try first.json()
            #expect(report["added"] as? Int == 3 && report["alreadyThere"] as? Int == 0 && report["skipped"] as? Int == 1)
            #expect(report["newMembers"] as? [String] == ["Ana", "Bob"])
            let ledger = try #require(report["ledger"] as? String)
            let summary = try await client.send(.get, "/api/v1/ledgers/\(ledger)/summary", token: ada).json()
            // Ana: +100.00 − 16.20 (half of 30.00 EUR at 1.08) − 12.50, in USD.
            #expect((summary["members"] as? [[String: Any]])?.map { $0["balance"] as? String } == ["71.30", "-71.30"])
            let again = try await client.send(.post, "/api/v1/ledgers/import/splitwise?ledger=\(ledger)&rate=EUR=1.10&rate=GBP=1.17", token: ada,
                                              json: Self.splitwise, headers: csv)
            #expect(again.status == .ok, "\(again)")
            #expect(try again.json()["added"] as? Int == 0 && again.json()["alreadyThere"] as? Int == 3)
        }
    }

    @Test("S6: an IHateMoney export with bills in two currencies through the API: the rate converts the other's")
    func importIHateMoneyInTwoCurrencies() async throws {
        let f = try await ServerFixture()
        let bills = """
            [{"what": "Taxi", "bill_type": "Expense", "amount": 20.0, "currency": "USD", "date": "2024-02-21", "payer_name": "Sam", "payer_weight": 1.0, "owers": ["Ada", "Sam"]},
             {"what": "Hotel", "bill_type": "Expense", "amount": 30.0, "currency": "EUR", "date": "2024-02-20", "payer_name": "Ada", "payer_weight": 1.0, "owers": ["Ada", "Sam"]}]
            """
        try await f.test { client in
            #expect(try await client.send(.post, "/api/v1/ledgers/import/ihatemoney?currency=EUR", token: f.adaToken, json: bills)
                .problem(.badRequest).contains("give the rate of each to EUR"))
            let report = try await client.send(.post, "/api/v1/ledgers/import/ihatemoney?currency=EUR&rate=USD%3D0.92", token: f.adaToken, json: bills)
            #expect(report.status == .created, "\(report)")
            let ledger = try #require(try report.json()["ledger"] as? String)
            let summary = try await client.send(.get, "/api/v1/ledgers/\(ledger)/summary", token: f.adaToken).json()
            // Ada: +30.00 − 15.00 − 9.20 (half of 20 USD at 0.92).
            #expect((summary["members"] as? [[String: Any]])?.map { $0["balance"] as? String } == ["5.80", "-5.80"])
        }
    }

    @Test("S6: the web form imports either app's export, with its rates; a refusal says why on the page")
    func importForm() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            // The start page offers both apps in one form, and a field for rates.
            let start = try await browser.get("/spending")
            #expect(start.text.contains(#"<option value="ihatemoney">IHateMoney</option><option value="splitwise">Splitwise</option>"#), "\(start.text)")
            #expect(start.text.contains(#"name="rates""#))

            // act and check: no rate for EUR
            let refused = try await browser.post("/spending/import", ["app": "splitwise", "export": Self.splitwise])
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains("This export has entries in EUR, and the ledger keeps USD: give the rate of each to USD, such as EUR=0.92."))

            // act: with the rate; the new ledger is named after the app
            let imported = try await browser.post("/spending/import", ["app": "splitwise", "export": Self.splitwise, "rates": "EUR=1,08, GBP=1.17"])
            #expect(imported.status == .seeOther, "\(imported.text)")
            let location = try #require(imported.headers[.location])
            #expect(location.hasSuffix("?imported=3&skipped=0"), "\(location)")
            let ledgers = try await client.send(.get, "/api/v1/ledgers", token: f.adaToken).json()
            let items = try #require(ledgers["items"] as? [[String: Any]])
            #expect(items.map { $0["name"] as? String } == ["Splitwise"])
            let id = try #require(items.first?["id"] as? String)
            #expect(location.lowercased().hasPrefix("/spending/\(id.lowercased())"))

            // act: the same export into that ledger, from its settings page's form
            let settings = try await browser.get("/spending/\(id)/settings")
            #expect(settings.text.contains("Import from IHateMoney or Splitwise") && settings.text.lowercased().contains(#"name="ledger" value="\#(id.lowercased())""#))
            let again = try await browser.post("/spending/import", ["app": "splitwise", "ledger": id, "export": Self.splitwise, "rates": "EUR=1.08"])
            #expect(again.headers[.location]?.hasSuffix("?imported=0&skipped=3") == true, "\(again.text)")

            // An app the form does not offer.
            let unknown = try await browser.post("/spending/import", ["app": "venmo", "export": Self.splitwise])
            #expect(unknown.status == .badRequest && unknown.text.contains("Choose the app the export is from: IHateMoney or Splitwise."))
        }
    }
}
