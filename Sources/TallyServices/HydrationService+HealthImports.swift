import Foundation
import TallyAPI
import TallyCore
import TallyRepositories

extension HydrationService {
    /// Forgets that the imported drinks this person deleted were ever imported, so that the
    /// next import of Apple Health brings them back (A2); imported drinks still there stay
    /// remembered and are not added twice.
    public func forgetDeletedImports() async throws -> ForgottenImports {
        ForgottenImports(forgotten: try await store.forgetDeletedImports(of: user))
    }
}
