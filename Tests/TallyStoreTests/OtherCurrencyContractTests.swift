import Foundation
import TallyAPI
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

/// S2 with another currency: every store keeps the amount as typed, its currency and its rate
/// beside the ledger's amount, and gives back the last rate and the sums per currency.
@Suite("Entries in another currency in the store (S2)")
struct OtherCurrencyContractTests {
    @Test("An expense in dollars and one in yen are read back as written, with the ledger's sums and last rates per currency",
          arguments: StoreKind.allCases)
    func roundTrip(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let ledger = try await l.shared()
        let id = ledger.ledger.id
        let (alex, sam) = (ledger.members[0].id, ledger.members[1].id)
        let dinner = try await l.alex.addExpense(to: id, .init(
            amount: .text("100"), payers: [PayerBody(member: alex, paid: .text("60")), PayerBody(member: sam, paid: .text("40"))],
            description: "Dinner", split: .init(method: .exact, parts: [.init(member: alex, value: .text("30")), .init(member: sam, value: .text("70"))]),
            currency: "USD", rate: .text("0.9234"))).entry
        let ramen = try await l.sam.addExpense(to: id, .init(amount: .text("1500"), currency: "JPY", rate: .text("0.0062"))).entry
        let later = try await l.sam.addExpense(to: id, .init(amount: .text("2000"), currency: "JPY", rate: .text("0.0061"))).entry
        #expect(dinner.amount.plain == "92.34" && dinner.original?.amount.plain == "100.00")
        #expect(dinner.payers.map(\.amount.plain) == ["55.40", "36.94"] && dinner.typedPayers.map(\.amount.plain) == ["60.00", "40.00"])

        #expect(try await l.sam.entry(dinner.id, in: id) == dinner, "read back as written")
        #expect(try await l.sam.entries(in: id, .current).map(\.id) == [later.id, ramen.id, dinner.id])
        #expect(try await l.sam.entry(ramen.id, in: id) == ramen)

        let foreign = try await l.alex.foreignSpending(in: id)
        #expect(foreign.map(\.spent.description) == ["3500 JPY", "100.00 USD"])
        #expect(foreign.map(\.inLedger.plain) == ["21.50", "92.34"])
        #expect(foreign.map(\.lastRate.plain) == ["0.0061", "0.9234"])

        // The balances count the ledger's amounts; the kept totals are those of every entry.
        let balances = try await l.alex.summary(of: id).balances
        let recomputed = try LedgerBalances(currency: ledger.ledger.currency, members: [alex, sam],
                                            entries: try await l.alex.entries(in: id, .current))
        #expect(balances.members == recomputed.members)

        // A new rate changes that entry, its totals and the last rate; a deleted entry's sums go.
        let changed = try await l.alex.editEntry(later.id, in: id, .init(rate: .text("0.007")))
        let reread = try await l.alex.entry(later.id, in: id)
        #expect(changed.amount.plain == "14.00" && reread == changed)
        _ = try await l.alex.deleteEntry(ramen.id, in: id)
        let after = try await l.alex.foreignSpending(in: id)
        #expect(after.map(\.inLedger.plain) == ["14.00", "92.34"] && after.first?.lastRate.plain == "0.007")
        let summary = try await l.alex.summary(of: id).balances
        let fromEntries = try LedgerBalances(currency: ledger.ledger.currency, members: [alex, sam],
                                             entries: try await l.alex.entries(in: id, .current))
        #expect(summary.members == fromEntries.members)
    }

    @Test("A new entry starts in the currency of the reader's own latest entry of the last 12 hours, never in another member's",
          arguments: StoreKind.allCases)
    func startingCurrency(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let id = try await l.shared().ledger.id
        #expect(try await l.alex.startingCurrency(in: id) == nil, "nothing added yet: the ledger's")
        // Sam is abroad: Alex's next entry still starts in euros.
        _ = try await l.sam.addExpense(to: id, .init(amount: .text("20"), currency: "USD", rate: .text("0.92")))
        #expect(try await l.alex.startingCurrency(in: id) == nil, "another member's dollars carried over")
        #expect(try await l.sam.startingCurrency(in: id)?.code == "USD")
        // Alex's own euros, then Sam's edit of them: still Alex's entry, still euros.
        let bakery = try await l.alex.addExpense(to: id, .init(amount: .text("4.20"))).entry
        _ = try await l.sam.editEntry(bakery.id, in: id, .init(description: .set("Bakery")))
        #expect(try await l.alex.startingCurrency(in: id)?.code == "EUR")
        #expect(try await l.sam.startingCurrency(in: id)?.code == "USD", "editing Alex's entry is not adding one")
        // Twelve hours on, the trip's currency is forgotten; a deleted entry never counts.
        l.f.clock.advance(by: SpendingService.currencyCarries + 1)
        #expect(try await l.sam.startingCurrency(in: id) == nil)
        let yen = try await l.sam.addExpense(to: id, .init(amount: .text("1500"), currency: "JPY", rate: .text("0.0062"))).entry
        #expect(try await l.sam.startingCurrency(in: id)?.code == "JPY")
        _ = try await l.sam.deleteEntry(yen.id, in: id)
        #expect(try await l.sam.startingCurrency(in: id) == nil)
    }
}
