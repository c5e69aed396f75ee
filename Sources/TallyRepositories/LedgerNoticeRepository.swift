import Foundation
import TallyCore

/// A member who hears of the changes others make to a ledger: an account with notifications on
/// for it, and the devices to tell.
public struct ChangeRecipient: Sendable {
    public var user: User
    /// Who they are in the ledger (their share is named by it).
    public var member: MemberID
    public var subscriptions: [PushSubscription]

    package init(user: User, member: MemberID, subscriptions: [PushSubscription]) {
        self.user = user
        self.member = member
        self.subscriptions = subscriptions
    }
}

/// What a change did to a burst of one person's changes in one ledger.
public enum BurstJoin: Sendable, Equatable {
    /// It opened a burst: it is told now, alone.
    case opened
    /// It came while a burst was open: it is told with the others when the burst ends.
    case joined
}

/// A burst that ended, with what came after its first change.
public struct EndedBurst: Sendable, Equatable {
    public var ledger: UUID
    public var author: UUID
    public var startedAt: Date
    /// How many changes followed the first.
    public var more: Int
    /// The amounts of those that added an expense, in the ledger's minor units.
    public var added: Int64
    /// Whether every one of them added an expense.
    public var allAdded: Bool

    package init(ledger: UUID, author: UUID, startedAt: Date, more: Int, added: Int64, allAdded: Bool) {
        self.ledger = ledger
        self.author = author
        self.startedAt = startedAt
        self.more = more
        self.added = added
        self.allAdded = allAdded
    }
}

/// Who hears of a ledger's changes, and the bursts that keep a busy minute to two notifications.
/// The bursts live in the database, so that every instance counts the same ones and one ending
/// is told once.
public protocol LedgerNoticeRepository: Sendable {
    /// The members of `ledger` linked to accounts other than `author`'s, enabled, with
    /// notifications on for it and at least one device.
    func changeRecipients(of ledger: UUID, except author: UUID) async throws -> [ChangeRecipient]
    /// Whether the user hears of others' changes to the ledger (on unless turned off).
    func changeNotifications(in ledger: UUID, of user: UUID) async throws -> Bool
    func setChangeNotifications(_ on: Bool, in ledger: UUID, of user: UUID) async throws
    /// Counts a change by `author` in `ledger` at `at`: it opens a burst lasting `lasting`
    /// unless one is open, which it joins (with `added`, the amount of a new expense, or nil).
    func joinBurst(ledger: UUID, author: UUID, at: Date, lasting: TimeInterval, added: Int64?) async throws -> BurstJoin
    /// The bursts that ended by `now`, each returned to one caller only, and forgotten.
    func endBursts(at now: Date) async throws -> [EndedBurst]
}
