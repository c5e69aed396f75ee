import Foundation
import TallyCore
import TallyStore

/// Brings an IHateMoney project's bills into a ledger (S6): members are matched or created by
/// name, a Reimbursement becomes a payment, and each bill is shared by the owers' weights as
/// IHateMoney does. Every bill carries an import key made from its content, so importing the same
/// export again (as JSON or as CSV) adds nothing twice.
public struct IHateMoneyImporter: Sendable {
    public let spending: SpendingService

    public init(spending: SpendingService) {
        self.spending = spending
    }

    public struct Report: Codable, Equatable, Sendable {
        public var ledger: UUID
        public var added: Int
        /// Bills already in the ledger from an earlier import.
        public var alreadyThere: Int
        public var newMembers: [String]
    }

    /// Imports into `ledger`, or into a new ledger called `name` when it is nil. `currency`
    /// overrides the export's, and is needed when the export has none (IHateMoney's "XXX").
    public func importBills(_ bills: [IHateMoneyBill], into ledger: UUID?, name: String, currency: String?) async throws -> Report {
        let currency = try ledgerCurrency(bills, override: currency, existing: try await ledger.asyncMap { try await spending.ledger($0) })
        // Check every bill before writing any, so that a refused file changes nothing.
        let oldestFirst = Array(bills.reversed())
        let checked = try oldestFirst.enumerated().map { index, bill in
            try Checked(bill, row: bills.count - index, currency: currency)
        }
        let names = orderedNames(oldestFirst)
        let weights = memberWeights(oldestFirst)

        var details: LedgerDetails
        var newMembers: [String] = []
        if let ledger {
            details = try await spending.ledger(ledger)
        } else {
            guard names.count <= LedgerRules.maximumMembers else {
                throw TallyError.invalid("This export has \(names.count) members; a ledger can have at most \(LedgerRules.maximumMembers).")
            }
            details = try await spending.createLedger(name: name, currency: currency.code, memberNames: names)
            newMembers = names
        }
        for name in names where !details.members.contains(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) {
            details = try await spending.addMember(to: details.ledger.id, name: name)
            newMembers.append(name)
        }

        var added = 0
        var seen: [String: Int] = [:]
        for item in checked {
            let content = item.key
            seen[content, default: 0] += 1
            let key = "ihatemoney:\(content)#\(seen[content]!)"
            let created: Bool
            if item.bill.isReimbursement, item.bill.owers.count == 1 {
                created = try await spending.recordPayment(
                    in: details.ledger.id, from: .name(item.bill.payerName), to: .name(item.bill.owers[0]),
                    amount: .decimal(item.amount.decimal), date: item.bill.date, note: item.bill.what, importKey: key).created
            } else {
                let owerWeights = item.bill.owers.map { weights[$0.lowercased()] ?? 1 }
                let split = Set(owerWeights).count == 1
                    ? SpendingService.SplitInput(method: .equal, parts: item.bill.owers.map { .init(member: .name($0)) })
                    : SpendingService.SplitInput(method: .shares, parts: zip(item.bill.owers, owerWeights).map { .init(member: .name($0), value: .decimal($1)) })
                created = try await spending.addExpense(to: details.ledger.id, .init(
                    amount: .decimal(item.amount.decimal), payer: .name(item.bill.payerName), date: item.bill.date,
                    description: item.bill.what, split: split), importKey: key).created
            }
            if created { added += 1 }
        }
        return Report(ledger: details.ledger.id, added: added, alreadyThere: checked.count - added, newMembers: newMembers)
    }

    /// A bill whose amount and description passed the rules, with the content its key is made of.
    private struct Checked {
        let bill: IHateMoneyBill
        let amount: Money
        let key: String

        init(_ bill: IHateMoneyBill, row: Int, currency: Currency) throws {
            do {
                amount = try Money(exactly: bill.amount, currency: currency)
                try TransactionAmount.validate(amount, what: "The amount")
                _ = try LedgerRules.validateDescription(bill.what)
            } catch let error as TallyError {
                throw TallyError.invalid("Bill \(row) (\(bill.what)): \(error.message)")
            }
            self.bill = bill
            key = [bill.isReimbursement ? "R" : "E", bill.date.description, amount.plain, bill.payerName.lowercased(),
                   bill.owers.map { $0.lowercased() }.sorted().joined(separator: ","), bill.what]
                .joined(separator: "\u{1F}")
        }
    }

    private func ledgerCurrency(_ bills: [IHateMoneyBill], override: String?, existing: LedgerDetails?) throws -> Currency {
        let codes = Set(bills.map { $0.currency.uppercased() }).subtracting(["XXX", ""])
        if let override { return try Currency(code: override) }
        if let existing {
            if let other = codes.first(where: { $0 != existing.ledger.currency.code }) {
                throw TallyError.invalid("This export has bills in \(other), but the ledger keeps \(existing.ledger.currency.code).")
            }
            return existing.ledger.currency
        }
        guard codes.count <= 1 else {
            throw TallyError.invalid("This export has bills in \(codes.sorted().joined(separator: " and ")); a ledger keeps one currency: import it with --currency to choose one.")
        }
        guard let code = codes.first else {
            throw TallyError.invalid("This export names no currency (IHateMoney's XXX): choose the ledger's currency with --currency, such as --currency EUR.")
        }
        return try Currency(code: code)
    }

    /// Members in the order they first appear, oldest bill first.
    private func orderedNames(_ bills: [IHateMoneyBill]) -> [String] {
        var names: [String] = []
        for bill in bills {
            for name in [bill.payerName] + bill.owers where !names.contains(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) {
                names.append(name)
            }
        }
        return names
    }

    /// IHateMoney's weights: a member's `payer_weight`, and 1 for members who never pay (the
    /// export does not say theirs).
    private func memberWeights(_ bills: [IHateMoneyBill]) -> [String: Decimal] {
        var weights: [String: Decimal] = [:]
        for bill in bills { weights[bill.payerName.lowercased()] = bill.payerWeight }
        return weights
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
