import Foundation

/// Runs a command on the process's first thread. A local command does its work in one line of
/// calls, but Swift's global executor would start a pool of threads for it (each with its own
/// stack and allocator arena) and leave the first thread waiting: about a millisecond of every
/// command, for no work done side by side.
enum OneThread {
    /// Runs `command` to its end on this thread, then ends the process with status 0; a command
    /// that fails ends it sooner, through `exit`.
    static func run(_ command: sending @escaping () async -> Void) -> Never {
        let executor = Executor()
        Task(executorPreference: executor) {
            await command()
            exit(0)
        }
        executor.runJobs()
    }

    /// The jobs of the command's task, run in turn on the thread that waits for them. A job may
    /// be enqueued from another thread (a continuation resumed there), hence the condition.
    private final class Executor: TaskExecutor, @unchecked Sendable {
        private let condition = NSCondition()
        private var jobs: [UnownedJob] = []

        func enqueue(_ job: UnownedJob) {
            condition.lock()
            jobs.append(job)
            condition.signal()
            condition.unlock()
        }

        func runJobs() -> Never {
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }
}
