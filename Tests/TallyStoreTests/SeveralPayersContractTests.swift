import Foundation
import TallyAPI
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

/// S2, S3 with several payers: two people paid one dinner, and every store keeps who paid what.
@Suite("Several payers in the store (S2, S3)")
struct SeveralPayersContractTests {
    typealias Payer = PayerBody

    @Test("Two members pay one expense: each is credited their part, the balances say so, the store gives it back, a search finds either",
          arguments: StoreKind.allCases)
    func twoPayOneDinner(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let ledger = try await l.shared()
        let id = ledger.ledger.id
        let (alex, sam) = (ledger.members[0].id, ledger.members[1].id)
        let kim = try await l.alex.addMember(to: id, name: "Kim").members.last!.id
        // 90.00 shared by three; Alex paid 60, Sam 30.
        let dinner = try await l.alex.addExpense(to: id, .init(
            amount: .text("90"), payers: [Payer(member: sam, paid: .text("30")), Payer(member: alex, paid: .text("60.00"))],
            description: "Dinner")).entry
        #expect(dinner.payers.map(\.member) == [alex, sam], "payers in member order")
        #expect(dinner.payers.map(\.amount.plain) == ["60.00", "30.00"])

        let stored = try await l.sam.entry(dinner.id, in: id)
        #expect(stored == dinner, "read back as written")
        #expect(try await l.sam.entries(in: id, .current).first == dinner, "in the history too")

        let balances = try await l.sam.summary(of: id).balances
        #expect(balances.members.map(\.paid) == [6000, 3000, 0])
        #expect(balances.members.map(\.balance) == [3000, 0, -3000])
        #expect(balances.plan.map { [$0.from, $0.to] } == [[kim, alex]])

        // A search for a member finds the expenses they paid part of.
        let solo = try await l.alex.addExpense(to: id, .init(amount: .text("5"), payer: alex, split: .init(method: .equal, parts: [.init(member: alex)]))).entry
        #expect(try await l.alex.entries(in: id, .current, matching: try EntryFilter(member: sam)).map(\.id) == [dinner.id])
        #expect(try await l.alex.entries(in: id, .current, matching: try EntryFilter(member: alex)).map(\.id) == [solo.id, dinner.id])

        // The activity log says who paid what.
        let added = try await l.alex.activity(in: id).map(\.text)
        #expect(added.contains { $0.contains("Dinner, paid by Person 1 60.00 EUR and Person 2 30.00 EUR") }, "\(added)")
    }

    @Test("An edit keeps the payers while the amount stays, asks for them again with a new amount, and can go back to one payer",
          arguments: StoreKind.allCases)
    func editing(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let ledger = try await l.shared()
        let id = ledger.ledger.id
        let (alex, sam) = (ledger.members[0].id, ledger.members[1].id)
        let entry = try await l.alex.addExpense(to: id, .init(
            amount: .text("50"), payers: [Payer(member: alex, paid: .text("20")), Payer(member: sam, paid: .text("30"))])).entry

        let described = try await l.alex.editEntry(entry.id, in: id, .init(description: .set("Picnic")))
        #expect(described.payers == entry.payers, "an edit that leaves the amount keeps who paid what")

        await #expect(throws: TallyError.invalid("Several members pay this expense: say what each pays of 60.00, or name one payer.", field: "payers")) {
            try await l.alex.editEntry(entry.id, in: id, .init(amount: .text("60")))
        }
        await #expect(throws: TallyError.invalid("What the payers paid adds up to 50.00, not 60.00: change it by 10.00 so it matches the expense.", field: "payers")) {
            try await l.alex.editEntry(entry.id, in: id, .init(amount: .text("60"), payers: [
                Payer(member: alex, paid: .text("20")), Payer(member: sam, paid: .text("30"))]))
        }
        #expect(try await l.alex.entry(entry.id, in: id) == described, "a refused edit changes nothing")

        let more = try await l.alex.editEntry(entry.id, in: id, .init(amount: .text("60"), payers: [
            Payer(member: alex, paid: .text("25")), Payer(member: sam, paid: .text("35"))]))
        #expect(more.payers.map(\.amount.plain) == ["25.00", "35.00"])
        #expect(try await l.sam.entry(entry.id, in: id) == more)
        #expect(try await l.alex.summary(of: id).balances.members.map(\.balance) == [-500, 500])
        let log = try await l.alex.activity(in: id).map(\.text)
        #expect(log.first?.contains("paid by Person 1 20.00 EUR and Person 2 30.00 EUR → Person 1 25.00 EUR and Person 2 35.00 EUR") == true, "\(log.first ?? "")")

        let one = try await l.alex.editEntry(entry.id, in: id, .init(payer: sam))
        #expect(one.payers == [PayerPart(member: sam, amount: one.amount)] && !one.hasSeveralPayers)
        #expect(try await l.alex.entry(entry.id, in: id) == one, "the several payers are gone from the store")
        #expect(try await l.alex.summary(of: id).balances.members.map(\.balance) == [-3000, 3000])
    }

    @Test("Refused: parts that do not add up, a member twice, a part of nothing, a stranger, several payers of a payment, both ways at once",
          arguments: [StoreKind.sqliteInMemory])
    func refusals(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let ledger = try await l.shared()
        let id = ledger.ledger.id
        let (alex, sam) = (ledger.members[0].id, ledger.members[1].id)
        func add(_ payers: [Payer], payer: MemberID? = nil) async throws {
            _ = try await l.alex.addExpense(to: id, .init(amount: .text("10"), payer: payer, payers: payers))
        }
        await #expect(throws: TallyError.invalid("What the payers paid adds up to 9.99, not 10.00: change it by 0.01 so it matches the expense.", field: "payers")) {
            try await add([Payer(member: alex, paid: .text("5")), Payer(member: sam, paid: .text("4.99"))])
        }
        await #expect(throws: TallyError.invalid("The payers name a member twice: list each member once.", field: "payers")) {
            try await add([Payer(member: alex, paid: .text("5")), Payer(member: alex, paid: .text("5"))])
        }
        await #expect(throws: TallyError.invalid("What a payer paid must be more than 0.", field: "payers")) {
            try await add([Payer(member: alex, paid: .text("10")), Payer(member: sam, paid: .text("0"))])
        }
        await #expect(throws: TallyError.self) {
            try await add([Payer(member: alex, paid: .text("5")), Payer(member: 999, paid: .text("5"))])
        }
        await #expect(throws: TallyError.invalid("Say who paid once: one payer, or several with what each paid, not both.", field: "payers")) {
            try await add([Payer(member: alex, paid: .text("5")), Payer(member: sam, paid: .text("5"))], payer: alex)
        }
        await #expect(throws: TallyError.invalid("Give at least one payer with what they paid, or leave the payers out.", field: "payers")) {
            try await add([])
        }
        let payment = try await l.alex.recordPayment(in: id, NewPayment(from: alex, to: sam, amount: .text("10"))).entry
        await #expect(throws: TallyError.invalid("A payment is made by one member; record one payment for each member who pays.", field: "payers")) {
            try await l.alex.editEntry(payment.id, in: id, .init(payers: [Payer(member: alex, paid: .text("5")),
                                                                         Payer(member: sam, paid: .text("5"))]))
        }
        #expect(try await l.alex.entries(in: id, .all).count == 1, "nothing refused was written")
    }

    @Test("A recurring expense several pay records each occurrence with their parts; a new amount needs the parts again",
          arguments: StoreKind.allCases)
    func recurring(_ kind: StoreKind) async throws {
        let s = try await RecurringContractTests.Setup(kind)
        let (alex, sam) = (s.ledger.members[0].id, s.ledger.members[1].id)
        let rent = try await s.l.alex.addRecurringExpense(to: s.id, .init(
            amount: .text("1000"), payers: [Payer(member: sam, paid: .text("400")), Payer(member: alex, paid: .text("600"))],
            description: "Rent", repeat: RepeatBody(.monthly(day: 1))))
        #expect(rent.template.payers.map { [$0.member, $0.amount.minorUnits] } == [[alex, 60_000], [sam, 40_000]])
        #expect(try await s.l.sam.recurringExpense(rent.id, in: s.id) == rent, "read back as written")

        s.move(to: "2027-01-02T08:00:00Z")
        let added = try await s.schedule.recordDue().added
        #expect(added.count == 2 && added.allSatisfy { $0.payers == rent.template.payers })
        #expect(try await s.l.alex.summary(of: s.id).balances.members.map(\.balance) == [20_000, -20_000])
        let log = try await s.l.alex.activity(in: s.id, limit: 1)
        #expect(log[0].text.contains("paid by Person 1 600.00 EUR and Person 2 400.00 EUR"), "\(log[0].text)")

        let renamed = try await s.l.alex.changeRecurringExpense(rent.id, in: s.id, .init(description: .set("Flat")))
        #expect(renamed.template.payers == rent.template.payers)
        await #expect(throws: TallyError.invalid("Several members pay this expense: say what each pays of 1100.00, or name one payer.", field: "payers")) {
            try await s.l.alex.changeRecurringExpense(rent.id, in: s.id, .init(amount: .text("1100")))
        }
        let one = try await s.l.alex.changeRecurringExpense(rent.id, in: s.id, .init(payer: sam))
        #expect(one.template.payers == [PayerPart(member: sam, amount: rent.template.amount)])
        #expect(try await s.l.alex.recurringExpense(rent.id, in: s.id) == one)
        // A member who pays part of a recurring expense stays a member until it changes.
        let kim = try await s.l.alex.addMember(to: s.id, name: "Kim").members.last!.id
        _ = try await s.l.alex.changeRecurringExpense(rent.id, in: s.id, .init(payers: [
            Payer(member: sam, paid: .text("999")), Payer(member: kim, paid: .text("1"))]))
        await #expect(throws: TallyError.self) { try await s.l.alex.removeMember(kim, from: s.id) }
    }

    @Test("A member who paid part of an expense stays a member", arguments: StoreKind.allCases)
    func payerStays(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let ledger = try await l.shared()
        let id = ledger.ledger.id
        let alex = ledger.members[0].id
        let kim = try await l.alex.addMember(to: id, name: "Kim").members.last!.id
        _ = try await l.alex.addExpense(to: id, .init(
            amount: .text("10"), payers: [Payer(member: alex, paid: .text("9")), Payer(member: kim, paid: .text("1"))],
            split: .init(method: .equal, parts: [.init(member: alex)])))
        await #expect(throws: TallyError.conflict("Kim has expenses or payments in this ledger (deleted ones included), so they stay a member; rename them instead.")) {
            try await l.alex.removeMember(kim, from: id)
        }
    }
}
