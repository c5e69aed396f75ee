import Foundation
import TallyCore
import TallyRepositories

/// Finding and creating users.
public struct UserDirectory: Sendable {
    public let store: any HydrationStore
    public let clock: any WallClock

    public init(store: any HydrationStore, clock: any WallClock) {
        self.store = store
        self.clock = clock
    }

    /// The user with `name`, created with default settings on first use; a new user's days are
    /// counted in `timeZone`, the machine's zone unless given.
    public func user(named name: String, timeZone: String? = nil) async throws -> User {
        if let user = try await store.user(named: name) { return user }
        let user = User(name: name, createdAt: clock.now)
        do {
            let settings = HydrationSettings(timeZone: timeZone ?? UserTimeZone.systemDefault)
            try await store.createUser(user, settings: settings,
                                       kinds: DrinkFactorSet.builtInKinds())
            return user
        } catch let error as TallyError where error.kind == .conflict {
            // Another process created it first: use theirs.
            guard let user = try await store.user(named: name) else { throw error }
            return user
        }
    }

    public func hydration(for user: User) -> HydrationService {
        HydrationService(store: store, clock: clock, user: user.id)
    }
}
