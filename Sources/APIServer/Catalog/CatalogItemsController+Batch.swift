import Domain
import HTTPServer
import Storage

/// `POST /v1/<collection>/batch` (and `/v1/<parent>/{id}/<child>/batch`): up to
/// `BatchRequest.maximumOperations` creates, patches and deletes of one collection, all or
/// none (`"atomic": true`, one transaction) or each on its own. Every operation is checked by
/// the code its single route runs (`checkedCreate`, `plannedPatch`, `plannedDelete`) and
/// answered with what that route answers (`BatchResults`), under the same key, limits and
/// `Idempotency-Key` as a single write.
extension CatalogItemsController {
    func batch(_ request: Request) async throws -> Response {
        let collection = try served.collection(request)
        try authorizeWrite(request, collection)
        return try await batch(request, WriteTarget(collection: collection, parent: nil))
    }

    /// Under a parent: 404 for the whole batch when the parent item does not exist.
    func childBatch(_ request: Request) async throws -> Response {
        let (owner, child) = try served.childCollection(request)
        try authorizeWrite(request, child, under: owner)
        let parent = try Self.id(request.parameter("id"), of: owner)
        _ = try load(owner, parent)
        return try await batch(request, WriteTarget(collection: child, parent: parent, owner: owner))
    }

    /// An operation checked and ready for the store, and how its single route answers once it
    /// is written; or its answer already (a patch that changes nothing writes nothing).
    enum PreparedOperation {
        case write(ItemOperation, itemID: EntityID, answer: (Versioned<Item>?) throws -> Response)
        case answered(Response)
    }

    private func batch(_ request: Request, _ target: WriteTarget) async throws -> Response {
        let recover: IdempotentWrites.Recovery = { ids in try self.recoveredBatch(request, target, ids: ids) }
        return try await idempotency.run(request, recover: recover) { mark in
            let batch = try BatchRequest.parse(request)
            let results =
                batch.atomic
                ? try await applyTogether(batch, target, request, idempotency: mark)
                : try await applyEach(batch, target, request, idempotency: mark)
            // A batch whose every operation was refused wrote nothing: its key is let go, so a
            // corrected batch may run under it, as after a refused single write.
            return (BatchResults(atomic: batch.atomic, results: results).response, results.contains(where: \.succeeded))
        }
    }

    /// Checks one operation as its single route does; throws what that route would answer.
    func prepare(_ operation: BatchRequest.Operation, _ target: WriteTarget, context: RenderContext) throws -> PreparedOperation {
        let collection = target.collection
        let document = operation.document ?? .null
        switch operation.kind {
        case .create:
            let item = try checkedCreate(document, into: target)
            return .write(.insert(item), itemID: item.id) { saved in
                guard let saved else { throw StoreError.invariant("a create wrote no item") }
                return try created(saved, in: target, context: context)
            }
        case .patch:
            let id = try Self.id(operation.id, of: collection)
            switch try plannedPatch(document, to: id, in: target, precondition: operation.precondition, context: context) {
            case .unchanged(let response):
                return .answered(response)
            case .write(let item, let ifVersion):
                return .write(.update(item, ifVersion: ifVersion), itemID: id) { saved in
                    guard let saved else { throw StoreError.invariant("a patch wrote no item") }
                    return try updated(saved, in: collection, context: context)
                }
            }
        case .delete:
            let id = try Self.id(operation.id, of: collection)
            let ifVersion = try plannedDelete(id, in: target, precondition: operation.precondition)
            return .write(.delete(id, ifVersion: ifVersion), itemID: id) { _ in Response.empty(status: 204) }
        }
    }

    /// All or none: the first operation refused (checking it, or in the store's transaction)
    /// fails the batch with its problem, and nothing is written. A patch without `ifMatch` that
    /// met another write is checked again, as a single PATCH is.
    private func applyTogether(
        _ batch: BatchRequest, _ target: WriteTarget, _ request: Request, idempotency mark: IdempotencyMark?
    ) async throws -> [BatchResults.Answer] {
        let context = request.renderContext
        for _ in 0..<Self.patchAttempts {
            var prepared: [PreparedOperation] = []
            for (index, operation) in batch.operations.enumerated() {
                do {
                    prepared.append(try prepare(operation, target, context: context))
                } catch {
                    throw BatchResults.atomicFailure(BatchResults.problem(error), at: index, of: operation)
                }
            }
            let writes = prepared.indices.compactMap { index -> (index: Int, operation: ItemOperation)? in
                guard case .write(let operation, _, _) = prepared[index] else { return nil }
                return (index, operation)
            }
            var written = Array(repeating: Versioned<Item>?.none, count: prepared.count)
            if !writes.isEmpty {
                do {
                    let items = try await store.applyTogether(
                        writes.map(\.operation), in: target.collection.name, by: request.principal?.id, idempotency: mark,
                        batch: Self.recorded(prepared))
                    for (write, item) in zip(writes, items) { written[write.index] = item }
                } catch .inGroup(let position, let failure) {
                    let index = writes[position].index
                    let operation = batch.operations[index]
                    if case .versionMismatch = failure, operation.kind == .patch, Self.retriesOnChange(operation.precondition) { continue }
                    throw BatchResults.atomicFailure(failure.httpError, at: index, of: operation)
                } catch {
                    throw error
                }
            }
            return try prepared.indices.map { index in
                switch prepared[index] {
                case .answered(let response): .answered(response)
                case .write(_, _, let answer): .answered(try answer(written[index]))
                }
            }
        }
        throw Self.keptChanging
    }

    /// Each on its own: every operation answered with its status, the refused ones with their
    /// problems. The writes go to the store together, so they share a commit where they fit.
    private func applyEach(
        _ batch: BatchRequest, _ target: WriteTarget, _ request: Request, idempotency mark: IdempotencyMark?
    ) async throws -> [BatchResults.Answer] {
        let context = request.renderContext
        var results = Array(repeating: BatchResults.Answer.failed(Self.keptChanging), count: batch.operations.count)
        var pending = Array(batch.operations.indices)
        var ids = Array(repeating: Self.refused, count: batch.operations.count)
        for _ in 0..<Self.patchAttempts where !pending.isEmpty {
            var writes: [(index: Int, operation: ItemOperation, answer: (Versioned<Item>?) throws -> Response)] = []
            for index in pending {
                do {
                    switch try prepare(batch.operations[index], target, context: context) {
                    case .answered(let response):
                        results[index] = .answered(response)
                        ids[index] = Self.unchanged
                    case .write(let operation, let id, let answer):
                        ids[index] = id.rawValue
                        writes.append((index, operation, answer))
                    }
                } catch {
                    results[index] = .failed(BatchResults.problem(error))
                }
            }
            let outcomes = await store.applyEach(
                writes.map(\.operation), in: target.collection.name, by: request.principal?.id, idempotency: mark,
                batch: ids.joined(separator: " "))
            pending = []
            for (write, outcome) in zip(writes, outcomes) {
                switch outcome {
                case .success(let item):
                    do {
                        results[write.index] = .answered(try write.answer(item))
                    } catch {
                        results[write.index] = .failed(BatchResults.problem(error))
                    }
                case .failure(.versionMismatch)
                where Self.retriesOnChange(batch.operations[write.index].precondition)
                    && batch.operations[write.index].kind == .patch:
                    pending.append(write.index)
                case .failure(let failure):
                    results[write.index] = .failed(failure.httpError)
                }
            }
        }
        // Nothing written and the database at fault: the batch fails as a whole (503 or 500), so
        // that its Idempotency-Key is let go and a retry runs it again.
        if !results.contains(where: \.succeeded), case .failed(let failure)? = results.first(where: { Self.isServerFailure($0) }) {
            throw failure
        }
        return results
    }

    private static func isServerFailure(_ result: BatchResults.Answer) -> Bool {
        if case .failed(let failure) = result { failure.status >= 500 } else { false }
    }

    /// What the batch's Idempotency-Key record names: each operation's item id, in order
    /// (`unchanged` for a patch that writes nothing), to answer a retry whose answer was never
    /// stored (`recoveredBatch`).
    static func recorded(_ prepared: [PreparedOperation]) -> String {
        prepared.map { operation in
            if case .write(_, let id, _) = operation { id.rawValue } else { unchanged }
        }.joined(separator: " ")
    }

    /// In the record: a patch that changed nothing; an operation refused (on its own).
    static let unchanged = "-"
    static let refused = "!"

    /// The answer to a retried batch whose writes committed but whose answer was never stored:
    /// each operation answered from its item as it is now, as a single write's retry is. What a
    /// refused operation of a batch that was not atomic answered is not known any more.
    private func recoveredBatch(_ request: Request, _ target: WriteTarget, ids recorded: String) throws -> Response {
        let batch = try BatchRequest.parse(request)
        let ids = recorded.split(separator: " ").map(String.init)
        let context = request.renderContext
        let results = batch.operations.indices.map { index -> BatchResults.Answer in
            do {
                return .answered(try recovered(batch.operations[index], id: index < ids.count ? ids[index] : Self.refused, target, context))
            } catch {
                return .failed(BatchResults.problem(error))
            }
        }
        return BatchResults(atomic: batch.atomic, results: results).response
    }

    private func recovered(_ operation: BatchRequest.Operation, id: String, _ target: WriteTarget, _ context: RenderContext) throws -> Response {
        let notKept = HTTPError(
            status: 409, code: "RESULT_NOT_KEPT",
            detail: "This operation was refused when the batch first ran, and the server stopped before that answer was kept; send it again.")
        guard id != Self.refused else { throw notKept }
        let current: Versioned<Item>
        do {
            current = try load(target, try Self.id(id == Self.unchanged ? operation.id : id, of: target.collection))
        } catch let failure as StoreError {
            if case .missing = failure, operation.kind == .delete { return Response.empty(status: 204) }
            throw failure
        }
        switch operation.kind {
        case .create: return try created(current, in: target, context: context)
        case .patch: return try updated(current, in: target.collection, context: context)
        case .delete: throw notKept
        }
    }
}
