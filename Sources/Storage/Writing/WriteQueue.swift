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
        enqueue([request])
    }

    /// Queues several requests at once, in order, so that one drain takes them together (as far
    /// as its batch size allows); returns true when the caller must start a drain.
    func enqueue(_ requests: [Request]) -> Bool {
        state.withLock { state in
            state.requests += requests
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

extension WriteQueue {
    /// Queues `operations` together, in order, and waits for every answer (one per operation,
    /// in order): writes that each stand alone and share one commit where they fit in one.
    func submit(all operations: [Operation], startDrain: () -> Void) async -> [Result<Output, StoreError>] {
        guard !operations.isEmpty else { return [] }
        return await withCheckedContinuation { continuation in
            let answers = Locked<(results: [Result<Output, StoreError>?], waiting: Int)>(
                (Array(repeating: nil, count: operations.count), operations.count))
            let requests = operations.enumerated().map { index, operation in
                Request(operation: operation) { result in
                    let all = answers.withLock { answers -> [Result<Output, StoreError>]? in
                        answers.results[index] = result
                        answers.waiting -= 1
                        return answers.waiting == 0 ? answers.results.compactMap { $0 } : nil
                    }
                    if let all { continuation.resume(returning: all) }
                }
            }
            if enqueue(requests) { startDrain() }
        }
    }
}
