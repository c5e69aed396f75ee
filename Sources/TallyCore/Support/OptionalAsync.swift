import Foundation

extension Optional {
    /// `map` for an async transform: every layer turns optional ids into values it awaits.
    public func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
