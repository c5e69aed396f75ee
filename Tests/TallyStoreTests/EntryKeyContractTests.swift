import Foundation
import TallyAPI
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

/// A client's id for a new ledger entry is a key within its ledger (S2): it finds the entry it
/// made when sent again there, and nothing anywhere else; and nobody can take the id of a
/// recurring expense's occurrence before it happens.
@Suite("Ledger entry keys in the store")
struct EntryKeyContractTests {
    @Test("The same client id in two ledgers makes two entries; sent again to one, it returns that one's", arguments: StoreKind.allCases)
    func keysAreScopedToTheirLedger(_ kind: StoreKind) async throws {
        // setup: Alex's two ledgers, and Sam's own
        let l = try await LedgerFixture(kind)
        let home = try await l.alex.createLedger(name: "Home", currency: "EUR").ledger.id
        let trip = try await l.alex.createLedger(name: "Trip", currency: "EUR").ledger.id
        let sams = try await l.sam.createLedger(name: "Sam's", currency: "EUR").ledger.id
        let key = UUID()

        // act
        let first = try await l.alex.addExpense(to: home, .init(id: key, amount: .text("10.00")))
        let again = try await l.alex.addExpense(to: home, .init(id: key, amount: .text("99.00")))
        let other = try await l.alex.addExpense(to: trip, .init(id: key, amount: .text("20.00")))
        let stranger = try await l.sam.addExpense(to: sams, .init(id: first.entry.id, amount: .text("30.00")))
        let payment = try await l.alex.recordPayment(in: home, NewPayment(id: key, from: nil, to: 2, amount: .text("5.00")))

        // check
        #expect(first.created && !again.created && again.entry == first.entry)
        #expect(other.created && other.entry.id != first.entry.id && other.entry.amount.plain == "20.00")
        #expect(stranger.created && stranger.entry.id != first.entry.id, "another's entry id, sent as a key, is a new key")
        #expect(!payment.created && payment.entry == first.entry, "a key names one entry in its ledger, whatever it is")
        #expect(first.entry.id != key)
        #expect(try await l.alex.entries(in: home).map(\.id) == [first.entry.id])
        #expect(try await l.sam.entries(in: sams).map(\.amount.plain) == ["30.00"])
    }

    @Test("An entry stored under its client's id before keys were scoped is found by that id again", arguments: StoreKind.allCases)
    func entriesFromBeforeAreFound(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let details = try await l.alex.createLedger(name: "Home", currency: "EUR")
        let old = UUID()
        _ = try await l.f.store.importEntries(into: .existing(details.ledger.id), by: l.f.user.id, at: l.f.clock.now, memberNames: [],
                                              note: ActivityNote("Imported.")) { details in
            [ImportedEntry(entry: try SpendingEntry(id: old, kind: .expense, amount: Money(parsing: "12.00", currency: details.ledger.currency),
                                                    payer: details.members[0].id, date: day("2026-11-20"),
                                                    description: nil, category: nil, split: try .equal(details.members.map(\.id)),
                                                    createdAt: l.f.clock.now, members: details.members),
                           importKey: "before")]
        }
        let sent = try await l.alex.addExpense(to: details.ledger.id, .init(id: old, amount: .text("12.00")))
        #expect(!sent.created && sent.entry.id == old)
        #expect(try await l.alex.entries(in: details.ledger.id).count == 1)
    }

    @Test("A member who sends an occurrence's id cannot stop it, nor can an entry that had its id before", arguments: StoreKind.allCases)
    func occurrencesCannotBePreempted(_ kind: StoreKind) async throws {
        // setup: a weekly rent in the shared ledger; Sam knows its id
        let s = try await RecurringContractTests.Setup(kind)
        let rent = try await s.rent("400.00", rule: .weekly(weekday: 1))
        let weeks = (0..<4).map { rent.nextDate.adding(days: 7 * $0) }
        // act: Sam posts expenses under each coming occurrence's id, in the shared ledger and in his own
        let sams = try await s.l.sam.createLedger(name: "Sam's", currency: "EUR").ledger.id
        for date in weeks {
            _ = try await s.l.sam.addExpense(to: s.id, .init(id: rent.entryID(on: date), amount: .text("0.01")))
            _ = try await s.l.sam.addExpense(to: sams, .init(id: rent.entryID(on: date), amount: .text("0.01")))
        }
        // and an entry stored before keys were scoped holds the last week's id outright
        _ = try await s.l.f.store.importEntries(into: .existing(sams), by: try #require(await s.l.f.store.user(named: "sam")).id,
                                                at: s.l.f.clock.now, memberNames: [], note: ActivityNote("Imported.")) { details in
            [ImportedEntry(entry: try SpendingEntry(id: rent.entryID(on: weeks[3]), kind: .expense,
                                                    amount: Money(parsing: "0.01", currency: details.ledger.currency), payer: details.members[0].id,
                                                    date: weeks[0], description: nil, category: nil, split: try .equal(details.members.map(\.id)),
                                                    createdAt: s.l.f.clock.now, members: details.members),
                           importKey: "taken")]
        }
        s.l.f.clock.set(Calendar(identifier: .gregorian).date(byAdding: .day, value: 1, to: weeks[3].start(in: TimeZone(identifier: "Europe/Berlin")!))!)
        let added = try await s.schedule.recordDue().added

        // check: four weekly charges of 400.00, each once
        #expect(added.map(\.date) == weeks)
        #expect(try await s.entries().filter { $0.amount.plain == "400.00" }.map(\.date) == weeks.reversed())
        #expect(added.prefix(3).map(\.id) == weeks.prefix(3).map { rent.entryID(on: $0) })
        #expect(added[3].id != rent.entryID(on: weeks[3]), "its usual id was taken: it has another")
        #expect(try await s.schedule.recordDue().added.isEmpty)
    }
}
