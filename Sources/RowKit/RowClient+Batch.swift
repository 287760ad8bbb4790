import Foundation

/// Several writes in one request: POST to a collection's `links.batch` (`POST …/batch`).
/// Atomic, all or none: a failure is thrown as the failing operation's problem (a stale
/// version as `.conflict`), its `errors` pointing under `/operations/{index}`. Otherwise each
/// operation answers on its own, as a `BatchResult`.
extension RowClient {
    /// One create, merge patch or delete of a batch.
    public struct BatchOperation: Sendable {
        var json: [String: JSONValue]

        /// A new item, as `create(in:_:)` takes it.
        public static func create(_ item: JSONValue) -> BatchOperation {
            BatchOperation(json: ["op": "create", "item": item])
        }

        /// A JSON merge patch of the item `detail` shows; unless `force`, only while it is at the
        /// version `detail` was read at (its ETag as the operation's `ifMatch`).
        public static func update(_ detail: Detail, patch: JSONValue, force: Bool = false) -> BatchOperation {
            BatchOperation(json: ["op": "patch", "id": .string(detail.id ?? ""), "patch": patch]).matching(force ? nil : detail.etag)
        }

        /// Deletes the item `detail` shows; unless `force`, only while it is at that version.
        public static func delete(_ detail: Detail, force: Bool = false) -> BatchOperation {
            delete(id: detail.id ?? "", ifMatch: force ? nil : detail.etag)
        }

        /// Deletes an item by id (a row's `id`), at any version unless `ifMatch` names one.
        public static func delete(id: String, ifMatch: String? = nil) -> BatchOperation {
            BatchOperation(json: ["op": "delete", "id": .string(id)]).matching(ifMatch)
        }

        private func matching(_ etag: String?) -> BatchOperation {
            var operation = self
            if let etag { operation.json["ifMatch"] = .string(etag) }
            return operation
        }
    }

    /// What one operation of a batch came to: its status, the item's detail after a create or a
    /// patch, or the problem that refused it.
    public struct BatchResult: Sendable {
        public var status: Int
        public var detail: Detail?
        public var problem: Problem?
    }

    /// Sends `operations` to `batchLink` (a collection's `links.batch`); the results in order.
    public func batch(_ batchLink: String, _ operations: [BatchOperation], atomic: Bool) async throws(RowKitError) -> [BatchResult] {
        let body: JSONValue = ["atomic": .bool(atomic), "operations": .array(operations.map { .object($0.json) })]
        var request = Request(method: "POST", link: batchLink, body: try Self.encode(body))
        request.headers["Content-Type"] = "application/json"
        let response = try await send(request)
        guard case .array(let results)? = try response.decode(JSONValue.self)["results"] else {
            throw .unexpectedResponse(status: response.status, detail: "a batch answer without results")
        }
        var answers: [BatchResult] = []
        for result in results {
            guard case .integer(let status)? = result["status"] else {
                throw .unexpectedResponse(status: response.status, detail: "a batch result without a status")
            }
            var answer = BatchResult(status: status)
            if let item = result["item"] {
                answer.detail = Detail(
                    link: result["location"]?.string ?? item["links"]?["self"]?.string ?? batchLink, etag: result["etag"]?.string, json: item,
                    body: try Self.encode(item))
            }
            if let problem = result["problem"] {
                do {
                    answer.problem = try JSONDecoder().decode(Problem.self, from: try Self.encode(problem))
                } catch {
                    throw .coding("Problem: \(error)")
                }
            }
            answers.append(answer)
        }
        return answers
    }
}
