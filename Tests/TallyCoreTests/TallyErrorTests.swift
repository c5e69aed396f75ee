import Foundation
import Testing
@testable import TallyCore

@Suite("A refusal's field")
struct TallyErrorTests {
    @Test("The check closest to the value names the field; an outer one fills in only what is missing")
    func closestWins() throws {
        let payer = #expect(throws: TallyError.self) {
            try TallyError.about("payers") { try TransactionAmount.parse("0", currency: Currency(code: "EUR"), field: "payers") }
        }
        #expect(payer?.field == "payers")
        let amount = #expect(throws: TallyError.self) {
            try TallyError.about("payers") { try TransactionAmount.parse("abc", currency: Currency(code: "EUR")) }
        }
        #expect(amount?.field == "amount", "the amount's own check knows its field")
        let date = #expect(throws: TallyError.self) { try TallyError.about("date") { try LocalDate.parse("tomorrow") } }
        #expect(date?.field == "date" && date?.message.contains("is not a date") == true)
    }

    @Test("The rules of a ledger's texts and entries name their fields")
    func ledgerRules() throws {
        let long = String(repeating: "x", count: 201)
        #expect((#expect(throws: TallyError.self) { try LedgerRules.validateDescription(long) })?.field == "description")
        #expect((#expect(throws: TallyError.self) { try LedgerRules.validateCategory(String(long.prefix(51))) })?.field == "category")
        #expect((#expect(throws: TallyError.self) { try LedgerRules.validateLedgerName(" ") })?.field == "name")
        #expect((#expect(throws: TallyError.self) { try Currency(code: "euro") })?.field == "currency")
        #expect((#expect(throws: TallyError.self) { try Split(method: .percent, parts: [SplitPart(member: 1, value: 50)]) })?.field == "split")
        #expect((#expect(throws: TallyError.self) { try LedgerInviteTerms(days: 0) })?.field == "days")
        #expect((#expect(throws: TallyError.self) { try RecurrenceRule(every: .week) })?.field == "repeat")
    }
}
