import ArgumentParser
import Foundation
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// Which ledger a spending command works on.
struct LedgerOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The ledger, by name or id (env: TALLY_LEDGER); the only one you have when absent.", valueName: "ledger"))
    var ledger: String?
}

extension CommandContext {
    /// The ledger named by --ledger or TALLY_LEDGER (its name in any case, its id, or the id's
    /// first characters), or the user's only ledger.
    func ledger(_ option: LedgerOption) async throws -> LedgerJSON {
        let environment = ProcessInfo.processInfo.environment["TALLY_LEDGER"].flatMap { $0.isEmpty ? nil : $0 }
        return try await ledger(named: option.ledger ?? environment)
    }

    /// The ledger called `wanted` or with that id, or the user's only ledger when it is nil.
    func ledger(named wanted: String?) async throws -> LedgerJSON {
        let ledgers = try await spending.ledgers()
        guard let wanted else {
            switch ledgers.count {
            case 0: throw TallyError.notFound("You have no ledger yet: create one with `tally ledger create NAME`, or join one with `tally ledger join CODE`.")
            case 1: return ledgers[0]
            default: throw TallyError.invalid("You have \(ledgers.count) ledgers: choose one with --ledger (\(ledgers.map(\.name).joined(separator: ", "))).")
            }
        }
        let byName = ledgers.filter { $0.name.caseInsensitiveCompare(wanted) == .orderedSame }
        let byID = ledgers.filter { $0.id.uuidString.lowercased().hasPrefix(wanted.lowercased()) }
        if byName.count == 1 { return byName[0] }
        if byName.isEmpty, byID.count == 1 { return byID[0] }
        if byName.count > 1 || byID.count > 1 {
            throw TallyError.invalid("More than one ledger matches \"\(wanted)\": give more of its id (tally ledger list shows them).")
        }
        guard !ledgers.isEmpty else { throw TallyError.notFound("You have no ledger called \"\(wanted)\": you have none.") }
        throw TallyError.notFound("You have no ledger called \"\(wanted)\": you have \(ledgers.map(\.name).joined(separator: ", ")).")
    }
}

extension LedgerJSON {
    var coreMembers: [LedgerMember] { members.map { LedgerMember(id: $0.id, name: $0.name, userID: nil) } }

    /// The member called `name`, in any case.
    func member(named name: String) throws -> MemberID {
        try LedgerRules.member(named: name, in: coreMembers).id
    }

    /// The member the user acts as.
    var you: MemberJSON? { members.first(where: \.isYou) }

    func name(of member: MemberID) -> String {
        members.first { $0.id == member }?.name ?? t("member \(member)")
    }

    /// The entry whose id is `reference` or starts with it, given the ids that do (two at most).
    func entryID(_ reference: String, matching ids: [UUID]) throws -> UUID {
        guard !reference.isEmpty, let first = ids.first else {
            throw TallyError.notFound("No expense or payment in \(name) has an id starting with \(reference): `tally expenses --deleted` lists them.")
        }
        guard ids.count == 1 else {
            throw TallyError.invalid("More than one entry's id starts with \(reference): give more of it.")
        }
        return first
    }
}
