import Foundation
import TallyCore

extension HydrationService {
    /// One of the user's entries, a drink or a removal; nil when they have none with this id.
    public func entry(id: UUID) async throws -> DayEntry? {
        try await store.entry(id: id, of: user)
    }
}
