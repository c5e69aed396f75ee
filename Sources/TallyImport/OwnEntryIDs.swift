import Foundation
import TallyRepositories
import TallyServices

extension HydrationService {
    /// The id each of `ids` is stored under for this person: itself, or, when it is another
    /// person's entry (their file, brought into this account on the same server), an id of this
    /// person's own made from it, the same every time, so that bringing the file in again adds nothing.
    func ownEntryIDs(_ ids: [UUID]) async throws -> @Sendable (UUID) -> UUID {
        let others = try await store.entryIDsOfOthers(ids, user: user)
        let user = user
        return { id in
            others.contains(id) ? AppleHealthImporter.nameBasedUUID(namespace: user, name: "csv-id:\(id.uuidString.lowercased())") : id
        }
    }
}
