import Foundation
import TallyCore
import TallyRepositories

extension HydrationService {
    /// One of the user's entries, a drink or a removal; nil when they have none with this id.
    public func entry(id: UUID) async throws -> DayEntry? {
        try await store.entry(id: id, of: user)
    }

    /// One of the user's drinks, or a 404 (a removal's id is not a drink).
    public func drink(id: UUID) async throws -> DayEntry {
        guard let entry = try await entry(id: id), case .intake = entry else {
            throw TallyError.notFound("There is no drink with the id \(id).")
        }
        return entry
    }
}
