import Domain

/// The writes waiting for the writer, and whether a drain of them is scheduled.
///
/// Group commit rests on this: while the writer commits one batch, new writes pile up here, and
/// the next batch takes them all at once.
final class WriteQueue<Operation: Sendable, Output: Sendable>: Sendable {
    /// One write and how its caller learns the result: a task's continuation, or a thread
    /// that waits for it (`CatalogStore.applySearchBacklog`).
    struct Request: Sendable {
        let operation: Operation
        let answer: @Sendable (Result<Output, StoreError>) -> Void

        init(operation: Operation, answer: @escaping @Sendable (Result<Output, StoreError>) -> Void) {
            self.operation = operation
            self.answer = answer
        }

        init(operation: Operation, continuation: CheckedContinuation<Result<Output, StoreError>, Never>) {
            self.init(operation: operation) { continuation.resume(returning: $0) }
        }
    }

    private struct State {
        var requests: [Request] = []
        var draining = false
    }

    private let state = Locked(State())

    /// Queues a request; returns true when no drain is scheduled and the caller must start one.
    func enqueue(_ request: Request) -> Bool {
        state.withLock { state in
            state.requests.append(request)
            if state.draining { return false }
            state.draining = true
            return true
        }
    }

    /// Requests waiting.
    var count: Int {
        state.withLock { $0.requests.count }
    }

    /// Up to `limit` requests in arrival order; an empty result ends the drain, so the next
    /// `enqueue` schedules a new one.
    func take(_ limit: Int) -> [Request] {
        state.withLock { state in
            if state.requests.isEmpty {
                state.draining = false
                return []
            }
            let count = min(limit, state.requests.count)
            let batch = Array(state.requests.prefix(count))
            state.requests.removeFirst(count)
            return batch
        }
    }
}

extension WriteQueue {
    /// Queues `operation` and waits for its answer; `startDrain` runs when no drain was
    /// scheduled (on the caller's thread: it only schedules one on the store's writer).
    func submit(_ operation: Operation, startDrain: () -> Void) async throws(StoreError) -> Output {
        let result = await withCheckedContinuation { continuation in
            if enqueue(.init(operation: operation, continuation: continuation)) { startDrain() }
        }
        return try result.get()
    }
}
