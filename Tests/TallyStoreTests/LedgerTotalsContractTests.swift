import Foundation
import TallyAPI
import PropertyBased
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
@testable import TallyStore
import Testing

/// S3 at any size: the store keeps each member's totals with every change, and they must always
/// be what the entries add up to.
@Suite("Kept ledger totals in the store (S3)")
struct LedgerTotalsContractTests {
    /// One random change to a ledger of three members, picked and shaped by `seed`.
    static func apply(_ seed: Int, to ledger: LedgerDetails, by service: SpendingService, day: Int) async throws {
        var bits = UInt64(seed)
        func next(_ bound: Int) -> Int {
            defer { bits /= UInt64(bound) }
            return Int(bits % UInt64(bound))
        }
        let members = ledger.members.map(\.id)
        let id = ledger.ledger.id
        let amount = "\(next(500) + 1).\(String(format: "%02d", next(100)))"
        let split: SplitBody = switch next(4) {
        case 0: .init()
        case 1: .init(method: .equal, parts: members.prefix(next(members.count) + 1).map { .init(member: $0) })
        case 2: .init(method: .shares, parts: members.map { .init(member: $0, value: .decimal(Decimal(next(4) + 1) / 2)) })
        default: .init(method: .percent, parts: [.init(member: members[0], value: .decimal(Decimal(next(99) + 1))),
                                                 .init(member: members[1], value: .decimal(0))])
        }
        let existing = try await service.entries(in: id, .all)
        switch existing.isEmpty ? 0 : next(7) {
        case 0, 1:
            var split = split
            if split.method == .percent, case .decimal(let first)? = split.parts![0].value {
                split.parts![1].value = .decimal(100 - first)
            }
            _ = try await service.addExpense(to: id, .init(amount: .text(amount), payer: members[next(members.count)],
                                                           date: LocalDate(number: day), split: split))
        case 5 where next(2) == 0:
            // Two members paid one expense: the first a part, the second the rest.
            let total = Int64(next(500) + 2) * 100 + Int64(next(100))
            let first = Int64(next(Int(total) - 1) + 1)
            let (a, b) = (members[next(members.count)], members[next(members.count)])
            let payers: [PayerBody] = a == b ? [.init(member: a, paid: .decimal(Decimal(total) / 100))]
                : [.init(member: a, paid: .decimal(Decimal(first) / 100)), .init(member: b, paid: .decimal(Decimal(total - first) / 100))]
            let added = try await service.addExpense(to: id, .init(amount: .decimal(Decimal(total) / 100), payers: payers,
                                                                   date: LocalDate(number: day), split: split))
            #expect(added.entry.payers.count == (a == b ? 1 : 2))
        case 2:
            let from = members[next(members.count)]
            _ = try await service.recordPayment(in: id, NewPayment(from: from, to: members.first { $0 != from }!,
                                                amount: .text(amount), date: LocalDate(number: day)))
        case 3:
            let entry = existing[next(existing.count)]
            let newSplit: SplitBody? = entry.kind == .payment || split.method == .percent ? nil : split
            _ = try await service.editEntry(entry.id, in: id, .init(amount: .text(amount), payer: members[next(members.count)], split: newSplit))
        case 4:
            let entry = existing[next(existing.count)]
            _ = entry.deletedAt == nil ? try await service.deleteEntry(entry.id, in: id) : try await service.restoreEntry(entry.id, in: id)
        default:
            // An import of a few bills, some of them already there.
            let currency = ledger.ledger.currency
            let count = next(3) + 1
            let keys = (0..<count).map { _ in "bill-\(next(8))" }
            let createdAt = Date(timeIntervalSince1970: 1_800_000_000 + Double(seed % 1000))
            _ = try await service.importEntries(into: id, name: "", currency: currency, memberNames: [], note: "Imported.") { details in
                try keys.enumerated().map { index, key in
                    let entry = try SpendingEntry(
                        id: UUID(), kind: .expense, amount: Money(minorUnits: Int64(100 + index * 333), currency: currency),
                        payer: details.members[index % details.members.count].id, date: LocalDate(number: day),
                        description: key, category: nil, split: try .equal(details.members.map(\.id)), createdAt: createdAt,
                        members: details.members)
                    return ImportedEntry(entry: entry, importKey: key)
                }
            }
        }
    }

    @Test("S3: after every random change the kept balances equal a recomputation from the entries and sum to zero",
          arguments: StoreKind.allCases)
    func keptTotalsFollowEveryChange(_ kind: StoreKind) async throws {
        await propertyCheck(count: kind == .sqliteInMemory ? 30 : 8, input: Gen.int(in: 0...Int.max / 2).array(of: 1...25)) { seeds in
            let l = try! await LedgerFixture(kind)
            var ledger = try! await l.alex.createLedger(name: "Home", currency: "EUR", memberNames: ["Alex", "Sam", "Kim"])
            ledger = try! await l.alex.ledger(ledger.ledger.id)
            let store = l.f.store as? any LedgerTotalsCheck
            for (step, seed) in seeds.enumerated() {
                do {
                    try await Self.apply(seed, to: ledger, by: l.alex, day: LocalDate("2026-11-01")!.number + step)
                } catch let error as TallyError {
                    // A refused change (a split of nobody, say) changes nothing either.
                    _ = error
                } catch {
                    Issue.record("unexpected \(error)")
                }
                let kept = try! await l.alex.summary(of: ledger.ledger.id).balances
                let entries = try! await l.alex.entries(in: ledger.ledger.id, .current)
                let recomputed = try! LedgerBalances(currency: ledger.ledger.currency, members: ledger.members.map(\.id), entries: entries)
                #expect(kept.members == recomputed.members, "after step \(step + 1)")
                #expect(kept.total == 0)
                if let store {
                    let check = try! await store.checkTotals(of: ledger.ledger.id)
                    #expect(check.kept == check.recomputed, "after step \(step + 1)")
                }
            }
        }
    }

    @Test("S3: a ledger written before totals were kept gets them from its entries when migrated")
    func migrationFillsTotals() async throws {
        let path = temporaryDatabasePath()
        let store = try SQLiteStore.open(path: path)
        let clock = FixedClock(instant("2026-11-21T10:00:00Z"))
        let user = try await UserDirectory(store: store, clock: clock).user(named: "alex", timeZone: "UTC")
        let service = SpendingService(store: store, clock: clock, user: user.id)
        let ledger = try await service.createLedger(name: "Home", currency: "EUR", memberNames: ["Alex", "Sam", "Kim"])
        for amount in ["10.00", "0.01", "7.77"] {
            try await service.addExpense(to: ledger.ledger.id, .init(amount: .text(amount)))
        }
        let payment = try await service.recordPayment(in: ledger.ledger.id, NewPayment(from: try await service.id(of: "Sam", in: ledger.ledger.id), to: try await service.id(of: "Alex", in: ledger.ledger.id), amount: .text("3.00")))
        _ = try await service.deleteEntry(payment.entry.id, in: ledger.ledger.id)
        let before = try await service.summary(of: ledger.ledger.id).balances.members
        // As if the totals had never been kept: the tables empty, migration 13 not applied.
        try await store.writer.write { db in
            try db.execute(sql: "DROP TABLE memberShareFraction; DROP TABLE memberTotal; DROP INDEX spendingEntry_deleted")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = '13 ledger totals'")
        }
        let migrated = try SQLiteStore.open(path: path)
        let after = try await SpendingService(store: migrated, clock: clock, user: user.id).summary(of: ledger.ledger.id).balances.members
        #expect(after == before)
        #expect(after.map(\.paid) == [1778, 0, 0])
        let check = try await migrated.checkTotals(of: ledger.ledger.id)
        #expect(check.kept == check.recomputed && !check.kept.members.isEmpty)
    }

    @Test("S5: the history a page at a time: every entry once, newest first, whatever is added meanwhile",
          arguments: StoreKind.allCases)
    func pages(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let id = try await l.alex.createLedger(name: "Home", currency: "EUR").ledger.id
        var added: [UUID] = []
        for index in 0..<23 {
            // Several on one day, so that the order within a day counts too.
            let entry = try await l.alex.addExpense(to: id, .init(amount: .text("\(index + 1)"), date: LocalDate(number: LocalDate("2026-11-01")!.number + index / 4)))
            added.append(entry.entry.id)
        }
        let all = try await l.alex.entries(in: id, .current)
        #expect(all.map(\.id) == added.reversed())
        var seen: [UUID] = []
        var after: UUID?
        repeat {
            let page = try await l.alex.entries(in: id, .current, limit: 5, after: after)
            seen += page.map(\.id)
            after = page.count == 5 ? page.last!.id : nil
            // An entry added while paging lands on the first page, not in the middle.
            if seen.count == 10 { _ = try await l.alex.addExpense(to: id, .init(amount: .text("99"), date: LocalDate("2026-12-24")!)) }
        } while after != nil
        #expect(seen == all.map(\.id))
        await #expect(throws: TallyError.self) { try await l.alex.entries(in: id, .current, limit: 5, after: UUID()) }

        // The deleted ones, most recently deleted first.
        for (offset, entryID) in added.prefix(3).enumerated() {
            l.f.clock.set(instant("2026-11-21T10:00:00Z").addingTimeInterval(Double(offset) * 60))
            _ = try await l.alex.deleteEntry(entryID, in: id)
        }
        #expect(try await l.alex.entries(in: id, .deleted).map(\.id) == added.prefix(3).reversed())
        let (summary, overview) = try await l.alex.overview(of: id, limit: 10, deletedLimit: 2, spentSince: YearMonth("2026-01")!)
        #expect(overview.entries.count == 10 && overview.hasMore)
        #expect(overview.deleted.map(\.id) == added.prefix(3).reversed().prefix(2).map { $0 })
        #expect(overview.deletedCount == 3)
        #expect(summary.balances.total == 0)
    }
}
