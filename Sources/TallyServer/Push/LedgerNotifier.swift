import Foundation
import Logging
import ServiceLifecycle
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// Tells the other members of a ledger of each expense or payment someone adds, changes,
/// deletes or restores, by Web Push, after the change is stored and off the request's path.
/// A busy minute is two notifications, not a flood: a person's first change in a ledger opens
/// a burst and is told at once; the changes that follow within `burst` are told together when
/// it ends. The bursts live in the database, so that instances sharing it count the same ones,
/// and each ending is told by the one instance that takes it.
struct LedgerNotifier: EntryChangeListener {
    let store: any TallyStorage
    let clock: any WallClock
    let push: PushCenter
    var burst: TimeInterval = 60
    var logger = Logger(label: "tally.notifications")

    func entryChanged(_ change: EntryChange) {
        // Detached: the request neither waits for the push services nor lends them its context.
        Task.detached { await notice(change) }
    }

    /// Counts the change in its burst and, when it opens one, tells the other members now.
    /// Returns how many devices took the notification.
    @discardableResult
    func notice(_ change: EntryChange) async -> Int {
        do {
            // Nobody to tell (the common case): no burst to count either.
            let recipients = try await store.changeRecipients(of: change.ledger, except: change.author)
            guard !recipients.isEmpty else { return 0 }
            let join = try await store.joinBurst(ledger: change.ledger, author: change.author, at: change.at,
                                                 lasting: burst, added: change.addedExpense)
            guard join == .opened else { return 0 }
            return try await tell(recipients, about: change.ledger, now: change.at) { written, details, reader in
                ChangeNotice(change, in: details, to: reader, money: written.money)
            }
        } catch {
            logger.warning("A ledger change could not be told.", metadata: ["error": "\(error)"])
            return 0
        }
    }

    /// Tells the rest of each burst that ended by `now`; returns how many devices took them.
    @discardableResult
    func tick(now: Date) async -> Int {
        guard let ended = try? await store.endBursts(at: now) else { return 0 }
        var told = 0
        for burst in ended where burst.more > 0 {
            guard let recipients = try? await store.changeRecipients(of: burst.ledger, except: burst.author) else { continue }
            told += (try? await tell(recipients, about: burst.ledger, now: now) { written, details, _ in
                ChangeNotice(burst, in: details, money: written.money)
            }) ?? 0
        }
        return told
    }

    /// Sends each of `recipients` their notice, in their language, opening the ledger's page
    /// when tapped.
    private func tell(_ recipients: [ChangeRecipient], about ledger: UUID, now: Date,
                      _ notice: (Written, LedgerDetails, MemberID) -> ChangeNotice) async throws -> Int {
        guard let first = recipients.first else { return 0 }
        let details = try await store.ledger(ledger, of: first.user.id)
        let sender = try await push.sender()
        var told = 0
        for recipient in recipients {
            let written = PushSender.written(for: recipient.user)
            let said = notice(written, details, recipient.member)
            // No tag: the summary of a burst comes beside its first change, not in its place.
            let notification = PushSender.Notification(
                title: written.say(said.title), body: written.say(said.body), url: SitePath.ledger.link(ledger))
            told += await sender.send(notification, to: recipient.subscriptions, now: now, kind: .ledger)
        }
        return told
    }
}

/// Tells the bursts that ended, every few seconds, inside `tally serve`.
struct LedgerNoticeService: Service {
    let notifier: LedgerNotifier
    var interval: Duration = .seconds(5)

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await notifier.tick(now: notifier.clock.now)
                try await Task.sleep(for: interval)
            }
        }
    }
}
