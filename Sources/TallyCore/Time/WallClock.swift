import Foundation

/// Where "now" comes from. Rules never read the system clock: they are handed a clock,
/// so that midnight and DST can be tested by setting it.
public protocol WallClock: Sendable {
    var now: Date { get }
}

/// The real clock.
public struct SystemClock: WallClock {
    public init() {}
    public var now: Date { Date() }
}

/// A clock that says what it is told; tests move it by hand.
public final class FixedClock: WallClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ date: Date) { current = date }

    public var now: Date {
        lock.withLock { current }
    }

    public func set(_ date: Date) {
        lock.withLock { current = date }
    }

    public func advance(by seconds: TimeInterval) {
        lock.withLock { current += seconds }
    }
}
