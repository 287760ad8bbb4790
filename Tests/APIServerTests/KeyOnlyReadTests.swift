import APIServer
import Foundation
import HTTPTestSupport
import Storage
import Testing

/// A collection that says `read: key`: its list, feed and details answer only a key with a read
/// scope for it, whatever a cache holds; its public neighbour answers anyone.
@Suite("Reads that need a key")
struct KeyOnlyReadTests {
    static let definition = """
        rowserver: 1
        collections:
          notes:
            idPrefix: not
            title: {en: Notes}
            read: key
            fields:
              text: {type: text, required: true, maxLength: 100, label: {en: Text}}
            row: {title: text}
          memos:
            idPrefix: mem
            title: {en: Memos}
            fields:
              text: {type: text, required: true, maxLength: 100, label: {en: Text}}
            row: {title: text}
        """

    @Test func aKeyOnlyCollectionAnswersOnlyAKeyWithAReadScopeForIt() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("key-only-\(UUID().uuidString).yaml")
        try Self.definition.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let server = try CatalogTestServer(definition: file.path)
        let note = try await server.create("notes", #"{"text":"Secret plans"}"#)
        _ = try await server.create("memos", #"{"text":"Lunch at noon"}"#)
        let keys = try server.keys
        let reader = "Bearer " + (try keys.create(name: "reader", scopes: ["read:notes"], at: 0).secret)
        let writer = "Bearer " + (try keys.create(name: "writer", scopes: ["write"], at: 0).secret)
        let other = "Bearer " + (try keys.create(name: "other", scopes: ["read:memos"], at: 0).secret)

        for target in ["/v1/notes", "/v1/notes/changes", "/v1/notes/\(note)", "/v1/notes?view=rows"] {
            // Read with a key first: a kept page must not answer the requests without one.
            #expect(try await fetch(port: server.port, target, headers: [("Authorization", reader)]).status == 200, "\(target)")
            #expect(try await fetch(port: server.port, target, headers: [("Authorization", writer)]).status == 200, "\(target)")
            let anonymous = try await fetch(port: server.port, target)
            #expect(anonymous.status == 401, "\(target)")
            #expect(anonymous.json?["code"] as? String == "KEY_REQUIRED")
            #expect(!anonymous.text.contains("Secret plans"))
            let outside = try await fetch(port: server.port, target, headers: [("Authorization", other)])
            #expect(outside.status == 403, "\(target)")
            #expect(outside.json?["code"] as? String == "KEY_SCOPE")
        }
        #expect(try await fetch(port: server.port, "/v1/memos").status == 200)
        // The index still names the collection: that it exists is not a secret, its items are.
        #expect(try await fetch(port: server.port, "/v1").text.contains("\"notes\""))
    }
}

/// The secret's format, the scopes and the bearer header, as tables.
@Suite("API key secrets and scopes")
struct APIKeyFormatTests {
    @Test func aNewSecretParsesToItsIDAndHashesToItsDigest() {
        let (id, secret) = APIKeySecret.generate()
        #expect(APIKeySecret.keyID(of: secret) == id)
        #expect(secret.utf8.count == 4 + 12 + 1 + 52)
        #expect(APIKeySecret.hash(secret) != APIKeySecret.hash(APIKeySecret.generate().secret))
        #expect(APIKeySecret.generate().secret != secret)
    }

    static let valid = "rsk_0123456789ab_" + String(repeating: "z", count: 52)

    @Test(arguments: [
        "", "rsk_", "rsk_0123456789ab", "rsk_0123456789ab_" + String(repeating: "z", count: 51), valid + "z",
        "RSK_0123456789ab_" + String(repeating: "z", count: 52), "rsk_0123456789aB_" + String(repeating: "z", count: 52),
        "rsk_0123456789ab-" + String(repeating: "z", count: 52), "rsk_0123456789ab_" + String(repeating: "u", count: 52),
        "rsk_0123456789ab_" + String(repeating: "é", count: 26), "rsk_0123456789ab_" + String(repeating: "z", count: 51) + "\n",
    ])
    func aMalformedSecretHasNoID(secret: String) {
        #expect(APIKeySecret.keyID(of: secret) == nil)
    }

    @Test func aWellFormedSecretNamesItsID() {
        #expect(APIKeySecret.keyID(of: Self.valid) == "0123456789ab")
    }

    @Test(arguments: [
        (["write"], APIKeyScope.Access.write, "products", true), (["write"], .read, "products", true),
        (["read"], .read, "products", true), (["read"], .write, "products", false),
        (["write:products"], .write, "products", true), (["write:products"], .read, "products", true),
        (["write:products"], .write, "people", false), (["read:people"], .read, "products", false),
        (["read:products", "write:people"], .write, "people", true), ([], .read, "products", false),
        (["write:product"], .write, "products", false), (["writes"], .write, "products", false),
    ])
    func scopesAllowWhatTheySay(scopes: [String], access: APIKeyScope.Access, collection: String, allowed: Bool) {
        #expect(APIKeyScope.allows(scopes, access, collection: collection) == allowed)
    }
}
