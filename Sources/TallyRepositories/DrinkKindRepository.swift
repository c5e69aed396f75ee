import Foundation
import TallyCore

/// Drink kinds, one list per user (H6).
public protocol DrinkKindRepository: Sendable {
    /// Every kind of the user, retired ones included, built-in ones first.
    func drinkKinds(of user: UUID) async throws -> [DrinkKind]
    /// Changes the user's kinds in one write transaction: `change` gets all of them as they
    /// stand and returns the kinds to insert or update (a name another active kind of the user
    /// has is a conflict), and what the change answers.
    func changeDrinkKinds<Answer: Sendable>(
        of user: UUID, _ change: @escaping @Sendable ([DrinkKind]) throws -> (save: [DrinkKind], answer: Answer)
    ) async throws -> Answer
}

extension DrinkKindRepository {
    /// Inserts or updates a kind.
    public func saveDrinkKind(_ kind: DrinkKind, of user: UUID) async throws {
        try await changeDrinkKinds(of: user) { _ in (save: [kind], answer: ()) }
    }
}
