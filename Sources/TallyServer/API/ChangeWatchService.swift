import Logging
import ServiceLifecycle
import TallyRepositories

/// Passes on, inside `tally serve`, the changes that other processes commit (the other instances
/// on PostgreSQL, a `tally` command on the same SQLite file) to this instance's open streams. A
/// failure is logged and the watch starts again a second later.
struct ChangeWatchService: Service {
    let store: any ChangeSource
    var logger = Logger(label: "tally")

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await store.watchChanges()
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("Watching for other processes' changes failed, trying again in a second: \(String(describing: error))")
                    // Whatever was missed meanwhile is read again.
                    store.changes.signalEverything()
                }
                try await Task.sleep(for: .seconds(1))
            }
        }
    }
}
