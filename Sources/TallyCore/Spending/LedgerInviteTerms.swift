import Foundation

/// How long an invite to a ledger lasts and how many people may join with it (S1). A code that
/// leaks keeps no door open for long: by default it lets one person in within a week.
public struct LedgerInviteTerms: Hashable, Sendable {
    public static let defaultDays = 7
    public static let defaultUses = 1
    public static let days = 1...30
    public static let uses = 1...LedgerRules.maximumMembers

    public let days: Int
    public let uses: Int

    /// The owner's choice, or the defaults for what they leave out.
    public init(days: Int? = nil, uses: Int? = nil) throws {
        let days = days ?? Self.defaultDays
        let uses = uses ?? Self.defaultUses
        guard Self.days.contains(days) else {
            throw TallyError.invalid("An invite lasts \(Self.days.lowerBound) to \(Self.days.upperBound) days; \(days) is outside that.", field: "days")
        }
        guard Self.uses.contains(uses) else {
            throw TallyError.invalid("An invite lets \(Self.uses.lowerBound) to \(Self.uses.upperBound) people join; \(uses) is outside that.", field: "uses")
        }
        self.days = days
        self.uses = uses
    }

    public func expiry(from start: Date) -> Date {
        start.addingTimeInterval(TimeInterval(days) * 86_400)
    }

    /// Said the same for a code that never was, was revoked or replaced, expired or ran out, so
    /// that trying codes tells nothing about which ones once existed.
    public static let notValid = TallyError.notFound("This invite is not valid any more; ask for a new one.")
}

/// Who may change what in a shared ledger (S1): its owner — the member who created it, or the
/// one they handed it to — looks after who belongs to it; everyone else records spending.
public enum LedgerOwnership {
    /// The owner the ledger keeps: the member marked as owner while an account is linked to it,
    /// otherwise (that account is gone) the first member with an account, by join order.
    public static func owner(marked: MemberID?, among members: [LedgerMember]) -> LedgerMember? {
        members.first { $0.id == marked && $0.userID != nil } ?? members.first { $0.userID != nil }
    }

    /// Refuses `user` unless they act as the owner. `action` completes "Only Ada, who owns this
    /// ledger, can …", such as "remove members".
    public static func requireOwner(_ owner: LedgerMember?, user: UUID, to action: Phrase) throws {
        guard let owner, owner.userID == user else {
            if let owner { throw TallyError.conflict("Only \(owner.name), who owns this ledger, can \(action).") }
            throw TallyError.conflict("Only the ledger's owner can \(action).")
        }
    }
}
