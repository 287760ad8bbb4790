import Domain
import Foundation
import HTTPServer
import HTTPTestSupport
import ServerTestSupport
import Storage
import Testing

@testable import APIServer

/// `Idempotency-Key` on writes over real sockets: replay, refusal of another request, keys
/// per API key, failed writes forgotten, a write recovered after a stop between its commit and
/// its stored answer, and bad keys.
@Suite("Idempotent writes")
struct IdempotencyRouteTests {
    static let lamp = #"{"name":"Quixlamp","shortDescription":"Bright","price":{"minorUnits":123456,"currency":"USD"}}"#
    static let json = [("Content-Type", "application/json")]

    static func count(_ server: LiveStoreApplication, _ name: String) async throws -> Int {
        let list = try await fetch(port: server.port, "/v1/products?q=\(name)")
        return (list.json?["rows"] as? [Any])?.count ?? -1
    }

    @Test func aRetriedCreateReplaysTheFirstAnswerAndWritesOnce() async throws {
        let server = try LiveStoreApplication()
        let headers = Self.json + [("Idempotency-Key", "create-1")]
        let first = try await server.write("POST", "/v1/products", headers: headers, body: Array(Self.lamp.utf8))
        #expect(first.status == 201)
        #expect(first.header("Idempotent-Replayed") == nil)
        let again = try await server.write("POST", "/v1/products", headers: headers, body: Array(Self.lamp.utf8))
        #expect(again.status == 201)
        #expect(again.header("Idempotent-Replayed") == "true")
        #expect(again.body == first.body)
        for name in ["Location", "ETag", "Content-Type", "Content-Language"] {
            #expect(again.header(name) == first.header(name), "\(name)")
        }
        #expect(again.header("X-Request-ID") != first.header("X-Request-ID"))
        #expect(try await Self.count(server, "quixlamp") == 1)
    }

    @Test func theSameKeyWithAnotherBodyOrPathIsRefusedAndWritesNothing() async throws {
        let server = try LiveStoreApplication()
        let headers = Self.json + [("Idempotency-Key", "k")]
        #expect(try await server.write("POST", "/v1/products", headers: headers, body: Array(Self.lamp.utf8)).status == 201)
        let other = Self.lamp.replacingOccurrences(of: "Quixlamp", with: "Quixchair")
        let refused = try await server.write("POST", "/v1/products", headers: headers, body: Array(other.utf8))
        #expect(refused.status == 422)
        #expect(refused.json?["code"] as? String == "IDEMPOTENCY_KEY_REUSED")
        #expect(refused.header("Content-Type") == "application/problem+json")
        let elsewhere = try await server.write(
            "POST", "/v1/departments", headers: headers, body: Array(#"{"name":"Quixdept"}"#.utf8))
        #expect(elsewhere.status == 422)
        #expect(try await Self.count(server, "quixchair") == 0)
    }

    @Test func keysBelongToTheAPIKeyThatSentThem() async throws {
        let server = try LiveStoreApplication()
        let other = try server.keys.create(name: "other", scopes: ["write"], at: 0).secret
        let body = Array(Self.lamp.utf8)
        let mine = try await server.write("POST", "/v1/products", headers: Self.json + [("Idempotency-Key", "shared")], body: body)
        let theirs = try await fetch(
            port: server.port, "POST", "/v1/products",
            headers: Self.json + [("Idempotency-Key", "shared"), ("Authorization", "Bearer " + other)], body: body)
        #expect(mine.status == 201)
        #expect(theirs.status == 201)
        #expect(theirs.header("Idempotent-Replayed") == nil)
        #expect(theirs.header("Location") != mine.header("Location"))
    }

    @Test func aRefusedWriteIsForgottenSoItsRetryRunsAgain() async throws {
        let server = try LiveStoreApplication()
        let headers = Self.json + [("Idempotency-Key", "fix-me")]
        let invalid = #"{"name":"Quixlamp","shortDescription":"Bright","price":{"minorUnits":0.5,"currency":"USD"}}"#
        #expect(try await server.write("POST", "/v1/products", headers: headers, body: Array(invalid.utf8)).status == 422)
        // The key was not used up: the corrected request (another body) runs under it.
        let fixed = try await server.write("POST", "/v1/products", headers: headers, body: Array(Self.lamp.utf8))
        #expect(fixed.status == 201)
        #expect(fixed.header("Idempotent-Replayed") == nil)
    }

    @Test func aRetriedPatchAndDeleteReplayInsteadOfFailing() async throws {
        let server = try LiveStoreApplication()
        let created = try await server.write("POST", "/v1/products", headers: Self.json, body: Array(Self.lamp.utf8))
        let location = try #require(created.header("Location"))
        let patch = [("Content-Type", "application/merge-patch+json"), ("Idempotency-Key", "p1")]
        let patched = try await server.write("PATCH", location, headers: patch, body: Array(#"{"name":"Quixlamp two"}"#.utf8))
        let replayed = try await server.write("PATCH", location, headers: patch, body: Array(#"{"name":"Quixlamp two"}"#.utf8))
        #expect(patched.status == 200)
        #expect(replayed.status == 200)
        #expect(replayed.body == patched.body)
        #expect(replayed.header("ETag") == patched.header("ETag"))
        #expect(replayed.header("Idempotent-Replayed") == "true")
        let deleted = try await server.write("DELETE", location, headers: [("Idempotency-Key", "d1")])
        let again = try await server.write("DELETE", location, headers: [("Idempotency-Key", "d1")])
        #expect(deleted.status == 204)
        #expect(again.status == 204)
        #expect(again.header("Idempotent-Replayed") == "true")
        // Without the key, the second delete is what it is: the item is gone.
        #expect(try await server.write("DELETE", location).status == 404)
    }

    @Test func concurrentRetriesWriteOnce() async throws {
        let server = try LiveStoreApplication()
        let headers = Self.json + [("Idempotency-Key", "race")]
        let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let answer = try await server.write("POST", "/v1/products", headers: headers, body: Array(Self.lamp.utf8))
                    return (answer.status, answer.json?["code"] as? String)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for (status, code) in statuses {
            #expect(status == 201 || (status == 409 && code == "IDEMPOTENCY_KEY_IN_USE"), "\(status) \(code ?? "")")
        }
        #expect(statuses.contains { $0.0 == 201 })
        #expect(try await Self.count(server, "quixlamp") == 1)
    }

    @Test func aWriteCommittedWithoutItsAnswerIsAnsweredFromTheItem() async throws {
        let server = try LiveStoreApplication()
        let created = try await server.write("POST", "/v1/products", headers: Self.json, body: Array(Self.lamp.utf8))
        let location = try #require(created.header("Location"))
        let id = try #require(EntityID(parsing: String(location.split(separator: "/").last ?? "")))
        let principal = try #require(try server.keys.all().first?.id)
        let body = Array(#"{"shortDescription":"Recovered"}"#.utf8)
        let mark = IdempotencyMark(principal: principal, key: "lost-answer")
        let fingerprint = IdempotentWrites.fingerprint(HTTPServer.Request(method: .PATCH, target: location, body: body))
        let now = Int64(Date().timeIntervalSince1970)
        #expect(try server.store.idempotencyRecords.begin(mark, fingerprint: fingerprint, now: now) == .fresh)
        // The write commits under the key; the server stops before it stores the answer.
        let current = try #require(try server.store.item("products", id: id))
        _ = try await server.store.update(current.item, in: "products", ifVersion: nil, by: principal, idempotency: mark)
        #expect(
            try server.store.idempotencyRecords.begin(mark, fingerprint: fingerprint, now: now)
                == .applied(collection: "products", itemID: id.rawValue, operation: "update"))

        let retried = try await server.write(
            "PATCH", location, headers: [("Content-Type", "application/merge-patch+json"), ("Idempotency-Key", "lost-answer")], body: body)
        #expect(retried.status == 200)
        #expect(retried.header("Idempotent-Replayed") == "true")
        #expect(retried.json?["name"] as? String == "Quixlamp")
        // Answered from the item as it is: the patch itself was not applied a second time.
        #expect(retried.json?["shortDescription"] as? String == "Bright")
        guard case .replay(let stored) = try server.store.idempotencyRecords.begin(mark, fingerprint: fingerprint, now: now) else {
            Issue.record("the recovered answer was not stored")
            return
        }
        #expect(stored.body == retried.body)
    }

    @Test(arguments: [
        ([("Idempotency-Key", "")], "INVALID_IDEMPOTENCY_KEY"),
        ([("Idempotency-Key", String(repeating: "k", count: 256))], "INVALID_IDEMPOTENCY_KEY"),
        ([("Idempotency-Key", "clé")], "INVALID_IDEMPOTENCY_KEY"),
        ([("Idempotency-Key", "two words")], "INVALID_IDEMPOTENCY_KEY"),
        ([("Idempotency-Key", "a"), ("Idempotency-Key", "b")], "DUPLICATE_HEADER"),
    ])
    func badKeysAre400AndWriteNothing(headers: [(String, String)], code: String) async throws {
        let server = try LiveStoreApplication()
        let answer = try await server.write("POST", "/v1/products", headers: Self.json + headers, body: Array(Self.lamp.utf8))
        #expect(answer.status == 400)
        #expect(answer.json?["code"] as? String == code)
        #expect(answer.json?["parameter"] as? String == "Idempotency-Key")
        #expect(try await Self.count(server, "quixlamp") == 0)
    }

    @Test func aKeyOf255VisibleCharactersIsAccepted() async throws {
        let server = try LiveStoreApplication()
        let key = String(repeating: "~", count: 255)
        let answer = try await server.write("POST", "/v1/products", headers: Self.json + [("Idempotency-Key", key)], body: Array(Self.lamp.utf8))
        #expect(answer.status == 201)
    }
}
