import Crypto
import Foundation
import HTTPServer
import Storage

/// `Idempotency-Key` on writes (Stripe's idempotent requests): a retried POST, PATCH or DELETE
/// that names the key of a request already answered gets that answer again — status, headers
/// and body, plus `Idempotent-Replayed: true` — instead of writing twice. The same key with
/// another request (method, target or body bytes) is 422 `IDEMPOTENCY_KEY_REUSED`; with a
/// request still running, 409 `IDEMPOTENCY_KEY_IN_USE`.
///
/// Keys belong to the API key that sent them and live in the database for 24 hours
/// (`IdempotencyStore`), so a retry after a restart is still recognized. Only writes that took
/// effect are remembered: a refused one (4xx, 5xx) forgets its key, and the retry runs again.
/// The write and the record that it happened commit together; if the server stops before the
/// answer is stored, a retry answers from the item as it is then.
final class IdempotentWrites: Sendable {
    let store: any IdempotencyRecords
    /// Keys whose request runs now in this process.
    private let running = Locked<Set<IdempotencyMark>>([])

    static let header = "Idempotency-Key"
    static let maximumLength = 255

    init(store: any IdempotencyRecords) {
        self.store = store
    }

    /// How to answer a key whose write committed but whose answer was never stored.
    typealias Recovery = @Sendable (_ itemID: String) async throws -> Response

    /// Runs `write` under the request's idempotency key, if it names one (`write` then gets the
    /// mark to pass to the store, which records the write in its own transaction).
    func run(
        _ request: Request, recover: Recovery, _ write: @Sendable (IdempotencyMark?) async throws -> Response
    ) async throws -> Response {
        try await run(request, recover: recover) { mark in
            let response = try await write(mark)
            return (response, (200..<300).contains(response.status))
        }
    }

    /// `run` for a write that says whether its answer is remembered: a batch answers 200 when
    /// every operation was refused, and is then forgotten as a refused single write is.
    func run(
        _ request: Request, recover: Recovery, _ write: @Sendable (IdempotencyMark?) async throws -> (Response, remember: Bool)
    ) async throws -> Response {
        guard let key = try Self.key(request) else { return try await write(nil).0 }
        let mark = IdempotencyMark(principal: request.principal?.id ?? "", key: key)
        guard running.withLock({ $0.insert(mark).inserted }) else {
            throw HTTPError(
                status: 409, code: "IDEMPOTENCY_KEY_IN_USE",
                detail: "A request with this Idempotency-Key is still running; retry when it has been answered.", parameter: Self.header)
        }
        defer { running.withLock { _ = $0.remove(mark) } }
        switch try store.begin(mark, fingerprint: Self.fingerprint(request), now: Int64(Date().timeIntervalSince1970)) {
        case .replay(let answer):
            return Self.replayed(Response(status: answer.status, headers: HTTPHeaders(answer.headers.map { ($0.name, $0.value) }), body: answer.body))
        case .mismatch:
            throw HTTPError(
                status: 422, code: "IDEMPOTENCY_KEY_REUSED",
                detail: "This Idempotency-Key was used with another request (method, path or body); use a new key for a new request.",
                parameter: Self.header)
        case .applied(_, let itemID, _):
            let response = try await recover(itemID)
            try? store.complete(mark, answer: Self.stored(response))
            return Self.replayed(response)
        case .fresh:
            let response: Response
            let remember: Bool
            do {
                (response, remember) = try await write(mark)
            } catch {
                // A write that committed has left its key `applied`: release forgets only a pending one.
                try? store.release(mark)
                throw error
            }
            if remember {
                // Not stored (a database error now): the key stays `applied`, and a retry recovers.
                try? store.complete(mark, answer: Self.stored(response))
            } else {
                try? store.release(mark)
            }
            return response
        }
    }

    /// The key the request names; nil without one. 400 for more than one, or one that is not 1 to
    /// 255 visible ASCII characters.
    static func key(_ request: Request) throws(HTTPError) -> String? {
        let count = request.headers.count(of: header)
        guard count > 0 else { return nil }
        guard count == 1, let value = request.headers[header] else {
            throw .badRequest("DUPLICATE_HEADER", "Send one Idempotency-Key header.", parameter: header)
        }
        guard (1...maximumLength).contains(value.utf8.count), value.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .badRequest(
                "INVALID_IDEMPOTENCY_KEY", "An Idempotency-Key is 1 to \(maximumLength) visible ASCII characters (a UUID will do).",
                parameter: header)
        }
        return value
    }

    /// What makes two requests the same: method, target and body bytes.
    static func fingerprint(_ request: Request) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: Array("\(request.method.rawValue) \(request.target)\n".utf8))
        hasher.update(data: request.body)
        return Array(hasher.finalize())
    }

    static func stored(_ response: Response) -> StoredAnswer {
        StoredAnswer(status: response.status, headers: response.headers.map { ($0.name, $0.value) }, body: response.body)
    }

    static func replayed(_ response: Response) -> Response {
        var response = response
        response.headers.set("Idempotent-Replayed", "true")
        return response
    }
}
