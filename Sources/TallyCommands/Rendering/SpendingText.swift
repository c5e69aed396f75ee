import Foundation
import TallyAPI
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// The spending commands' text output, in the terminal's language.
enum SpendingText {
    static func ledgers(_ ledgers: [LedgerJSON]) -> String {
        guard !ledgers.isEmpty else { return t("No ledgers yet: create one with `tally ledger create NAME`.") }
        return ledgers.map { ledger in
            let (name, currency, count) = (ledger.name, ledger.currency, ledger.members.count)
            return "\(ledger.id.uuidString.prefix(8).lowercased())  "
                + t(one: "\(name) (\(currency)), \(count) member", other: "\(name) (\(currency)), \(count) members")
        }.joined(separator: "\n")
    }

    static func ledger(_ ledger: LedgerJSON, created: Bool = false) -> String {
        let title = created ? t("Created \(ledger.name) (\(ledger.currency))") : "\(ledger.name) (\(ledger.currency))"
        var lines = [title, members(ledger)]
        if let invite = ledger.invite { lines.append(inviteState(invite)) }
        return lines.joined(separator: "\n")
    }

    static func members(_ ledger: LedgerJSON) -> String {
        ledger.members.map { member in
            let name = member.name
            let said = switch (member.isYou, member.linked, member.id == ledger.owner) {
            case (true, _, true): t("\(name) (you, owner)")
            case (true, _, false): t("\(name) (you)")
            case (false, true, true): t("\(name) (joined, owner)")
            case (false, true, false): t("\(name) (joined)")
            case (false, false, true): t("\(name) (owner)")
            case (false, false, false): name
            }
            return "  " + said
        }.joined(separator: "\n")
    }

    static func invite(_ ledger: LedgerJSON) -> String {
        guard let invite = ledger.invite, let code = ledger.inviteCode else {
            return t("No invite is open for \(ledger.name): its old code joins nobody.")
        }
        return [t("Invite code for \(ledger.name): \(code)"),
                t("The other person runs: tally ledger join \(code) --as NAME"),
                inviteState(invite) + " " + t("It is shown only this once.")].joined(separator: "\n")
    }

    /// "Invite: valid until 2026-03-10T14:00:00Z, for one more person." (a date in the past: expired).
    static func inviteState(_ invite: InviteJSON) -> String {
        guard invite.usesLeft > 0 else { return t("Invite: used up.") }
        let until = Said.inEnglish ? ISO8601DateFormatter().string(from: invite.expiresAt) : Said.moment(invite.expiresAt)
        let left = invite.usesLeft
        return left == 1 ? t("Invite: valid until \(until), for one more person.")
            : t(one: "Invite: valid until \(until), for \(left) more person.", other: "Invite: valid until \(until), for \(left) more people.")
    }

    static func joined(_ ledger: LedgerJSON) -> String {
        let said = ledger.you.map { t("You are \($0.name) in \(ledger.name) (\(ledger.currency)).") }
            ?? t("You are a member in \(ledger.name) (\(ledger.currency)).")
        return said + "\n" + members(ledger)
    }

    /// "Groceries  30.00 EUR, paid by Alex, split equally" or "payment  20.00 EUR, Sam → Alex".
    static func line(_ entry: EntryJSON, _ ledger: LedgerJSON) -> String {
        // "100.00 USD → 92.34 EUR" for an entry typed in another currency.
        let amount = (entry.original.map { "\($0.amount) \($0.currency) → " } ?? "") + "\(entry.amount) \(entry.currency)"
        if let recipient = entry.recipient {
            let (from, to) = (ledger.name(of: entry.payer), ledger.name(of: recipient))
            guard let note = entry.description else { return t("payment of \(amount), \(from) → \(to)") }
            return t("payment of \(amount), \(from) → \(to) (\(note))")
        }
        let (payers, split) = (paidBy(entry.payers, ledger), splitWords(entry, ledger))
        guard let description = entry.description else { return t("expense \(amount), paid by \(payers), \(split)") }
        return t("\(description) \(amount), paid by \(payers), \(split)")
    }

    /// "split equally", "split equally among Alex 15.00, Sam 15.00", "split by shares: Alex 2, Sam 1".
    private static func splitWords(_ entry: EntryJSON, _ ledger: LedgerJSON) -> String {
        let parts = entry.parts.map { "\(ledger.name(of: $0.member)) \($0.share)" }.joined(separator: ", ")
        return switch entry.split {
        case .equal: entry.parts.count == ledger.members.count ? t("split equally") : t("split equally among \(parts)")
        case .shares: t("split by shares: \(parts)")
        case .exact: t("split by exact: \(parts)")
        case .percent: t("split by percent: \(parts)")
        }
    }

    /// "Alex", or "Alex 20.00 and Sam 30.00" when several pay.
    static func paidBy(_ payers: [PayerJSON], _ ledger: LedgerJSON) -> String {
        payers.count > 1 ? Said.list(payers.map { "\(ledger.name(of: $0.member)) \($0.paid)" })
            : payers.first.map { ledger.name(of: $0.member) } ?? ""
    }

    static func recorded(_ entry: EntryJSON, _ ledger: LedgerJSON) -> String {
        t("Recorded \(line(entry, ledger)).") + "  [\(entry.id.uuidString.prefix(8).lowercased())]"
    }

    /// One line per entry, newest first: its day, short id and line, then a 📎 when it has a
    /// receipt (`tally expenses receipt ID` tells of it) and whether it is deleted.
    static func entries(_ entries: [EntryJSON], _ ledger: LedgerJSON) -> String {
        guard !entries.isEmpty else { return t("No expenses yet in \(ledger.name): add one with `tally spend AMOUNT DESCRIPTION`.") }
        return entries.map {
            "\($0.date)  \($0.id.uuidString.prefix(8).lowercased())  \(line($0, ledger))"
                + ($0.receipt == nil ? "" : "  📎") + ($0.deletedAt == nil ? "" : "  " + t("(deleted)"))
        }.joined(separator: "\n")
    }

    static func balance(_ summary: SummaryJSON, _ ledger: LedgerJSON) -> String {
        let width = summary.members.map(\.name.count).max() ?? 0
        let amountWidth = summary.members.flatMap { [$0.paid, $0.share, signed($0.balance)] }.map(\.count).max() ?? 0
        func pad(_ text: String) -> String { String(repeating: " ", count: max(0, amountWidth - text.count)) + text }
        var lines = ["\(ledger.name) (\(summary.currency))"]
        lines += summary.members.map {
            let name = $0.name.padding(toLength: width, withPad: " ", startingAt: 0)
            return "  " + t("\(name)  paid \(pad($0.paid))  share \(pad($0.share))  balance \(pad(signed($0.balance)))")
        }
        return (lines + owing(summary)).joined(separator: "\n")
    }

    /// Who owes whom (the summary's `sentences`), in the terminal's language.
    private static func owing(_ summary: SummaryJSON) -> [String] {
        guard !summary.plan.isEmpty else { return [t("Everyone is settled up.")] }
        return summary.plan.map { transfer in
            let amount = "\(transfer.amount) \(summary.currency)"
            return t("\(transfer.fromName) owes \(transfer.toName) \(amount).")
        }
    }

    static func plan(_ summary: SummaryJSON) -> String {
        guard !summary.plan.isEmpty else { return t("Everyone is settled up.") }
        let count = summary.plan.count
        return ([t(one: "\(count) payment settles everything:", other: "\(count) payments settle everything:")]
            + summary.plan.map { transfer in
                let amount = "\(transfer.amount) \(summary.currency)"
                return "  " + t("\(transfer.fromName) pays \(transfer.toName) \(amount)")
            }
            + [t("Record them with: tally settle --record")]).joined(separator: "\n")
    }

    static func activity(_ items: [ActivityJSON], zone: TimeZone) -> String {
        guard !items.isEmpty else { return t("Nothing has happened yet.") }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        // The log's sentences are the ones the ledger kept, in English.
        return items.map { "\(formatter.string(from: $0.at))  \($0.actor ?? t("someone")): \($0.text)" }.joined(separator: "\n")
    }

    private static func signed(_ amount: String) -> String {
        amount.hasPrefix("-") || amount.allSatisfy({ $0 == "0" || $0 == "." }) ? amount : "+" + amount
    }
}
