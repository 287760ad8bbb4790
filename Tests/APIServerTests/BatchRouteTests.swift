import Domain
import Foundation
import HTTPServer
import HTTPTestSupport
import Storage
import Testing

@testable import APIServer

/// `POST /v1/{collection}/batch` over real sockets: all or none (`atomic`), each on its own
/// otherwise, every operation answered as its single route answers, under the same keys,
/// limits, preconditions and idempotency.
@Suite("Batch writes")
struct BatchRouteTests {
    let server: CatalogTestServer

    init() async throws {
        server = try CatalogTestServer.tickets()
    }

    static func ticket(_ subject: String) -> String {
        #"{"subject":"\#(subject)","status":"open","priority":2,"opened":"2026-11-20"}"#
    }

    static func create(_ subject: String) -> String { #"{"op":"create","item":\#(ticket(subject))}"# }

    func batch(_ operations: [String], atomic: Bool, headers: [(String, String)] = [], under path: String = "/v1/tickets") async throws
        -> HTTPResponse
    {
        try await server.send(
            "POST", path + "/batch", json: #"{"atomic":\#(atomic),"operations":[\#(operations.joined(separator: ","))]}"#, headers: headers)
    }

    /// The change feed's token now: what a test reads the writes after it from.
    func token() async throws -> String {
        try #require(try await server.get("/v1/tickets/changes").json?["next"] as? String)
    }

    func changes(since token: String) async throws -> [[String: Any]] {
        try #require(try await server.get("/v1/tickets/changes?since=\(token)").json?["changes"] as? [[String: Any]])
    }

    func subjects() async throws -> [String] {
        let rows = try #require(try await server.get("/v1/tickets?sort=subject").json?["rows"] as? [[String: Any]])
        return rows.compactMap { $0["title"] as? String }
    }

    func results(_ response: HTTPResponse) throws -> [[String: Any]] {
        try #require(response.json?["results"] as? [[String: Any]], "\(response.text)")
    }

    @Test func anAtomicBatchWritesEveryOperationAndAnswersAsTheSingleRoutesDo() async throws {
        let patched = try await server.create("tickets", Self.ticket("Patch me"))
        let deleted = try await server.create("tickets", Self.ticket("Delete me"))
        let tag = try #require(try await server.get("/v1/tickets/\(patched)").header("ETag"))
        let start = try await token()
        let response = try await batch(
            [
                Self.create("Alpha"), Self.create("Bravo"),
                #"{"op":"patch","id":"\#(patched)","ifMatch":"\#(tag.replacingOccurrences(of: "\"", with: "\\\""))","patch":{"priority":1,"due":null}}"#,
                #"{"op":"delete","id":"\#(deleted)"}"#,
            ], atomic: true)
        #expect(response.status == 200, "\(response.text)")
        #expect(response.json?["atomic"] as? Bool == true)
        let results = try results(response)
        #expect(results.map { $0["status"] as? Int } == [201, 201, 200, 204])
        // Each written item's body and ETag are those its detail answers now.
        for result in results.prefix(3) {
            let item = try #require(result["item"] as? [String: Any])
            let id = try #require(item["id"] as? String)
            let detail = try await server.get("/v1/tickets/\(id)")
            #expect(NSDictionary(dictionary: item) == NSDictionary(dictionary: try #require(detail.json)))
            #expect(result["etag"] as? String == detail.header("ETag"))
        }
        #expect(results[0]["location"] as? String == "/v1/tickets/\(((results[0]["item"] as? [String: Any])?["id"] as? String) ?? "")")
        #expect((results[2]["item"] as? [String: Any])?["priority"] as? Int == 1)
        #expect(results[3]["item"] == nil && results[3]["problem"] == nil)
        #expect(try await subjects() == ["Alpha", "Bravo", "Patch me"])
        let feed = try await changes(since: start)
        #expect(feed.map { $0["op"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") } == ["delete", "upsert", "upsert", "upsert"])
    }

    /// `(operation in the middle, status, code)`: each fails the atomic batch, which writes nothing.
    @Test(arguments: [
        (#"{"op":"patch","id":"tkt_06h157w8pshwp0kz","patch":{"priority":1}}"#, 404, "NOT_FOUND", "/operations/1"),
        (#"{"op":"delete","id":"not-an-id"}"#, 404, "NOT_FOUND", "/operations/1"),
        (#"{"op":"create","item":{"subject":"","status":"lost","opened":"2026-11-20"}}"#, 422, "VALIDATION_FAILED", "/operations/1/item/subject"),
        (
            #"{"op":"create","item":{"subject":"S","opened":"2026-11-20","assigneeID":"agt_06h157w8pshwp0kz"}}"#, 422, "VALIDATION_FAILED",
            "/operations/1/item/assigneeID"
        ),
    ])
    func aFailingOperationFailsAnAtomicBatchAndNothingIsWritten(operation: String, status: Int, code: String, pointer: String) async throws {
        let kept = try await server.create("tickets", Self.ticket("Kept"))
        let start = try await token()
        let response = try await batch([Self.create("Alpha"), operation, #"{"op":"delete","id":"\#(kept)"}"#], atomic: true)
        #expect(response.status == status, "\(response.text)")
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.json?["code"] as? String == code)
        let pointers = (response.json?["errors"] as? [[String: Any]])?.compactMap { $0["pointer"] as? String } ?? []
        #expect(pointers.contains(pointer), "\(pointers)")
        #expect((response.json?["detail"] as? String)?.hasPrefix("Operation 1 ") == true)
        #expect(try await subjects() == ["Kept"])
        #expect(try await changes(since: start).isEmpty)
    }

    @Test func aStaleIfMatchFailsAnAtomicBatchWith412AndNothingIsWritten() async throws {
        let id = try await server.create("tickets", Self.ticket("Kept"))
        let stale = try #require(try await server.get("/v1/tickets/\(id)").header("ETag"))
        #expect(try await server.send("PATCH", "/v1/tickets/\(id)", json: #"{"priority":4}"#).status == 200)
        let start = try await token()
        let escaped = stale.replacingOccurrences(of: "\"", with: "\\\"")
        let response = try await batch(
            [Self.create("Alpha"), #"{"op":"delete","id":"\#(id)","ifMatch":"\#(escaped)"}"#, Self.create("Bravo")], atomic: true)
        #expect(response.status == 412, "\(response.text)")
        #expect(response.json?["code"] as? String == "PRECONDITION_FAILED")
        #expect((response.json?["errors"] as? [[String: Any]])?.first?["pointer"] as? String == "/operations/1")
        #expect(try await subjects() == ["Kept"])
        #expect(try await changes(since: start).isEmpty)
    }

    @Test func aBatchThatIsNotAtomicAnswersEachOperationWithItsOwnStatus() async throws {
        let stale = try await server.create("tickets", Self.ticket("Stale"))
        let gone = try await server.create("tickets", Self.ticket("Gone"))
        let tag = try #require(try await server.get("/v1/tickets/\(stale)").header("ETag")).replacingOccurrences(of: "\"", with: "\\\"")
        #expect(try await server.send("PATCH", "/v1/tickets/\(stale)", json: #"{"priority":4}"#).status == 200)
        let response = try await batch(
            [
                Self.create("Alpha"),
                #"{"op":"create","item":{"subject":"","opened":"2026-11-20"}}"#,
                #"{"op":"patch","id":"\#(stale)","ifMatch":"\#(tag)","patch":{"priority":1}}"#,
                #"{"op":"delete","id":"tkt_06h157w8pshwp0kz"}"#,
                #"{"op":"delete","id":"\#(gone)"}"#,
            ], atomic: false)
        #expect(response.status == 200, "\(response.text)")
        let results = try results(response)
        #expect(results.map { $0["status"] as? Int } == [201, 422, 412, 404, 204])
        let problems = results.map { ($0["problem"] as? [String: Any])?["code"] as? String }
        #expect(problems == [nil, "VALIDATION_FAILED", "PRECONDITION_FAILED", "NOT_FOUND", nil])
        // A refused operation's problem is its single route's: pointers relative to its item.
        let errors = (results[1]["problem"] as? [String: Any])?["errors"] as? [[String: Any]]
        #expect(errors?.first?["pointer"] as? String == "/subject")
        #expect(try await subjects() == ["Alpha", "Stale"])
    }

    @Test func aRetriedBatchReplaysTheFirstAnswerAndWritesOnce() async throws {
        let headers = [("Idempotency-Key", "batch-1")]
        let first = try await batch([Self.create("Alpha"), Self.create("Bravo")], atomic: true, headers: headers)
        #expect(first.status == 200)
        let start = try await token()
        let again = try await batch([Self.create("Alpha"), Self.create("Bravo")], atomic: true, headers: headers)
        #expect(again.status == 200)
        #expect(again.header("Idempotent-Replayed") == "true")
        #expect(again.body == first.body)
        #expect(try await subjects() == ["Alpha", "Bravo"])
        #expect(try await changes(since: start).isEmpty)
        let other = try await batch([Self.create("Charlie")], atomic: true, headers: headers)
        #expect(other.status == 422)
        #expect(other.json?["code"] as? String == "IDEMPOTENCY_KEY_REUSED")
        // A batch whose every operation was refused is forgotten, as a refused single write is.
        let refusedHeaders = [("Idempotency-Key", "batch-2")]
        let refused = try await batch([#"{"op":"create","item":{"subject":""}}"#], atomic: false, headers: refusedHeaders)
        #expect(try results(refused).map { $0["status"] as? Int } == [422])
        let fixed = try await batch([Self.create("Charlie")], atomic: false, headers: refusedHeaders)
        #expect(try results(fixed).map { $0["status"] as? Int } == [201])
        #expect(fixed.header("Idempotent-Replayed") == nil)
    }

    @Test func aBatchCommittedWithoutItsAnswerIsAnsweredFromItsItems() async throws {
        let kept = try await server.create("tickets", Self.ticket("Kept"))
        let gone = try await server.create("tickets", Self.ticket("Gone"))
        let body = #"{"atomic":true,"operations":[{"op":"patch","id":"\#(kept)","patch":{"priority":1}},{"op":"delete","id":"\#(gone)"}]}"#
        let principal = try #require(try server.keys.all().first?.id)
        let mark = IdempotencyMark(principal: principal, key: "lost-batch")
        let fingerprint = IdempotentWrites.fingerprint(HTTPServer.Request(method: .POST, target: "/v1/tickets/batch", body: Array(body.utf8)))
        let now = Int64(Date().timeIntervalSince1970)
        #expect(try server.store.idempotencyRecords.begin(mark, fingerprint: fingerprint, now: now) == .fresh)
        // The batch commits under the key (here: the delete only); the server stops before it stores the answer.
        let goneID = try #require(EntityID(parsing: gone))
        _ = try await server.store.applyTogether(
            [.delete(goneID, ifVersion: nil)], in: "tickets", by: principal, idempotency: mark, batch: "- \(gone)")
        let retried = try await server.send("POST", "/v1/tickets/batch", json: body, headers: [("Idempotency-Key", "lost-batch")])
        #expect(retried.status == 200, "\(retried.text)")
        #expect(retried.header("Idempotent-Replayed") == "true")
        let results = try results(retried)
        #expect(results.map { $0["status"] as? Int } == [200, 204])
        // Answered from the items as they are: the patch was not applied on the retry.
        #expect((results[0]["item"] as? [String: Any])?["priority"] as? Int == 2)
        #expect(try await server.get("/v1/tickets/\(gone)").status == 404)
    }

    /// `(body, status, code)`: each refused as a whole, nothing written.
    @Test(arguments: [
        (#"{"atomic":true,"operations":[]}"#, 400, "EMPTY_BATCH"),
        (#"{"operations":[\#(Array(repeating: create("X"), count: 101).joined(separator: ","))]}"#, 400, "TOO_MANY_OPERATIONS"),
        (#"{"operations":[\#(create("X")),{"op":"upsert","item":{}}]}"#, 400, "UNKNOWN_OPERATION"),
        (#"{"atomic":"yes","operations":[\#(create("X"))]}"#, 400, "INVALID_BATCH"),
        (#"{"atomic":true}"#, 400, "INVALID_BATCH"),
        (#"{"operations":[\#(create("X")),{"op":"delete"}]}"#, 400, "INVALID_BATCH"),
        (#"{"operations":[\#(create("X")),{"op":"create","item":{},"id":"x"}]}"#, 400, "INVALID_BATCH"),
        (#"[]"#, 400, "INVALID_BATCH"),
        (#"{"operations":[{"op":"delete","id":"a"},{"op":"delete","id":"a"}]}"#, 400, "DUPLICATE_ID"),
        (#"{"operations":["#, 400, "MALFORMED_JSON"),
    ])
    func badBatchesAreRefusedAsAWhole(body: String, status: Int, code: String) async throws {
        let response = try await server.send("POST", "/v1/tickets/batch", json: body)
        #expect(response.status == status, "\(response.text)")
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.json?["code"] as? String == code)
        #expect(response.json?["type"] as? String == "/problems/" + code.lowercased().replacingOccurrences(of: "_", with: "-"))
        #expect(try await subjects().isEmpty)
    }

    @Test func theBatchRouteTakesWhatSingleWritesTake() async throws {
        let body = Array(#"{"operations":[\#(Self.create("X"))]}"#.utf8)
        let wrongType = try await server.write("POST", "/v1/tickets/batch", headers: [("Content-Type", "text/plain")], body: body)
        #expect(wrongType.status == 415)
        #expect(wrongType.json?["code"] as? String == "UNSUPPORTED_MEDIA_TYPE")
        let get = try await server.get("/v1/tickets/batch")
        #expect(get.status == 405)
        #expect(get.header("Allow") == "POST, OPTIONS")
        let noKey = try await fetch(port: server.port, "POST", "/v1/tickets/batch", headers: [("Content-Type", "application/json")], body: body)
        #expect(noKey.status == 401)
        #expect(noKey.json?["code"] as? String == "KEY_REQUIRED")
        let reader = try server.keys.create(name: "reader", scopes: ["read"], at: 0).secret
        let readOnly = try await fetch(
            port: server.port, "POST", "/v1/tickets/batch", headers: [("Content-Type", "application/json"), ("Authorization", "Bearer " + reader)],
            body: body)
        #expect(readOnly.status == 403)
        #expect(readOnly.json?["code"] as? String == "KEY_SCOPE")
        let huge = #"{"operations":[\#(Self.create(String(repeating: "x", count: 1_100_000)))]}"#
        let tooLarge = try await server.send("POST", "/v1/tickets/batch", json: huge)
        #expect(tooLarge.status == 413)
        #expect(tooLarge.json?["code"] as? String == "PAYLOAD_TOO_LARGE")
        #expect(try await server.send("POST", "/v1/nothing/batch", json: String(decoding: body, as: UTF8.self)).status == 404)
        #expect(try await subjects().isEmpty)
    }

    @Test func theIndexLinksEachCollectionsBatch() async throws {
        let collections = try #require(try await server.get("/v1").json?["collections"] as? [[String: Any]])
        let links = collections.map { ($0["links"] as? [String: Any])?["batch"] as? String }
        #expect(links == ["/v1/agents/batch", "/v1/tickets/batch"])
    }

    @Test func aChildCollectionsBatchWritesUnderItsParentOnly() async throws {
        let ticket = try await server.create("tickets", Self.ticket("Parent"))
        let other = try await server.create("tickets", Self.ticket("Other"))
        let comment = #"{"op":"create","item":{"author":"Ana","body":"Seen.","posted":"2026-11-21T09:30:00Z"}}"#
        let created = try await batch([comment, comment], atomic: true, under: "/v1/tickets/\(ticket)/comments")
        #expect(created.status == 200, "\(created.text)")
        let ids = try results(created).compactMap { ($0["item"] as? [String: Any])?["id"] as? String }
        #expect(ids.count == 2)
        #expect(try results(created).first?["location"] as? String == "/v1/tickets/\(ticket)/comments/\(ids[0])")
        // A comment of this ticket named under another: that operation's 404, and nothing written.
        let elsewhere = try await batch(
            [comment, #"{"op":"delete","id":"\#(ids[0])"}"#], atomic: true, under: "/v1/tickets/\(other)/comments")
        #expect(elsewhere.status == 404, "\(elsewhere.text)")
        #expect((elsewhere.json?["errors"] as? [[String: Any]])?.first?["pointer"] as? String == "/operations/1")
        let otherComments = try await server.get("/v1/tickets/\(other)/comments")
        #expect((otherComments.json?["rows"] as? [Any])?.isEmpty == true)
        let deleted = try await batch([#"{"op":"delete","id":"\#(ids[0])"}"#], atomic: false, under: "/v1/tickets/\(ticket)/comments")
        #expect(try results(deleted).map { $0["status"] as? Int } == [204])
        let unknownParent = try await batch([comment], atomic: true, under: "/v1/tickets/tkt_06h157w8pshwp0kz/comments")
        #expect(unknownParent.status == 404)
        let rows = try await server.get("/v1/tickets/\(ticket)/comments")
        #expect((rows.json?["rows"] as? [[String: Any]])?.map { $0["id"] as? String } == [ids[1]])
    }
}
