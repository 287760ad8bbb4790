import Foundation
import HTTPTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Idempotency keys live in the database: a retry sent to the restarted binary gets the answer
/// the first process gave.
@Suite("Idempotent writes across a restart", .runsOnce("rowserver processes on SQLite files of their own"))
struct IdempotencyRestartTests {
    @Test func aRetryAfterARestartReplaysTheFirstAnswer() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idempotency-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("restart.sqlite").path
        let created = try KeysCommandTests.run(["keys", "create", "--db", db, "--name", "writer", "--scope", "write"])
        let secret = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(created.status == 0)
        let headers = [
            ("Authorization", "Bearer " + secret), ("Content-Type", "application/json"), ("Idempotency-Key", "9f1c0d2e-restart"),
        ]
        let body = Array(#"{"name":"Restartlamp","shortDescription":"Once","price":{"minorUnits":4200,"currency":"EUR"}}"#.utf8)

        let first = try ServerProcess(arguments: ["--db", db])
        let answer = try await fetch(port: first.port, "POST", "/v1/products", headers: headers, body: body)
        #expect(answer.status == 201)
        first.signal(SIGTERM)
        #expect(first.waitForExit() == 0)

        let second = try ServerProcess(arguments: ["--db", db])
        let retried = try await fetch(port: second.port, "POST", "/v1/products", headers: headers, body: body)
        #expect(retried.status == 201)
        #expect(retried.header("Idempotent-Replayed") == "true")
        #expect(retried.body == answer.body)
        #expect(retried.header("Location") == answer.header("Location"))
        let list = try await fetch(port: second.port, "/v1/products?q=restartlamp")
        #expect((list.json?["rows"] as? [Any])?.count == 1)
        // Another body under the same key is still refused by the new process.
        var other = body
        other[other.count - 3] = UInt8(ascii: "X")
        let refused = try await fetch(port: second.port, "POST", "/v1/products", headers: headers, body: other)
        #expect(refused.status == 422)
        #expect(refused.json?["code"] as? String == "IDEMPOTENCY_KEY_REUSED")
    }
}
