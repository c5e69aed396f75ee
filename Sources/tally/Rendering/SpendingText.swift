import Foundation
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// The spending commands' text output.
enum SpendingText {
    static func ledgers(_ ledgers: [LedgerJSON]) -> String {
        guard !ledgers.isEmpty else { return "No ledgers yet: create one with `tally ledger create NAME`." }
        return ledgers.map { "\($0.id.uuidString.prefix(8).lowercased())  \($0.name) (\($0.currency)), \($0.members.count) members" }
            .joined(separator: "\n")
    }

    static func ledger(_ ledger: LedgerJSON, created: Bool = false) -> String {
        var lines = ["\(created ? "Created " : "")\(ledger.name) (\(ledger.currency))", members(ledger)]
        if let invite = ledger.invite { lines.append(inviteState(invite)) }
        return lines.joined(separator: "\n")
    }

    static func members(_ ledger: LedgerJSON) -> String {
        ledger.members.map { member in
            let notes = [member.isYou ? "you" : member.linked ? "joined" : nil, member.id == ledger.owner ? "owner" : nil].compactMap { $0 }
            return "  \(member.name)\(notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))")"
        }.joined(separator: "\n")
    }

    static func invite(_ ledger: LedgerJSON) -> String {
        guard let invite = ledger.invite, let code = ledger.inviteCode else {
            return "No invite is open for \(ledger.name): its old code joins nobody."
        }
        return """
            Invite code for \(ledger.name): \(code)
            The other person runs: tally ledger join \(code) --as NAME
            \(inviteState(invite)) It is shown only this once.
            """
    }

    /// "Invite: valid until 2026-03-10T14:00:00Z, for one more person." (a date in the past: expired).
    static func inviteState(_ invite: InviteJSON) -> String {
        guard invite.usesLeft > 0 else { return "Invite: used up." }
        let until = ISO8601DateFormatter().string(from: invite.expiresAt)
        return "Invite: valid until \(until), for \(invite.usesLeft == 1 ? "one more person" : "\(invite.usesLeft) more people")."
    }

    static func joined(_ ledger: LedgerJSON) -> String {
        "You are \(ledger.you?.name ?? "a member") in \(ledger.name) (\(ledger.currency)).\n" + members(ledger)
    }

    /// "Groceries  30.00 EUR, paid by Alex, split equally" or "payment  20.00 EUR, Sam → Alex".
    static func line(_ entry: EntryJSON, _ ledger: LedgerJSON) -> String {
        let amount = "\(entry.amount) \(entry.currency)"
        if let recipient = entry.recipient {
            let note = entry.description.map { " (\($0))" } ?? ""
            return "payment of \(amount), \(ledger.name(of: entry.payer)) → \(ledger.name(of: recipient))\(note)"
        }
        let split = entry.split == .equal && entry.parts.count == ledger.members.count ? "split equally"
            : "split \(entry.split == .equal ? "equally among" : "by \(entry.split.rawValue):") "
                + entry.parts.map { "\(ledger.name(of: $0.member)) \($0.share)" }.joined(separator: ", ")
        return "\(entry.description ?? "expense") \(amount), paid by \(paidBy(entry.payers, ledger)), \(split)"
    }

    /// "Alex", or "Alex 20.00 and Sam 30.00" when several pay.
    static func paidBy(_ payers: [PayerJSON], _ ledger: LedgerJSON) -> String {
        Payers.wording(payers.map { (ledger.name(of: $0.member), $0.paid) })
    }

    static func recorded(_ entry: EntryJSON, _ ledger: LedgerJSON) -> String {
        "Recorded \(line(entry, ledger)).  [\(entry.id.uuidString.prefix(8).lowercased())]"
    }

    static func entries(_ entries: [EntryJSON], _ ledger: LedgerJSON) -> String {
        guard !entries.isEmpty else { return "No expenses yet in \(ledger.name): add one with `tally spend AMOUNT DESCRIPTION`." }
        return entries.map {
            "\($0.date)  \($0.id.uuidString.prefix(8).lowercased())  \(line($0, ledger))\($0.deletedAt == nil ? "" : "  (deleted)")"
        }.joined(separator: "\n")
    }

    static func balance(_ summary: SummaryJSON, _ ledger: LedgerJSON) -> String {
        let width = summary.members.map(\.name.count).max() ?? 0
        let amountWidth = summary.members.flatMap { [$0.paid, $0.share, signed($0.balance)] }.map(\.count).max() ?? 0
        func pad(_ text: String) -> String { String(repeating: " ", count: max(0, amountWidth - text.count)) + text }
        var lines = ["\(ledger.name) (\(summary.currency))"]
        lines += summary.members.map {
            "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  paid \(pad($0.paid))  share \(pad($0.share))  balance \(pad(signed($0.balance)))"
        }
        return (lines + summary.sentences).joined(separator: "\n")
    }

    static func plan(_ summary: SummaryJSON) -> String {
        guard !summary.plan.isEmpty else { return "Everyone is settled up." }
        let count = summary.plan.count
        return (["\(count) payment\(count == 1 ? "" : "s") settle\(count == 1 ? "s" : "") everything:"]
            + summary.plan.map { "  \($0.fromName) pays \($0.toName) \($0.amount) \(summary.currency)" }
            + ["Record them with: tally settle --record"]).joined(separator: "\n")
    }

    static func activity(_ items: [ActivityJSON], zone: TimeZone) -> String {
        guard !items.isEmpty else { return "Nothing has happened yet." }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return items.map { "\(formatter.string(from: $0.at))  \($0.actor ?? "someone"): \($0.text)" }.joined(separator: "\n")
    }

    private static func signed(_ amount: String) -> String {
        amount.hasPrefix("-") || amount.allSatisfy({ $0 == "0" || $0 == "." }) ? amount : "+" + amount
    }
}
