import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// The day's reference rates (issue 34): taken from a source in the ECB's format on loopback,
/// kept with their day, and offered where a ledger has no rate of its own.
@Suite("Reference rates")
struct ReferenceRatesTests {
    /// What the ECB publishes at eurofxref-daily.xml, cut to four currencies.
    static let ecb = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
        \t<gesmes:subject>Reference rates</gesmes:subject>
        \t<gesmes:Sender>
        \t\t<gesmes:name>European Central Bank</gesmes:name>
        \t</gesmes:Sender>
        \t<Cube>
        \t\t<Cube time='2026-11-26'>
        \t\t\t<Cube currency='USD' rate='1.0512'/>
        \t\t\t<Cube currency='JPY' rate='161.50'/>
        \t\t\t<Cube currency='GBP' rate='0.8342'/>
        \t\t\t<Cube currency='XYZ' rate='2.5'/>
        \t\t</Cube>
        \t</Cube>
        </gesmes:Envelope>
        """

    /// A rates source: /daily.xml answers the file, /missing.xml 404, /garbage.xml no rates.
    static func source() -> some ApplicationProtocol {
        let router = Router()
        router.get("daily.xml") { _, _ in Response(status: .ok, headers: [.contentType: "text/xml"], body: .init(byteBuffer: ByteBuffer(string: ecb))) }
        router.get("missing.xml") { _, _ in Response(status: .notFound) }
        router.get("garbage.xml") { _, _ in "<html>nothing here</html>" }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    @Test("The ECB's file is read: its day and each known currency's units per euro; a cross rate goes through the euro")
    func reading() throws {
        let rates = try ECBRates.parse(Data(Self.ecb.utf8))
        #expect(rates.date == LocalDate(year: 2026, month: 11, day: 26))
        #expect(rates.perEuro == ["USD": "1.0512", "JPY": "161.50", "GBP": "0.8342"], "an unknown code is left out")
        let (eur, usd, jpy, gbp) = (Currency.euro, try Currency(code: "USD"), try Currency(code: "JPY"), try Currency(code: "GBP"))
        #expect(rates.rate(of: usd, in: eur)?.plain == "0.951294", "1 / 1.0512, to six significant digits")
        #expect(rates.rate(of: eur, in: usd)?.plain == "1.0512")
        #expect(rates.rate(of: gbp, in: usd)?.plain == "1.26013", "1.0512 / 0.8342")
        #expect(rates.rate(of: jpy, in: eur)?.plain == "0.00619195")
        #expect(rates.rate(of: try Currency(code: "CHF"), in: eur) == nil)
        #expect(rates.rate(of: eur, in: eur) == nil)
        #expect(throws: TallyError.self) { try ECBRates.parse(Data("<html>nothing here</html>".utf8)) }
    }

    @Test("The server takes the rates from its source and keeps them; a failing source leaves them; an expense without a rate takes the reference one")
    func fetched() async throws {
        let f = try await ServerFixture()
        try await Self.source().test(.live) { source in
            let port = try #require(source.port)
            let service = { (path: String) in
                ReferenceRateService(store: f.store, source: URL(string: "http://127.0.0.1:\(port)/\(path)")!)
            }
            #expect(try await f.store.referenceRates() == nil)
            #expect(await service("daily.xml").fetch())
            let kept = try #require(try await f.store.referenceRates())
            #expect(kept.date.description == "2026-11-26" && kept.perEuro["USD"] == "1.0512")
            #expect(await !service("missing.xml").fetch())
            #expect(await !service("garbage.xml").fetch())
            #expect(try await f.store.referenceRates() == kept, "a failed fetch keeps the rates taken before")
        }
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Trip", "currency": "EUR"}"#)
            let base = "/api/v1/ledgers/\(ledger.id)"
            // No rate given and none used in the ledger yet: the reference rate.
            let first = try await client.send(.post, "\(base)/expenses", token: f.adaToken, json: #"{"amount": "100", "currency": "USD"}"#)
            #expect(first.status == .created, "\(first)")
            #expect(try first.json()["amount"] as? String == "95.13")
            // Once the ledger has its own rate for it, that one.
            _ = try await client.addExpense(f.adaToken, "\(base)/expenses", #"{"amount": "100", "currency": "USD", "rate": "0.9"}"#)
            let third = try await client.addExpense(f.adaToken, "\(base)/expenses", #"{"amount": "10", "currency": "USD"}"#)
            #expect(third.amount == "9.00")
            // A currency the source does not have still needs a rate.
            let refused = try await client.send(.post, "\(base)/expenses", token: f.adaToken, json: #"{"amount": "10", "currency": "CHF"}"#)
            #expect(try refused.problem(.badRequest) == "Give the rate of CHF: how many EUR one CHF is worth. This ledger has no rate for it yet.")
            // The form offers the reference rates for the currencies the ledger has not used.
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let page = try await browser.get("/spending/\(ledger.id)")
            #expect(page.text.contains(#"data-rates="GBP=1.19875 JPY=0.00619195 USD=0.9""#), "\(page.text)")
        }
    }
}
