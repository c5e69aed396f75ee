import Foundation
import TallyCore
import TallyServices

extension SpendingService {
    /// The id of the member called `name` in `ledger`: what the command line looks up before it
    /// sends a body that names members by id.
    func id(of name: String, in ledger: UUID) async throws -> MemberID {
        try LedgerRules.member(named: name, in: try await self.ledger(ledger).members).id
    }
}
