import Foundation

/// The threads that run async handlers: a task executor the server owns.
///
/// Without it, async handlers run on Swift's global cooperative pool (one thread per core,
/// two here), which the host process shares: whatever blocks that pool — a synchronous
/// SQLite call in other code, a test suite setting up servers in parallel — holds every
/// suspended request until it lets go. Handlers pinned to these threads
/// (`Task(executorPreference:)`, which their awaits resume on too) only wait for each other.
///
/// One instance serves the whole process, and its threads live as long as the process (hence
/// `unowned` in them, and no other instances). `@unchecked Sendable`: the queue is guarded by
/// `condition`.
final class HandlerExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = HandlerExecutor(threads: max(2, ProcessInfo.processInfo.activeProcessorCount))

    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var head = 0

    private init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [unowned self] in run() }
            thread.name = "rowserver-handler-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while head == jobs.count { condition.wait() }
            let job = jobs[head]
            head += 1
            if head == jobs.count || head > 1024 {
                // Drop what ran, so the array neither grows forever nor shifts on every take.
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
