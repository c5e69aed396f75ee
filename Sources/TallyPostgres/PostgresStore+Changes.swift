import Foundation
import NIOCore
import PostgresNIO
import TallyCore
import TallyRepositories

extension PostgresStore: ChangeSource {
    /// The channel that migration 13's triggers notify: `l LEDGER` or `d USER YYYYMMDD`.
    static let changeChannel = "tally_changes"
    /// How long the listener waits before it connects again after losing its connection.
    static let relisten: Duration = .seconds(1)

    /// Listens for the changes that any instance commits, on a connection of its own, and wakes
    /// their followers. When the connection is lost (PostgreSQL restarted, the network failed),
    /// it connects again a second later; once listening again, every follower reads again, for
    /// what was committed while no one listened. Ends when cancelled.
    public func watchChanges() async throws {
        while !Task.isCancelled {
            do {
                try await listenOnce()
            } catch is CancellationError {
                return
            } catch {
                logger.debug("The change listener lost its connection: \(String(reflecting: error))")
            }
            try await Task.sleep(for: Self.relisten)
        }
    }

    /// Listens on one connection until it closes. The notifications and the connection's close
    /// are raced, and a cancelled listener closes its connection: either must end the listening
    /// even if the notifications never say so (PostgresNIO's listeners have hung on a closed
    /// connection before).
    private func listenOnce() async throws {
        let connection = try await PostgresConnection.connect(configuration: listening, id: 1, logger: logger)
        let close: @Sendable () -> Void = { let _: EventLoopFuture<Void> = connection.close() }
        try await withTaskCancellationHandler {
            try await withThrowingTaskGroup(of: Void.self) { [self] group in
                defer {
                    group.cancelAll()
                    close()
                }
                group.addTask { [self] in
                    try await connection.listen(on: Self.changeChannel) { notifications in
                        changes.signalEverything()
                        for try await notification in notifications {
                            if let topic = Self.topic(notification.payload) { changes.signal(topic) }
                        }
                    }
                }
                group.addTask { try await connection.closeFuture.get() }
                try await group.next()
            }
        } onCancel: {
            close()
        }
    }

    /// The topic a notification names, nil for one that is not Tally's.
    static func topic(_ payload: String) -> ChangeTopic? {
        let parts = payload.split(separator: " ")
        switch (parts.first, parts.count) {
        case ("l", 2):
            return UUID(uuidString: String(parts[1])).map(ChangeTopic.ledger)
        case ("d", 3):
            guard let user = UUID(uuidString: String(parts[1])), let number = Int(parts[2]),
                  let day = LocalDate(year: number / 10_000, month: number / 100 % 100, day: number % 100)
            else { return nil }
            return .day(user: user, day)
        default:
            return nil
        }
    }
}
