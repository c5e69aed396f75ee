import Foundation

/// The id a new ledger entry is stored under, made from the id its client sent (S2). A client's
/// id is a key for sending the same entry again within its ledger, never a name on the whole
/// server: the stored id is made from the ledger and the client's id, so the same id sent to two
/// ledgers makes two entries, an id sent never tells whether another ledger has it, and nobody
/// can choose the id of an entry they do not make (a recurring expense's occurrence, say).
public struct LedgerEntryKey: Sendable, Equatable {
    /// The new entry's id.
    public let id: UUID
    /// The id the client sent. An entry stored before ids were made this way has it as its own,
    /// so the same id sent again after an upgrade still finds that entry.
    public let client: UUID?

    public init(client: UUID?, in ledger: UUID) {
        self.client = client
        id = client.map { UUID.nameBased(namespace: ledger, name: "entry:\($0.uuidString.lowercased())") } ?? UUID()
    }

    /// The ids an entry already stored for this key may have.
    package var storedIDs: [UUID] { [id] + (client.map { [$0] } ?? []) }
}
