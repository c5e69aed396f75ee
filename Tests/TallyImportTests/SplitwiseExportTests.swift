import Foundation
import PropertyBased
import TallyCore
@testable import TallyImport
import Testing

/// Splitwise's "Export as spreadsheet" CSV, read and checked (the reading part of its import).
@Suite("Splitwise export")
struct SplitwiseExportTests {
    static let header = "Date,Description,Category,Cost,Currency,Ana,Bob"

    static func read(_ lines: [String], lineEnd: String = "\n") throws -> SplitwiseExport {
        try SplitwiseExport(csv: Data((lines.joined(separator: lineEnd) + lineEnd).utf8))
    }

    /// The English sentence a file is refused with, or nil when it is read.
    static func refusal(_ lines: [String]) -> String? {
        do {
            _ = try read(lines)
            return nil
        } catch let error as TallyError {
            return error.message
        } catch {
            return "not a TallyError: \(error)"
        }
    }

    static func money(_ amounts: String..., in code: String = "EUR") -> [Money] {
        let currency = try! Currency(code: code)
        return amounts.map { text in
            let amount = try! Money(parsing: text.hasPrefix("-") ? String(text.dropFirst()) : text, currency: currency)
            return text.hasPrefix("-") ? -amount : amount
        }
    }

    /// Every row's paid and shares are a reading of its effects: none negative, each adding up
    /// to the cost, paid minus share the effect.
    static func expectConsistent(_ export: SplitwiseExport, sourceLocation: SourceLocation = #_sourceLocation) {
        for row in export.rows {
            let zero = Money.zero(row.currency)
            #expect(row.paid.allSatisfy { $0 >= zero } && row.shares.allSatisfy { $0 >= zero }, "line \(row.line)", sourceLocation: sourceLocation)
            #expect(row.paid.reduce(zero, +) == row.cost, "line \(row.line)", sourceLocation: sourceLocation)
            #expect(row.shares.reduce(zero, +) == row.cost, "line \(row.line)", sourceLocation: sourceLocation)
            #expect(zip(row.paid, row.shares).map { $0 - $1 } == row.effects, "line \(row.line)", sourceLocation: sourceLocation)
        }
    }

    static let couple = [
        header,
        "2024-03-01,Groceries,Groceries,45.00,EUR,22.50,-22.50",
        "2024-03-02,Dinner,Dining out,30.00,EUR,-10.00,10.00",
        "",
        "2024-03-05,Total balance, , ,EUR,12.50,-12.50",
    ]

    @Test func twoPeopleInOneCurrency() throws {
        let export = try Self.read(Self.couple)
        #expect(export.people == ["Ana", "Bob"])
        #expect(export.rows.map(\.line) == [2, 3])
        let groceries = export.rows[0]
        #expect(groceries.date == LocalDate(year: 2024, month: 3, day: 1))
        #expect(groceries.description == "Groceries" && groceries.category == "Groceries" && !groceries.isPayment)
        #expect(groceries.cost == Self.money("45.00")[0])
        #expect(groceries.effects == Self.money("22.50", "-22.50"))
        #expect(groceries.paid == Self.money("45.00", "0"))
        #expect(groceries.shares == Self.money("22.50", "22.50"))
        // Bob paid 30.00 and his share is 20.00: his effect is +10.00.
        let dinner = export.rows[1]
        #expect(dinner.paid == Self.money("0", "30.00"))
        #expect(dinner.shares == Self.money("10.00", "20.00"))
        #expect(export.totals == [.euro: Self.money("12.50", "-12.50")])
        #expect(export.currencies == [.euro])
        Self.expectConsistent(export)
    }

    @Test func aFileWithoutATotalBalanceRowIsRead() throws {
        let export = try Self.read(Array(Self.couple.prefix(3)))
        #expect(export.rows.count == 2)
        #expect(export.totals.isEmpty)
    }

    @Test func aByteOrderMarkCRLFSpacesAndTrailingBlankLinesChangeNothing() throws {
        var lines = Self.couple.map { $0.replacingOccurrences(of: ",", with: " , ") }
        lines[0] = "\u{FEFF}" + lines[0]
        lines += ["", "  ", ""]
        let plain = try Self.read(Self.couple)
        #expect(try Self.read(lines, lineEnd: "\r\n") == plain)
        // A lone CR ends a line too (old Mac files).
        #expect(try Self.read(Self.couple, lineEnd: "\r") == plain)
    }

    @Test func quotedCellsHoldCommasDoubledQuotesAndLineBreaks() throws {
        let export = try Self.read([
            #"Date,Description,Category,Cost,Currency,"Smith, Ana",Bob"#,
            #"2024-03-01,"Dinner, drinks and ""tapas""",General,40.00,EUR,20.00,-20.00"#,
            "2024-03-02,\"Two\r\nlines\",General,10.00,EUR,-5.00,5.00",
            #"2024-03-03,  "  Cinema  "  ,Entertainment,"12.00",EUR,6.00,-6.00"#,
            "",
            "2024-03-04,Total balance,,,EUR,21.00,-21.00",
        ])
        #expect(export.people == ["Smith, Ana", "Bob"])
        #expect(export.rows.map(\.description) == [#"Dinner, drinks and "tapas""#, "Two\r\nlines", "Cinema"])
        // The line after a cell with a line break in it is the file's line 5.
        #expect(export.rows.map(\.line) == [2, 3, 5])
    }

    @Test func accentedNamesAreReadInComposedForm() throws {
        // "Zoë" written decomposed (e + combining diaeresis), as macOS file names are.
        let export = try Self.read([
            "Date,Description,Category,Cost,Currency,José,Jürgen,Zoe\u{0308}",
            "2024-03-01,Crêpes,Dining out,9.00,EUR,6.00,-3.00,-3.00",
            "2024-03-02,Total balance,,,EUR,6.00,-3.00,-3.00",
        ])
        #expect(export.people == ["José", "Jürgen", "Zo\u{00EB}"])
        #expect(export.people[2].unicodeScalars.count == 3)
        #expect(export.rows[0].description == "Crêpes")
        // The same name composed and decomposed is one name: two columns cannot both have it.
        #expect(Self.refusal(["Date,Description,Category,Cost,Currency,Zo\u{00EB},Zoe\u{0308}"])
            == "Line 1 names \"Zoë\" and \"Zoë\", which are one name to Tally: each person needs a column, and a name, of their own.")
        #expect(Self.refusal(["Date,Description,Category,Cost,Currency,Ana,ANA"])
            == "Line 1 names \"Ana\" and \"ANA\", which are one name to Tally: each person needs a column, and a name, of their own.")
    }

    @Test func somebodyWhoseColumnIsAllZerosPaidNothingAndOwesNothing() throws {
        let export = try Self.read([
            "Date,Description,Category,Cost,Currency,Ana,Bob,Carla",
            "2024-03-01,Groceries,Groceries,45.00,EUR,22.50,-22.50,0.00",
            "2024-03-02,Dinner,General,30.00,EUR,-15.00,15.00,0.00",
            "2024-03-03,Total balance,,,EUR,7.50,-7.50,0.00",
        ])
        for row in export.rows {
            #expect(row.paid[2].isZero && row.shares[2].isZero && row.effects[2].isZero)
        }
        Self.expectConsistent(export)
    }

    @Test func somebodyWhoOnlyEverPaid() throws {
        let export = try Self.read([
            Self.header,
            "2024-03-01,Rent,Rent,800.00,EUR,400.00,-400.00",
            "2024-03-02,Power,Utilities,61.01,EUR,30.50,-30.50",
            "2024-03-03,Total balance,,,EUR,430.50,-430.50",
        ])
        #expect(export.rows.map(\.paid) == [Self.money("800.00", "0"), Self.money("61.01", "0")])
        #expect(export.rows.map { $0.shares } == [Self.money("400.00", "400.00"), Self.money("30.51", "30.50")])
        Self.expectConsistent(export)
    }

    @Test func aPaymentIsFromItsSenderToItsReceiver() throws {
        let export = try Self.read([
            Self.header,
            "2024-03-01,Groceries,Groceries,45.00,EUR,22.50,-22.50",
            "2024-03-04,Bob paid Ana,Payment,22.50,EUR,-22.50,22.50",
            "2024-03-05,Total balance,,,EUR,0.00,0.00",
        ])
        let payment = export.rows[1]
        #expect(payment.isPayment && payment.category == "Payment")
        #expect(payment.paid == Self.money("0", "22.50"))
        #expect(payment.shares == Self.money("22.50", "0"))
        Self.expectConsistent(export)
    }

    @Test("A payment moves its cost from one person to one other", arguments: [
        "10.00,EUR,5.00,-5.00,0.00", "10.00,EUR,10.00,-5.00,-5.00", "10.00,EUR,0.00,0.00,0.00",
    ])
    func aPaymentThatIsNotOneToOne(_ cells: String) {
        #expect(Self.refusal(["Date,Description,Category,Cost,Currency,Ana,Bob,Carla", "2024-03-04,Paid,Payment," + cells])
            == "Line 2: a payment moves its cost from one person to one other, so it needs one amount of 10.00, one of -10.00 and 0 for everyone else.")
    }

    @Test func severalPayersShareWhatTheyKeptInProportionToTheirEffects() throws {
        let export = try Self.read([
            "Date,Description,Category,Cost,Currency,Ana,Bob,Carla",
            // Ana paid 50, Bob 40, a third each: the export says +20, +10, -30. Read back, the
            // 60 the payers kept is split 2:1 between them.
            "2024-03-01,Hotel,Hotel,90.00,EUR,20.00,10.00,-30.00",
            // What the payers kept (0.99) is split 1:1: the odd cent goes to the first.
            "2024-03-02,Snacks,General,1.01,EUR,0.01,0.01,-0.02",
            "2024-03-03,Total balance,,,EUR,20.01,10.01,-30.02",
        ])
        #expect(export.rows[0].paid == Self.money("60.00", "30.00", "0"))
        #expect(export.rows[0].shares == Self.money("40.00", "20.00", "30.00"))
        #expect(export.rows[1].paid == Self.money("0.51", "0.50", "0"))
        #expect(export.rows[1].shares == Self.money("0.50", "0.49", "0.02"))
        Self.expectConsistent(export)
    }

    @Test func aRowThatMovesNothingIsTheFirstPersonsOwn() throws {
        let export = try Self.read([Self.header, "2024-03-01,Bike repair,General,35.00,EUR,0.00,0.00"])
        #expect(export.rows[0].paid == Self.money("35.00", "0"))
        #expect(export.rows[0].shares == Self.money("35.00", "0"))
        Self.expectConsistent(export)
    }

    @Test func severalCurrenciesEachWithTheirTotalBalanceRow() throws {
        let export = try Self.read([
            Self.header,
            "2024-03-01,Flight,Plane,300.00,USD,150.00,-150.00",
            "2024-03-02,Ramen,Dining out,2400,JPY,-1200,1200",
            "2024-03-03,Taxi,Taxi,20.00,USD,-10.00,10.00",
            "",
            "2024-03-04,Total balance,,,USD,140.00,-140.00",
            "2024-03-04,Total balance,,,JPY,-1200,1200",
        ])
        let (usd, jpy) = (try Currency(code: "USD"), try Currency(code: "JPY"))
        #expect(export.currencies == [usd, jpy])
        #expect(export.rows.map(\.currency) == [usd, jpy, usd])
        #expect(export.totals == [usd: Self.money("140.00", "-140.00", in: "USD"), jpy: Self.money("-1200", "1200", in: "JPY")])
        #expect(export.rows[1].paid == Self.money("0", "2400", in: "JPY"))
        Self.expectConsistent(export)
    }

    @Test func aWrongTotalIsRefusedNamingThePerson() {
        var lines = Self.couple
        lines[4] = "2024-03-05,Total balance,,,EUR,12.40,-12.40"
        #expect(Self.refusal(lines)
            == "Line 5: the Total balance row says 12.40 EUR for Ana, but the rows above add up to 12.50 EUR for them.")
        // A currency's Total balance row is checked against that currency's rows only.
        #expect(Self.refusal([
            Self.header,
            "2024-03-01,Flight,Plane,300.00,USD,150.00,-150.00",
            "2024-03-02,Dinner,General,20.00,EUR,10.00,-10.00",
            "2024-03-04,Total balance,,,EUR,160.00,-160.00",
        ]) == "Line 4: the Total balance row says 160.00 EUR for Ana, but the rows above add up to 10.00 EUR for them.")
    }

    @Test("Amounts are as Splitwise writes them", arguments: ["4O.00", "+22.50", "22,50", "1e3", ".50", "22.", "--22.50", "22.50.1", "", "€22.50"])
    func malformedAmounts(_ amount: String) {
        #expect(Self.refusal([Self.header, "2024-03-01,Lunch,General,45.00,EUR,\"\(amount)\",-22.50"])
            == "Line 2, column Ana: \"\(amount)\" is not an amount: Splitwise writes amounts such as 22.50 or -22.50.")
    }

    @Test func aCostIsNeverNegativeNorTooLarge() {
        #expect(Self.refusal([Self.header, "2024-03-01,Refund,General,-45.00,EUR,-22.50,22.50"])
            == "Line 2, column Cost: \"-45.00\" is negative, and a cost never is.")
        #expect(Self.refusal([Self.header, "2024-03-01,Villa,General,2000000.00,EUR,1000000.00,-1000000.00"])
            == "Line 2, column Cost: An amount can be at most 1000000.00 EUR; 2000000.00 EUR is more.")
    }

    @Test func anUnknownCurrency() {
        #expect(Self.refusal([Self.header, "2024-03-01,Lunch,General,45.00,EUX,22.50,-22.50"])
            == "Line 2, column Currency: \"EUX\" is not a currency: use an ISO 4217 code such as EUR, USD, GBP or JPY.")
    }

    @Test func moreDecimalsThanTheCurrencyHas() {
        #expect(Self.refusal([Self.header, "2024-03-01,Ramen,General,1000.5,JPY,500,-500"])
            == "Line 2, column Cost: \"1000.5\" has more decimals than JPY has.")
        #expect(Self.refusal([Self.header, "2024-03-01,Ramen,General,1000,JPY,500.00,-500.00"])
            == "Line 2, column Ana: \"500.00\" has more decimals than JPY has.")
        #expect(Self.refusal([Self.header, "2024-03-01,Lunch,General,45.00,EUR,22.500,-22.500"])
            == "Line 2, column Ana: \"22.500\" has more decimals than EUR has.")
        #expect(Self.refusal([Self.header, "2024-03-01,Lunch,General,45.000,KWD,22.500,-22.500"]) == nil)
    }

    @Test func effectsThatDoNotCancelOut() {
        #expect(Self.refusal([Self.header, "2024-03-01,Lunch,General,45.00,EUR,22.50,-22.00"])
            == "Line 2: the people's amounts add up to 0.50 EUR, not 0, but each row's amounts cancel out.")
    }

    @Test func payersGettingBackMoreThanTheCost() {
        #expect(Self.refusal([Self.header, "2024-03-01,Lunch,General,10.00,EUR,20.00,-20.00"])
            == "Line 2: the people who paid get back 20.00 EUR in all, more than the cost of 10.00 EUR.")
    }

    @Test func wrongDates() {
        #expect(Self.refusal([Self.header, "03/01/2024,Lunch,General,45.00,EUR,22.50,-22.50"])
            == "Line 2, column Date: \"03/01/2024\" is not a day: write it as 2025-03-30.")
        #expect(Self.refusal([Self.header, "2024-02-30,Lunch,General,45.00,EUR,22.50,-22.50"])
            == "Line 2, column Date: \"2024-02-30\" is not a day: write it as 2025-03-30.")
        #expect(Self.refusal([Self.header, "yesterday,Total balance,,,EUR,0.00,0.00"])
            == "Line 2, column Date: \"yesterday\" is not a day: write it as 2025-03-30.")
    }

    @Test func headersThatAreNotSplitwises() {
        let notHeader = "Line 1 is not the header of a Splitwise export: it must start with Date,Description,Category,Cost,Currency and name one column per person after them."
        #expect(Self.refusal(["what,bill_type,amount,currency,date,payer_name,payer_weight,owers"]) == notHeader)
        #expect(Self.refusal(["Date,Description,Category,Cost"]) == notHeader)
        #expect(Self.refusal(["Date,Description,Cost,Category,Currency,Ana"]) == notHeader)
        #expect(Self.refusal(["Date,Description,Category,Cost,Currency"])
            == "Line 1 names no people: a Splitwise export has a column for each person after Currency.")
        #expect(Self.refusal(["Date,Description,Category,Cost,Currency,Ana,,Bob"])
            == "Line 1, column 7 has no name: every column after Currency names a person.")
        #expect(Self.refusal(["Date,Description,Category,Cost,Currency,Ana,Bo\u{200B}b"])
            == "Line 1, column 7: A member's name cannot hold invisible formatting characters such as zero-width spaces or direction marks; remove them and try again.")
        let crowd = (1...51).map { "P\($0)" }.joined(separator: ",")
        #expect(Self.refusal(["Date,Description,Category,Cost,Currency," + crowd])
            == "This export names more than 50 people, and a ledger can have at most 50 members (the first one too many is \"P51\").")
    }

    @Test func filesThatAreNotCSVText() {
        #expect(throws: TallyError.invalid("The file is empty: export the group from Splitwise as a spreadsheet and choose that file.")) {
            try SplitwiseExport(csv: Data("\u{FEFF}\r\n\r\n".utf8))
        }
        let notText = TallyError.invalid("The file is not text (UTF-8): choose the CSV file that Splitwise's Export as spreadsheet writes.")
        #expect(throws: notText) { try SplitwiseExport(csv: Data([0xFF, 0xFE, 0x44, 0x00])) }
        #expect(throws: notText) { try SplitwiseExport(csv: Data("D\0a\0t\0e\0".utf8)) }
    }

    @Test func quotesWhereCSVAllowsNone() {
        let misplaced = "a quote stands where CSV allows none; a field with quotes, commas or line breaks is put in quotes, and each quote inside it is written twice."
        #expect(Self.refusal([Self.header, #"2024-03-01,The "good" pub,General,45.00,EUR,22.50,-22.50"#]) == "Line 2: " + misplaced)
        #expect(Self.refusal([Self.header, #"2024-03-01,"The "good" pub",General,45.00,EUR,22.50,-22.50"#]) == "Line 2: " + misplaced)
        #expect(Self.refusal([Self.header, "2024-03-01,Lunch,General,45.00,EUR,22.50,-22.50", #"2024-03-02,"Dinner,General,45.00,EUR,22.50,-22.50"#, "2024-03-03,Lunch,General,45.00,EUR,22.50,-22.50"])
            == "Line 3: a quote opens a field that is never closed, so the rest of the file would be inside it.")
    }

    @Test func rowsWithTooFewOrTooManyCells() {
        #expect(Self.refusal([Self.header, "2024-03-01,Lunch, with friends,General,45.00,EUR,22.50,-22.50"])
            == "Line 2: it has 8 fields where the header names 7 (a file cut short, or a comma in an unquoted field).")
        #expect(Self.refusal([Self.header, "2024-03-01"])
            == "Line 2: it has 1 field where the header names 7 (a file cut short, or a comma in an unquoted field).")
    }

    @Test func theTotalBalanceRowsEndTheFile() {
        #expect(Self.refusal(Self.couple + ["2024-03-06,Lunch,General,45.00,EUR,22.50,-22.50"])
            == "Line 6 comes after the Total balance row, but the Total balance row ends a Splitwise export.")
        #expect(Self.refusal(Self.couple + ["2024-03-05,Total balance,,,EUR,12.50,-12.50"])
            == "Line 6 is a second Total balance row for EUR; line 5 is the first.")
        // An expense someone called "Total balance" has a cost: it is an expense.
        let export = try? Self.read([Self.header, "2024-03-01,Total balance,General,10.00,EUR,5.00,-5.00"])
        #expect(export?.rows.count == 1 && export?.totals.isEmpty == true)
    }

    @Test func anyRealPaidAndSharesReadBackConsistently() async {
        // Up to 8 people, about half of whom paid something; the cost is shared in weights from
        // 0 to 3 (all 0: each had what they paid).
        await propertyCheck(count: 500, input: Gen.int(in: 2...8), Gen.int64(in: -100_000...100_000).array(of: 8),
                            Gen.int64(in: 0...3).array(of: 8)) { people, amounts, allWeights in
            let paid = amounts.prefix(people).map { max($0, 0) }
            let weights = Array(allWeights.prefix(people))
            let cost = paid.reduce(0, +)
            let shares = weights.allSatisfy { $0 == 0 } ? paid : SplitwiseExport.proportional(cost, weights: weights)
            let effects = zip(paid, shares).map { $0 - $1 }
            let read = SplitwiseExport.decomposition(cost: cost, effects: effects)
            #expect(read != nil)
            guard let (readPaid, readShares) = read else { return }
            #expect(readPaid.allSatisfy { $0 >= 0 } && readShares.allSatisfy { $0 >= 0 })
            #expect(readPaid.reduce(0, +) == cost && readShares.reduce(0, +) == cost)
            #expect(zip(readPaid, readShares).map { $0 - $1 } == effects)
        }
    }
}
