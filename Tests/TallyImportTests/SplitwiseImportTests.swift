import Foundation
import TallyAPI
import TallyCore
@testable import TallyImport
import TallyServices
import Testing

/// A Splitwise group's export brought into a ledger (S6): members, payers, exact splits,
/// payments and other currencies, with the balances the file's Total balance row says.
@Suite("Splitwise import (S6)")
struct SplitwiseImportTests {
    /// An export as Splitwise writes it: quoted descriptions with commas and quotes, accented
    /// names, Lee's column all zeros, Kim who only ever paid, a payment, two paid one row, a row
    /// of cost 0 and one that moves nothing, a row without a description, the Total balance row.
    static let group = [
        "Date,Description,Category,Cost,Currency,José,Zoë Müller,Lee,Kim,Ana",
        #"2024-03-01,"Dinner, drinks and ""tapas""",Dining out,90.00,EUR,45.00,-45.00,0.00,0.00,0.00"#,
        "2024-03-02,Groceries,Groceries,45.00,EUR,-22.50,22.50,0.00,0.00,0.00",
        "2024-03-03,Rent,Rent,900.00,EUR,-450.00,-450.00,0.00,900.00,0.00",
        "2024-03-04,José paid Zoë,Payment,20.00,EUR,20.00,-20.00,0.00,0.00,0.00",
        "2024-03-05,Taxi,Transportation,0.00,EUR,0.00,0.00,0.00,0.00,0.00",
        "2024-03-06,Coffee for me,General,3.50,EUR,0.00,0.00,0.00,0.00,0.00",
        "2024-03-07,Boat trip,Entertainment,100.00,EUR,30.00,30.00,0.00,0.00,-60.00",
        "2024-03-08,,General,10.00,EUR,-5.00,0.00,0.00,0.00,5.00",
        "",
        "2024-03-09,Total balance,,,EUR,-382.50,-462.50,0.00,900.00,-55.00",
    ]

    static func export(_ lines: [String]) throws -> SplitwiseExport {
        try SplitwiseExport(csv: Data((lines.joined(separator: "\r\n") + "\r\n").utf8))
    }

    static func importing(_ lines: [String], into ledger: UUID? = nil, currency: String? = nil, rates: [String] = [],
                          spending: SpendingService, batchSize: Int = 2_000) async throws -> SplitwiseImporter.Report {
        try await SplitwiseImporter(spending: spending, batchSize: batchSize)
            .importExport(try export(lines), into: ledger, name: "Flat", currency: currency, rates: try ImportRates(parsing: rates))
    }

    /// Each member's balance by name, in minor units.
    static func balances(_ ledger: UUID, _ spending: SpendingService) async throws -> [String: Int64] {
        let summary = try await spending.summary(of: ledger)
        return Dictionary(uniqueKeysWithValues: summary.balances.members.map { (summary.name($0.member), $0.balance) })
    }

    @Test("S6: each row becomes an expense paid and split as it was, or a payment; the balances are the Total balance row's, to the cent")
    func balancesAreTheFiles() async throws {
        let spending = try await IHateMoneyImportTests.service()
        let export = try Self.export(Self.group)
        let report = try await Self.importing(Self.group, spending: spending, batchSize: 4)
        #expect(report.added == 6 && report.alreadyThere == 0 && report.skipped == 2)
        #expect(report.newMembers == ["José", "Zoë Müller", "Lee", "Kim", "Ana"])

        let balances = try await Self.balances(report.ledger, spending)
        let totals = try #require(export.totals[.euro])
        for (person, total) in zip(export.people, totals) {
            #expect(balances[person] == total.minorUnits, "\(person)")
        }
        #expect(balances["Lee"] == 0 && balances["Kim"] == 90_000)
        #expect(try await spending.ledger(report.ledger).ledger.currency == .euro)

        let entries = try await spending.entries(in: report.ledger)
        let details = try await spending.ledger(report.ledger)
        func name(_ id: MemberID) -> String { details.members.first { $0.id == id }!.name }
        let dinner = try #require(entries.first { $0.description == #"Dinner, drinks and "tapas""# })
        #expect(dinner.category == "Dining out" && dinner.kind == .expense && dinner.date == LocalDate("2024-03-01"))
        #expect(try dinner.shares.map { "\(name($0.member)) \($0.share.plain)" } == ["José 45.00", "Zoë Müller 45.00"])
        let payment = try #require(entries.first { $0.kind == .payment })
        #expect(name(payment.payer) == "José" && payment.recipient.map(name) == "Zoë Müller" && payment.description == "José paid Zoë")
        #expect(payment.category == nil)
        let boat = try #require(entries.first { $0.description == "Boat trip" })
        #expect(boat.payers.map { "\(name($0.member)) \($0.amount.plain)" } == ["José 50.00", "Zoë Müller 50.00"])
        #expect(try boat.shares.map { "\(name($0.member)) \($0.share.plain)" } == ["José 20.00", "Zoë Müller 20.00", "Ana 60.00"])
        let untitled = try #require(entries.first { $0.date == LocalDate("2024-03-08") })
        #expect(untitled.description == nil && name(untitled.payer) == "Ana")
        #expect(!entries.contains { ["Taxi", "Coffee for me"].contains($0.description) })
        let log = try await spending.activity(in: report.ledger, limit: 10).map(\.text)
        #expect(log.filter { $0.hasPrefix("Imported") } == ["Imported 2 entries from Splitwise.", "Imported 4 entries from Splitwise."])
    }

    @Test("S6: importing the same export again adds nothing, into the same ledger or by name into one that has the people")
    func reimport() async throws {
        let spending = try await IHateMoneyImportTests.service()
        let first = try await Self.importing(Self.group, spending: spending)
        let again = try await Self.importing(Self.group, into: first.ledger, spending: spending)
        #expect(again.added == 0 && again.alreadyThere == 6 && again.newMembers.isEmpty && again.skipped == 2)
        #expect(try await spending.entries(in: first.ledger).count == 6)

        // A ledger that has some of the people, named in another case: they are matched.
        let home = try await spending.createLedger(name: "Home", currency: "EUR", memberNames: ["josé", "KIM"])
        let into = try await Self.importing(Self.group, into: home.ledger.id, spending: spending)
        #expect(into.added == 6 && into.newMembers == ["Zoë Müller", "Lee", "Ana"])
        #expect(try await spending.ledger(home.ledger.id).members.map(\.name) == ["josé", "KIM", "Zoë Müller", "Lee", "Ana"])
        let balances = try await Self.balances(home.ledger.id, spending)
        #expect(balances["josé"] == -38_250 && balances["KIM"] == 90_000)
    }

    static let trip = [
        "Date,Description,Category,Cost,Currency,Ana,Bob",
        "2024-05-01,Hotel,Accommodation,200.00,USD,100.00,-100.00",
        "2024-05-02,Museum,Entertainment,30.00,EUR,-15.00,15.00",
        "2024-05-03,Lunch,Dining out,25.00,USD,-12.50,12.50",
        "",
        "2024-05-04,Total balance,,,USD,87.50,-87.50",
        "2024-05-04,Total balance,,,EUR,-15.00,15.00",
    ]

    @Test("S6: rows in two currencies: the ledger keeps the one most rows use, the others come in at their rate, and without one nothing does")
    func twoCurrencies() async throws {
        let spending = try await IHateMoneyImportTests.service()
        // The ledger keeps USD, the currency of two rows of three: EUR needs a rate.
        let refused = try await #require(throws: TallyError.self) { try await Self.importing(Self.trip, spending: spending) }
        #expect(refused.message == "This export has entries in EUR, and the ledger keeps USD: give the rate of each to USD, such as EUR=0.92.")
        #expect(try await spending.ledgers().isEmpty, "nothing stored")

        let report = try await Self.importing(Self.trip, rates: ["EUR=1.08"], spending: spending)
        #expect(report.added == 3)
        let usd = try Currency(code: "USD")
        #expect(try await spending.ledger(report.ledger).ledger.currency == usd)
        let museum = try #require(try await spending.entries(in: report.ledger).first { $0.description == "Museum" })
        #expect(museum.amount == (try Money(parsing: "32.40", currency: usd)))
        #expect(museum.original == ForeignAmount(amount: try Money(parsing: "30.00", currency: .euro), rate: try ExchangeRate(parsing: "1.08")))
        // Ana: +100.00 − 16.20 − 12.50 in USD.
        #expect(try await Self.balances(report.ledger, spending) == ["Ana": 7_130, "Bob": -7_130])

        // Again, at another rate: the rows are there already.
        #expect(try await Self.importing(Self.trip, into: report.ledger, rates: ["EUR=1.10"], spending: spending).added == 0)

        // A ledger in EUR chosen: the USD rows need their rate, and then come in converted.
        let chosen = try await Self.importing(Self.trip, currency: "EUR", rates: ["USD=0.92"], spending: spending)
        #expect(try await spending.ledger(chosen.ledger).ledger.currency == .euro)
        // Ana: +92.00 − 15.00 − 11.50 in EUR.
        #expect(try await Self.balances(chosen.ledger, spending) == ["Ana": 6_550, "Bob": -6_550])
    }

    @Test("S6: of two currencies used as often, the first used is the ledger's; a ledger keeps its currency")
    func tiesAndExistingLedgers() async throws {
        let spending = try await IHateMoneyImportTests.service()
        let tie = [
            "Date,Description,Category,Cost,Currency,Ana,Bob",
            "2024-05-01,Ferry,Transportation,10.00,GBP,5.00,-5.00",
            "2024-05-02,Tea,General,4.00,EUR,-2.00,2.00",
        ]
        let refused = try await #require(throws: TallyError.self) { try await Self.importing(tie, spending: spending) }
        #expect(refused.message.hasPrefix("This export has entries in EUR, and the ledger keeps GBP"))
        let home = try await spending.createLedger(name: "Home", currency: "EUR", memberNames: ["Ana", "Bob"])
        // Into a EUR ledger, the GBP row needs the rate.
        let intoHome = try await #require(throws: TallyError.self) { try await Self.importing(tie, into: home.ledger.id, spending: spending) }
        #expect(intoHome.message.hasPrefix("This export has entries in GBP, and the ledger keeps EUR"))
        await #expect(throws: TallyError.invalid("The ledger keeps EUR, not GBP: leave the currency out to import into it.", field: "currency")) {
            try await Self.importing(tie, into: home.ledger.id, currency: "GBP", rates: ["EUR=0.85"], spending: spending)
        }
        #expect(try await Self.importing(tie, into: home.ledger.id, rates: ["GBP=1.17"], spending: spending).added == 2)
        // Ana: +5.85 (half of 11.70) − 2.00 in EUR.
        #expect(try await Self.balances(home.ledger.id, spending) == ["Ana": 385, "Bob": -385])
    }

    @Test("S6: a row the rules refuse names its line and description, and nothing is stored")
    func refusedRow() async throws {
        let spending = try await IHateMoneyImportTests.service()
        let lines = [
            "Date,Description,Category,Cost,Currency,Ana,Bob",
            "2024-05-01,Tea,General,4.00,EUR,2.00,-2.00",
            "2024-05-02,Dinner,\"Food\nand drink\",30.00,EUR,15.00,-15.00",
        ]
        let refused = try await #require(throws: TallyError.self) { try await Self.importing(lines, spending: spending) }
        #expect(refused.message.hasPrefix("Line 3 (\"Dinner\"): A category"), "\(refused)")
        let unnamed = try await #require(throws: TallyError.self) {
            try await Self.importing([lines[0], "2024-05-02,,\"Food\nand drink\",30.00,EUR,15.00,-15.00"], spending: spending)
        }
        #expect(unnamed.message.hasPrefix("Line 2: A category"), "\(unnamed)")
        // A description of a million characters is quoted by its start, not sent back whole.
        let long = String(repeating: "x", count: 1_000_000)
        let huge = try await #require(throws: TallyError.self) {
            try await Self.importing([lines[0], "2024-05-02,\(long),General,30.00,EUR,15.00,-15.00"], spending: spending)
        }
        #expect(huge.message.hasPrefix("Line 2 (\"xxxx") && huge.message.count < 400, "\(huge.message.count) characters")
        #expect(try await spending.ledgers().isEmpty)
    }

    @Test("Rates are read as people write them, one or several to a text, with a decimal point or comma")
    func rates() throws {
        let (usd, gbp) = (try Currency(code: "USD"), try Currency(code: "GBP"))
        let expected = [usd: try ExchangeRate(parsing: "0.92"), gbp: try ExchangeRate(parsing: "1.17")]
        #expect(try ImportRates(parsing: ["USD=0.92", "gbp = 1.17"]).rates == expected)
        #expect(try ImportRates(parsing: ["USD=0.92, GBP=1.17"]).rates == expected)
        #expect(try ImportRates(parsing: ["USD=0,92, GBP=1,17"]).rates == expected)
        #expect(try ImportRates(parsing: ["USD=0.92 GBP=1.17;"]).rates == expected)
        #expect(try ImportRates(parsing: ["", " "]).rates.isEmpty)
        #expect(throws: TallyError.invalid("\"USD\" is not a rate such as USD=0.92: a currency's code, then = and how many of the ledger's currency one of it is worth.", field: "rate")) {
            try ImportRates(parsing: ["USD"])
        }
        #expect(throws: TallyError.invalid("The rate of USD is given twice: give each currency's rate once.", field: "rate")) {
            try ImportRates(parsing: ["USD=0.92", "usd=0.93"])
        }
        #expect(try #require(throws: TallyError.self) { try ImportRates(parsing: ["XYZ=1"]) }.field == "rate")
        #expect(try #require(throws: TallyError.self) { try ImportRates(parsing: ["USD=-1"]) }.field == "rate")
    }
}
