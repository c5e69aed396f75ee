import CSV
import Foundation
import TallyAPI
import TallyCore
@testable import TallyImport
import TallyRepositories
import TallyServices
import TallyStore
import Testing

/// S6: exports made by a real IHateMoney 7.2.1 (Fixtures/ihatemoney, from
/// scripts/ihatemoney-fixtures) import with the balances IHateMoney reports.
@Suite("IHateMoney import (S6)")
struct IHateMoneyImportTests {
    static func fixture(_ name: String) throws -> Data {
        let url = Bundle.module.url(forResource: "Fixtures/ihatemoney/\(name)", withExtension: nil)!
        return try Data(contentsOf: url)
    }

    /// IHateMoney's reported balance per member, as exact decimals of its float text.
    static func reportedBalances(_ project: String) throws -> [String: Decimal] {
        struct Report: Decodable {
            struct Member: Decodable { var balance: String }
            var members: [String: Member]
        }
        let report = try JSONDecoder().decode(Report.self, from: try fixture("\(project).balances.json"))
        return report.members.mapValues { Decimal(string: $0.balance)! }
    }

    static func service() async throws -> SpendingService {
        let store = try SQLiteStore.inMemory()
        let clock = FixedClock(Date(timeIntervalSince1970: 1_780_000_000))
        let user = try await UserDirectory(store: store, clock: clock).user(named: "alex", timeZone: "Europe/Berlin")
        return SpendingService(store: store, clock: clock, user: user.id)
    }

    @Test("S6: the JSON and CSV exports read as the same bills", arguments: ["household", "trip", "couple"])
    func sameBills(_ project: String) throws {
        let json = try IHateMoneyExport.bills(from: try Self.fixture("\(project).json"))
        let csv = try IHateMoneyExport.bills(from: try Self.fixture("\(project).csv"))
        #expect(json.count > 0)
        #expect(json == csv)
    }

    @Test("S6: balances match IHateMoney's to the cent", arguments: [
        ("household", "json", nil), ("household", "csv", nil), ("trip", "json", nil), ("trip", "csv", nil),
        ("couple", "json", "EUR"), ("couple", "csv", "EUR"),
    ] as [(String, String, String?)])
    func balances(_ project: String, _ format: String, _ currency: String?) async throws {
        let spending = try await Self.service()
        let bills = try IHateMoneyExport.bills(from: try Self.fixture("\(project).\(format)"))
        let report = try await IHateMoneyImporter(spending: spending).importBills(bills, into: nil, name: project, currency: currency)
        #expect(report.added == bills.count && report.alreadyThere == 0)
        let summary = try await spending.summary(of: report.ledger)
        #expect(summary.balances.total == 0)
        let reported = try Self.reportedBalances(project)
        #expect(Set(summary.details.members.map(\.name)) == Set(reported.keys))
        let scale = Decimal(summary.balances.currency.scale)
        for member in summary.balances.members {
            let name = summary.name(member.member)
            let ours = Decimal(member.balance) / scale
            // IHateMoney keeps floats and never rounds; Tally rounds once, to the currency's unit.
            let unit = 1 / scale
            #expect(abs(ours - reported[name]!) <= unit / 2 + Decimal(string: "0.000001")!, "\(name): Tally \(ours), IHateMoney \(reported[name]!)")
        }
    }

    /// An export naming `count` people, each in a bill of their own.
    static func crowd(_ count: Int, format: IHateMoneyExport.Format) -> Data {
        switch format {
        case .json:
            let bills = (0..<count).map { #"{"what":"Snack","amount":1.0,"currency":"EUR","date":"2024-02-20","payer_name":"Person \#($0)","payer_weight":1.0,"owers":["Person \#($0)"]}"# }
            return Data(("[" + bills.joined(separator: ",") + "]").utf8)
        case .csv:
            let rows = (0..<count).map { "Snack,Expense,1.0,EUR,2024-02-20,Person \($0),1.0,Person \($0)" }
            return Data((IHateMoneyExport.columns.joined(separator: ",") + "\n" + rows.joined(separator: "\n")).utf8)
        }
    }

    @Test("S6: an export naming 100,000 people is refused while it is read, at the first one too many", arguments: IHateMoneyExport.Format.allCases)
    func tooManyPeople(_ format: IHateMoneyExport.Format) throws {
        let export = Self.crowd(100_000, format: format)
        #expect(throws: TallyError.invalid("This export names more than 50 people, and a ledger can have at most 50 members (the first one too many is \"Person 50\").")) {
            try IHateMoneyExport.bills(from: export)
        }
    }

    @Test("S6: a bill owed by a name repeated 590,000 times is refused while it is read: owers are members, each once",
          arguments: IHateMoneyExport.Format.allCases)
    func owersAreMembers(_ format: IHateMoneyExport.Format) throws {
        let owers = Array(repeating: "Ada", count: 590_000)
        let export: Data = switch format {
        case .json:
            Data(#"[{"what": "Rent", "amount": 10, "date": "2024-02-20", "payer_name": "Ada", "owers": [\#(owers.map { "\"\($0)\"" }.joined(separator: ","))]}]"#.utf8)
        case .csv:
            Data((IHateMoneyExport.columns.joined(separator: ",") + "\nRent,Expense,10,EUR,2024-02-20,Ada,1,\"" + owers.joined(separator: ", ") + "\"").utf8)
        }
        let error = try #require(throws: TallyError.self) { try IHateMoneyExport.bills(from: export) }
        #expect(error.message.contains("is owed by 590000 names") && error.message.contains("at most 50"), "\(error)")
        let twice = Data(#"[{"what": "Tea", "amount": 4, "date": "2024-02-20", "payer_name": "Ada", "owers": ["Ada", "ada"]}]"#.utf8)
        #expect(throws: TallyError.self) { try IHateMoneyExport.bills(from: twice) }
    }

    @Test("S6: a long export is stored a few bills at a time; a bill the rules refuse, even in the last batch, leaves the ledgers as they were")
    func batches() async throws {
        let spending = try await Self.service()
        func bill(_ what: String, _ day: Int, payer: String = "Ada", owers: [String] = ["Ada", "Sam"], type: String = "Expense") -> IHateMoneyBill {
            IHateMoneyBill(what: what, billType: type, amount: 10, currency: "EUR", date: LocalDate("2024-02-\(10 + day)")!,
                           payerName: payer, payerWeight: 1, owers: owers)
        }
        let good = (1...5).map { bill("Bill \($0)", $0) }
        let importer = IHateMoneyImporter(spending: spending, batchSize: 2)
        let refused = try await #require(throws: TallyError.self) {
            try await importer.importBills([bill("Back to myself", 6, owers: ["Ada"], type: "Reimbursement")] + good, into: nil, name: "Flat",
                                           currency: nil)
        }
        #expect(refused.message.hasPrefix("Bill 1 (\"Back to myself\")"), "\(refused)")
        #expect(try await spending.ledgers().isEmpty, "nothing stored, not even the ledger")

        let report = try await importer.importBills(good, into: nil, name: "Flat", currency: nil)
        #expect(report.added == 5 && report.newMembers == ["Ada", "Sam"])
        let log = try await spending.activity(in: report.ledger, limit: 10).map(\.text)
        #expect(log.filter { $0.hasPrefix("Imported") } == ["Imported 1 bill from IHateMoney.", "Imported 2 bills from IHateMoney.",
                                                            "Imported 2 bills from IHateMoney."])
        let again = try await importer.importBills(good, into: report.ledger, name: "Flat", currency: nil)
        #expect(again.added == 0 && again.alreadyThere == 5)
        #expect(try await spending.entries(in: report.ledger).count == 5)
    }

    @Test("S6: names that differ only by case or composition are one member")
    func oneMemberPerName() async throws {
        let spending = try await Self.service()
        let bills = [
            IHateMoneyBill(what: "Tea", billType: "Expense", amount: 4, currency: "EUR", date: LocalDate("2024-02-20")!,
                           payerName: "Zo\u{00EB}", payerWeight: 1, owers: ["ZOE\u{0308}", "Sam"]),
            IHateMoneyBill(what: "Cake", billType: "Expense", amount: 6, currency: "EUR", date: LocalDate("2024-02-21")!,
                           payerName: "sam", payerWeight: 1, owers: ["zoe\u{0308}", "SAM"]),
        ]
        let report = try await IHateMoneyImporter(spending: spending).importBills(bills, into: nil, name: "Tea", currency: nil)
        #expect(report.newMembers.count == 2)
    }

    @Test("S6: importing the same export again, in either format, adds nothing twice")
    func reimport() async throws {
        let spending = try await Self.service()
        let importer = IHateMoneyImporter(spending: spending)
        let json = try IHateMoneyExport.bills(from: try Self.fixture("household.json"))
        let first = try await importer.importBills(json, into: nil, name: "Household", currency: nil)
        let again = try await importer.importBills(json, into: first.ledger, name: "", currency: nil)
        let csv = try await importer.importBills(try IHateMoneyExport.bills(from: try Self.fixture("household.csv")),
                                                 into: first.ledger, name: "", currency: nil)
        #expect(again.added == 0 && again.alreadyThere == json.count && again.newMembers.isEmpty)
        #expect(csv.added == 0)
        #expect(try await spending.entries(in: first.ledger).count == json.count)
    }

    @Test("S6: a Reimbursement becomes a payment, members are created by name, dates kept")
    func reimbursement() async throws {
        let spending = try await Self.service()
        let bills = try IHateMoneyExport.bills(from: try Self.fixture("household.json"))
        let report = try await IHateMoneyImporter(spending: spending).importBills(bills, into: nil, name: "Household", currency: nil)
        #expect(report.newMembers == ["Alex", "Sam", "Zoë Müller"] || Set(report.newMembers) == ["Alex", "Sam", "Zoë Müller"])
        let entries = try await spending.entries(in: report.ledger)
        let payments = entries.filter { $0.kind == .payment }
        #expect(payments.count == bills.filter(\.isReimbursement).count)
        #expect(entries.first?.date == bills.first?.date)
        #expect(entries.first?.description == bills.first?.what)
    }

    @Test("S6: a refused file changes nothing and says which bill is wrong")
    func refused() async throws {
        let spending = try await Self.service()
        let bad = Data("""
            [{"what": "fine", "bill_type": "Expense", "amount": 10.0, "currency": "EUR", "date": "2024-01-01", "payer_name": "A", "payer_weight": 1.0, "owers": ["A", "B"]},
             {"what": "too fine", "bill_type": "Expense", "amount": 10.005, "currency": "EUR", "date": "2024-01-02", "payer_name": "A", "payer_weight": 1.0, "owers": ["A", "B"]}]
            """.utf8)
        let bills = try IHateMoneyExport.bills(from: bad)
        await #expect(throws: TallyError.invalid("Bill 2 (\"too fine\"): \"10.005\" has more decimals than EUR has: write it with 2 decimals.")) {
            try await IHateMoneyImporter(spending: spending).importBills(bills, into: nil, name: "X", currency: nil)
        }
        #expect(try await spending.ledgers().isEmpty)
        #expect(throws: TallyError.self) { try IHateMoneyExport.bills(from: Data("{\"not\": \"bills\"}".utf8)) }
        #expect(throws: TallyError.self) { try IHateMoneyExport.bills(from: Data("a,b\n1,2\n".utf8)) }
        await #expect(throws: TallyError.self) {
            try await IHateMoneyImporter(spending: spending).importBills(
                try IHateMoneyExport.bills(from: try Self.fixture("couple.json")), into: nil, name: "X", currency: nil)
        }
    }

    @Test("S6: a bill the rules refuse late (a reimbursement to oneself) leaves no ledger and no member behind")
    func allOrNothing() async throws {
        let spending = try await Self.service()
        let bad = Data("""
            [{"what": "fine", "bill_type": "Expense", "amount": 10.0, "currency": "EUR", "date": "2024-01-01", "payer_name": "A", "payer_weight": 1.0, "owers": ["A", "B"]},
             {"what": "to myself", "bill_type": "Reimbursement", "amount": 5.0, "currency": "EUR", "date": "2024-01-02", "payer_name": "A", "payer_weight": 1.0, "owers": ["a"]}]
            """.utf8)
        let importer = IHateMoneyImporter(spending: spending)
        await #expect(throws: TallyError.invalid("Bill 2 (\"to myself\"): A payment goes from one member to another: pick two different members.")) {
            try await importer.importBills(try IHateMoneyExport.bills(from: bad), into: nil, name: "X", currency: nil)
        }
        #expect(try await spending.ledgers().isEmpty)
        // Into an existing ledger: its members and entries stay as they were.
        let existing = try await spending.createLedger(name: "Home", currency: "EUR")
        await #expect(throws: TallyError.self) {
            try await importer.importBills(try IHateMoneyExport.bills(from: bad), into: existing.ledger.id, name: "", currency: nil)
        }
        #expect(try await spending.ledger(existing.ledger.id).members.map(\.name) == ["Person 1", "Person 2"])
        #expect(try await spending.entries(in: existing.ledger.id).isEmpty)
        #expect(try await spending.activity(in: existing.ledger.id).count == 1)
    }

    @Test("S6: the CSV export has one row per entry and a share column per member; the JSON export reads back")
    func export() async throws {
        let spending = try await Self.service()
        let bills = try IHateMoneyExport.bills(from: try Self.fixture("household.json"))
        let ledger = try await IHateMoneyImporter(spending: spending).importBills(bills, into: nil, name: "Household", currency: nil).ledger
        let csv = String(decoding: try await LedgerExport.data(of: ledger, format: .csv, spending: spending), as: UTF8.self)
        let lines = csv.split(whereSeparator: \.isNewline)
        #expect(lines.count == bills.count + 1)
        #expect(lines[0] == "date,kind,description,category,amount,currency,original amount,original currency,rate,paid by,paid to,split,share of Alex,share of Sam,share of Zoë Müller")
        #expect(csv.contains("'+1 guest dinner"))
        let json = try await LedgerExport.data(of: ledger, format: .json, spending: spending)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let document = try decoder.decode(LedgerExport.Document.self, from: json)
        #expect(document.entries.count == bills.count)
        #expect(document.summary.members.count == 3)
    }

    @Test("S6: an expense two paid, beside imported bills: each payer is credited, the exports say who paid what, a second import adds nothing")
    func severalPayersBesideImport() async throws {
        let spending = try await Self.service()
        let bills = try IHateMoneyExport.bills(from: try Self.fixture("household.json"))
        let ledger = try await IHateMoneyImporter(spending: spending).importBills(bills, into: nil, name: "Household", currency: nil).ledger
        let before = try await spending.summary(of: ledger).balances.members.map(\.balance)
        // act: 60.00 shared by the three, Alex paid 40.00 and Sam 20.00
        let dinner = try await spending.addExpense(to: ledger, .init(amount: .text("60"), payers: [
            .init(member: try await spending.id(of: "Sam", in: ledger), paid: .text("20")),
            .init(member: try await spending.id(of: "Alex", in: ledger), paid: .text("40.00")),
        ], description: "Dinner"))
        // check: Alex +20, Sam 0, Zoë -20, and the balances still sum to zero
        let after = try await spending.summary(of: ledger)
        #expect(after.balances.members.map(\.balance) == zip(before, [2000, 0, -2000]).map { $0 + $1 })
        #expect(after.balances.total == 0)
        let again = try await IHateMoneyImporter(spending: spending).importBills(bills, into: ledger, name: "Household", currency: nil)
        #expect(again.added == 0 && again.alreadyThere == bills.count)
        #expect(try await spending.summary(of: ledger).balances.members.map(\.balance) == after.balances.members.map(\.balance))

        let csv = String(decoding: try await LedgerExport.data(of: ledger, format: .csv, spending: spending), as: UTF8.self)
        let row = try #require(try CSVReader(string: csv, hasHeaderRow: true).first { $0[2] == "Dinner" })
        #expect(row[9] == "Alex 40.00; Sam 20.00")
        #expect(row[6] == "" && row[7] == "" && row[8] == "", "in the ledger's currency: no original amount, currency or rate")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let document = try decoder.decode(LedgerExport.Document.self, from: try await LedgerExport.data(of: ledger, format: .json, spending: spending))
        let exported = try #require(document.entries.first { $0.id == dinner.entry.id })
        let names = Dictionary(uniqueKeysWithValues: after.details.members.map { ($0.id, $0.name) })
        #expect(exported.payers.map { "\(names[$0.member]!) \($0.paid)" } == ["Alex 40.00", "Sam 20.00"])
        #expect(document.summary.members.map(\.balance) == after.balances.members.map { Money(minorUnits: $0.balance, currency: after.balances.currency).plain })
    }

    @Test("S6: bills in two currencies: the ledger keeps the one chosen, a bill in the other keeps its own at the rate given, and without one nothing comes in")
    func twoCurrencies() async throws {
        let spending = try await Self.service()
        let bills = try IHateMoneyExport.bills(from: Data("""
            [{"what": "Taxi", "bill_type": "Expense", "amount": 20.0, "currency": "USD", "date": "2024-02-21", "payer_name": "Sam", "payer_weight": 1.0, "owers": ["Ada", "Sam"]},
             {"what": "Back", "bill_type": "Reimbursement", "amount": 5.0, "currency": "USD", "date": "2024-02-21", "payer_name": "Sam", "payer_weight": 1.0, "owers": ["Ada"]},
             {"what": "Hotel", "bill_type": "Expense", "amount": 30.0, "currency": "EUR", "date": "2024-02-20", "payer_name": "Ada", "payer_weight": 1.0, "owers": ["Ada", "Sam"]},
             {"what": "Snack", "bill_type": "Expense", "amount": 3.0, "currency": "XXX", "date": "2024-02-20", "payer_name": "Ada", "payer_weight": 1.0, "owers": ["Ada", "Sam"]}]
            """.utf8))
        let importer = IHateMoneyImporter(spending: spending)
        await #expect(throws: TallyError.invalid("This export has bills in EUR and USD; a ledger keeps one currency: import it with --currency to choose one.")) {
            try await importer.importBills(bills, into: nil, name: "Trip", currency: nil)
        }
        await #expect(throws: TallyError.invalid("This export has entries in USD, and the ledger keeps EUR: give the rate of each to EUR, such as USD=0.92.", field: "rate")) {
            try await importer.importBills(bills, into: nil, name: "Trip", currency: "EUR")
        }
        #expect(try await spending.ledgers().isEmpty)

        let report = try await importer.importBills(bills, into: nil, name: "Trip", currency: "EUR", rates: try ImportRates(parsing: ["USD=0.92"]))
        #expect(report.added == 4)
        let entries = try await spending.entries(in: report.ledger)
        let taxi = try #require(entries.first { $0.description == "Taxi" })
        #expect(taxi.amount == (try Money(parsing: "18.40", currency: .euro)))
        #expect(taxi.original?.amount == (try Money(parsing: "20.00", currency: try Currency(code: "USD"))))
        let back = try #require(entries.first { $0.kind == .payment })
        let (fourSixty, rate) = (try Money(parsing: "4.60", currency: .euro), try ExchangeRate(parsing: "0.92"))
        #expect(back.amount == fourSixty && back.original?.rate == rate)
        // The Snack names no currency (XXX): it is in the ledger's.
        #expect(entries.first { $0.description == "Snack" }?.original == nil)
        // Ada: +30.00 + 3.00 − 15.00 − 1.50 − 9.20 − 4.60; Sam the opposite.
        let summary = try await spending.summary(of: report.ledger)
        #expect(summary.balances.members.map { "\(summary.name($0.member)) \($0.balance)" } == ["Ada 270", "Sam -270"])

        // Again, into the ledger (it keeps EUR) at another rate: the bills are there already.
        let again = try await importer.importBills(bills, into: report.ledger, name: "", currency: nil, rates: try ImportRates(parsing: ["USD=0.95"]))
        #expect(again.added == 0 && again.alreadyThere == 4)
    }

    @Test("S6: every text cell a person typed is spreadsheet-safe in the CSV: members' names too, in the header and as payer and payee")
    func formulaNames() async throws {
        let spending = try await Self.service()
        let names = ["=HYPERLINK(\"http://x\")", "+Sam", "-Kim", "@Lee"]
        let ledger = try await spending.createLedger(name: "Flat", currency: "EUR", memberNames: names)
        let members = ledger.members
        _ = try await spending.addExpense(to: ledger.ledger.id, .init(amount: .text("9.00"), payer: members[0].id,
                                                                         description: "=1+1", category: "@cat"))
        _ = try await spending.recordPayment(in: ledger.ledger.id, NewPayment(from: members[1].id, to: members[2].id, amount: .text("1.00")))
        let csv = String(decoding: try await LedgerExport.data(of: ledger.ledger.id, format: .csv, spending: spending), as: UTF8.self)
        let rows = try CSVReader(string: csv, hasHeaderRow: false).map { $0 }
        let header = rows[0]
        #expect(header.suffix(names.count) == names.map { "share of \($0)" }[...], "a header cell starts with \"share of\"")
        let cells = rows.dropFirst().flatMap { $0 }
        for name in names {
            #expect(!cells.contains(name), "\(name) is written as it was typed")
        }
        #expect(cells.contains("'=HYPERLINK(\"http://x\")") && cells.contains("'-Kim") && cells.contains("'+Sam"))
        #expect(cells.contains("'=1+1") && cells.contains("'@cat"))
    }
}
