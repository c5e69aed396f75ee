import Foundation
import Hummingbird
import TallyCore
import TallyRepositories
import TallyServices

/// What every handler starts from: the store, the clock, accounts and push, and the services
/// of the user asking.
struct APIServices: Sendable {
    let store: any TallyStorage
    let clock: any WallClock
    let accounts: AccountService
    let push: PushCenter
    /// Shared by every copy: the files being brought in on this server.
    var uploads = Uploads()
    /// How open pages hear of changes.
    var changes = ChangeFeed()
    /// Who tells the other members of a ledger's changes.
    var notifier: LedgerNotifier?

    func hydration(_ context: SignedInContext) -> HydrationService { hydration(for: context.user) }

    func hydration(for user: User) -> HydrationService {
        HydrationService(store: store, clock: clock, user: user.id)
    }

    func spending(_ context: SignedInContext) -> SpendingService { spending(for: context.user) }

    func spending(for user: User) -> SpendingService {
        SpendingService(store: store, clock: clock, user: user.id, listener: notifier)
    }
}
