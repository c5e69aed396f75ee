import Foundation
import Logging
import ServiceLifecycle
import TallyCore
import TallyRepositories
import TallyServices

/// Records the recurring expenses whose day has come, once a minute, inside `tally serve`: each
/// occurrence once, even when several servers share the database (see `RecurringSchedule`).
struct RecurringExpenseService: Service {
    let store: any TallyStorage
    let clock: any WallClock
    var interval: Duration = .seconds(60)
    var logger = Logger(label: "tally.recurring")

    /// Ticks every `interval` until the server shuts down.
    func run() async throws {
        // Sleeping is cut short by a shutdown: then the loop ends.
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await tick()
                try await Task.sleep(for: interval)
            }
        }
    }

    /// Records what is due now; a failure is logged, and the next tick tries again.
    func tick() async {
        do {
            let outcome = try await RecurringSchedule(store: store, clock: clock).recordDue()
            let added = outcome.added.count
            if added > 0 { logger.info("Recorded \(added) recurring expense\(added == 1 ? "" : "s").") }
            for (expense, error) in outcome.failed {
                logger.error("Could not record the recurring expense \(expense): \(error)")
            }
        } catch {
            logger.error("Could not look for recurring expenses due: \(error)")
        }
    }
}
