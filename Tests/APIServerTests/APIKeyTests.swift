import APIServer
import Foundation
import HTTPServer
import HTTPTestSupport
import ServerTestSupport
import Storage
import Testing

/// Who may write and read, over real sockets: every write route refuses a missing, wrong,
/// revoked or out-of-scope key and writes nothing; a collection that says `read: key` is read
/// only with a read scope; the key's id (never its secret) reaches the access log and the
/// change log.
@Suite("API keys: who may write and read")
struct APIKeyTests {
    enum Holder: String, CaseIterable, Sendable {
        case none, malformed, unknown, wrongSecret, revoked, readOnly, otherCollection
    }

    /// Status and code of a write by each holder.
    static let refusals: [Holder: (Int, String)] = [
        .none: (401, "KEY_REQUIRED"), .malformed: (401, "INVALID_KEY"), .unknown: (401, "INVALID_KEY"), .wrongSecret: (401, "INVALID_KEY"),
        .revoked: (401, "INVALID_KEY"), .readOnly: (403, "KEY_SCOPE"), .otherCollection: (403, "KEY_SCOPE"),
    ]

    static let writeRoutes = [
        ("POST", "/v1/products"), ("PATCH", "/v1/products/{product}"), ("DELETE", "/v1/products/{product}"),
    ]

    @Test(arguments: Holder.allCases)
    func everyWriteRouteRefusesAKeyThatDoesNotAllowItAndWritesNothing(holder: Holder) async throws {
        let app = try LiveStoreApplication()
        let keys = try app.keys
        let authorization = try Self.authorization(holder, keys)
        let targets = try await Self.targets(app)
        let sequence = try app.store.latestSequence()
        for (method, template) in Self.writeRoutes {
            let target = Self.fill(template, targets)
            var headers = [("Content-Type", method == "PATCH" ? "application/merge-patch+json" : "application/json")]
            if let authorization { headers.append(("Authorization", authorization)) }
            let response = try await fetch(port: app.port, method, target, headers: headers, body: Array(#"{"name":"Nope"}"#.utf8))
            let (status, code) = try #require(Self.refusals[holder])
            #expect(response.status == status, "\(holder) \(method) \(target)")
            #expect(response.json?["code"] as? String == code, "\(holder) \(method) \(target)")
            let challenge = try #require(response.header("WWW-Authenticate"), "\(holder) \(method) \(target)")
            #expect(challenge.hasPrefix(#"Bearer realm="rowserver""#))
            if status == 403 { #expect(challenge.contains(#"error="insufficient_scope""#)) }
            if code == "INVALID_KEY" { #expect(challenge.contains(#"error="invalid_token""#)) }
        }
        #expect(try app.store.latestSequence() == sequence, "\(holder): a refused write wrote")
    }

    @Test func aScopedKeyWritesItsCollectionAndAWriteScopeAlsoReads() async throws {
        let app = try LiveStoreApplication()
        let keys = try app.keys
        let products = try keys.create(name: "products", scopes: ["write:products"], at: 0).secret
        let body = Array(#"{"name":"Scoped lamp","price":{"minorUnits":100,"currency":"USD"}}"#.utf8)
        let created = try await fetch(
            port: app.port, "POST", "/v1/products", headers: [("Authorization", "bearer \(products)"), ("Content-Type", "application/json")],
            body: body)
        #expect(created.status == 201, "the scheme is case-insensitive")
        #expect(try await fetch(port: app.port, "/v1/products?limit=1", headers: [("Authorization", "Bearer \(products)")]).status == 200)
        #expect(APIKeyScope.allows(["write:products"], .read, collection: "products"))
        #expect(!APIKeyScope.allows(["read"], .write, collection: "products"))
    }

    @Test func aBadKeyIs401OnReadsTooAndAKeyInTheQueryIsRefused() async throws {
        let app = try LiveStoreApplication()
        let forged = "Bearer rsk_" + String(repeating: "0", count: 12) + "_" + String(repeating: "1", count: 52)
        for target in ["/v1/products", "/v1", "/health"] {
            let response = try await fetch(port: app.port, target, headers: [("Authorization", forged)])
            #expect(response.status == 401, "\(target)")
            #expect(response.json?["code"] as? String == "INVALID_KEY")
        }
        for name in ["key", "access_token", "API_KEY", "token"] {
            let response = try await fetch(port: app.port, "/v1/products?\(name)=\(app.writeKey)")
            #expect(response.status == 400)
            #expect(response.json?["code"] as? String == "KEY_IN_QUERY")
            #expect(!response.text.contains(app.writeKey))
        }
        let twice = try await fetch(port: app.port, "/v1/products", headers: [app.authorization, app.authorization])
        #expect(twice.status == 400)
        #expect(twice.json?["code"] as? String == "DUPLICATE_HEADER")
    }

    @Test func theKeysIDReachesTheAccessLogAndTheChangeLogButNeverItsSecret() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("keys-access-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let app = try LiveStoreApplication(accessLog: try AccessLog(destination: .file(path)))
        let id = try #require(APIKeySecret.keyID(of: app.writeKey))
        let before = try app.store.latestSequence()
        let created = try await app.write(
            "POST", "/v1/products", headers: [("Content-Type", "application/json")],
            body: Array(#"{"name":"Logged lamp","price":{"minorUnits":100,"currency":"USD"}}"#.utf8))
        #expect(created.status == 201)
        _ = try await fetch(port: app.port, "/v1/products?access_token=\(app.writeKey)")
        _ = try await fetch(port: app.port, "/v1/products", headers: [("Authorization", "Bearer \(app.writeKey)x")])
        app.application.shutdown(gracePeriod: 1)
        let log = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        #expect(log.contains(#""key":"\#(id)""#))
        #expect(log.contains("access_token=REDACTED"))
        #expect(!log.contains(app.writeKey.dropFirst(4 + 12 + 1)), "a secret in the access log")
        let changes = try app.store.changes("products", after: before, limit: 10).changes
        #expect(changes.map(\.author) == [id])
    }

    /// `Authorization` for a holder; nil for none.
    static func authorization(_ holder: Holder, _ keys: KeyStore) throws -> String? {
        switch holder {
        case .none: return nil
        case .malformed: return "Bearer rsk_short"
        case .unknown: return "Bearer " + APIKeySecret.generate().secret
        case .wrongSecret:
            let secret = try keys.create(name: "w", scopes: ["write"], at: 0).secret
            return "Bearer " + secret.dropLast() + (secret.hasSuffix("0") ? "1" : "0")
        case .revoked:
            let created = try keys.create(name: "r", scopes: ["write"], at: 0)
            _ = try keys.revoke(id: created.key.id, at: 1)
            return "Bearer " + created.secret
        case .readOnly: return "Bearer " + (try keys.create(name: "ro", scopes: ["read"], at: 0).secret)
        case .otherCollection: return "Bearer " + (try keys.create(name: "people", scopes: ["write:people"], at: 0).secret)
        }
    }

    /// A product to change and delete (a child's writes: `TicketsExampleTests`; the demo's
    /// samples are not writable on their own).
    static func targets(_ app: LiveStoreApplication) async throws -> [String: String] {
        let row = try #require((try await fetch(port: app.port, "/v1/products?limit=1").json?["rows"] as? [[String: Any]])?.first)
        return ["product": try #require(row["id"] as? String)]
    }

    static func fill(_ template: String, _ values: [String: String]) -> String {
        values.reduce(template) { $0.replacingOccurrences(of: "{\($1.key)}", with: $1.value) }
    }
}
