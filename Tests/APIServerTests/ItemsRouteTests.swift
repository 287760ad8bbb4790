import Foundation
import HTTPTestSupport
import Storage
import Testing

@Suite("Item routes over HTTP with SQLite: create, read, patch, delete, conditions, locales")
struct ItemsRouteTests {
    static let lamp = #"{"name":"Lamp","shortDescription":"Bright","price":{"minorUnits":123456,"currency":"USD"}}"#

    @Test func createReadPatchReadKeepsTheIDAndShowsTheNewValues() async throws {
        let server = try ItemsTestServer()
        let created = try await server.send("POST", "/v1/products", json: Self.lamp)
        #expect(created.status == 201)
        let location = try #require(created.header("Location"))
        let createdJSON = try #require(created.json)
        let id = try #require(createdJSON["id"] as? String)
        #expect(location == "/v1/products/\(id)")
        #expect(id.hasPrefix("prd_"))
        #expect(created.header("ETag")?.hasPrefix("\"v") == true)
        #expect(created.header("Content-Type") == "application/json")

        let read = try await fetch(port: server.port, location)
        #expect(read.status == 200)
        #expect(read.body == created.body)
        #expect(read.header("ETag") == created.header("ETag"))
        #expect(read.header("Cache-Control") == "no-cache")

        let patched = try await server.send(
            "PATCH", location, json: #"{"name":"Desk lamp","longDescription":"Adjustable","price":{"minorUnits":500}}"#,
            contentType: "application/merge-patch+json")
        #expect(patched.status == 200)
        #expect(patched.header("ETag") != created.header("ETag"))

        let reread = try await fetch(port: server.port, location)
        let json = try #require(reread.json)
        #expect(json["id"] as? String == id)
        #expect(json["name"] as? String == "Desk lamp")
        #expect(json["shortDescription"] as? String == "Bright")
        #expect(json["longDescription"] as? String == "Adjustable")
        let price = try #require(json["price"] as? [String: Any])
        #expect(price["minorUnits"] as? Int == 500)
        #expect(price["currency"] as? String == "USD")
        #expect(price["formatted"] as? String == "$5.00")
        let links = try #require(json["links"] as? [String: Any])
        #expect(links["self"] as? String == location)
        #expect(links["collection"] as? String == "/v1/products")
        #expect(reread.header("ETag") == patched.header("ETag"))
        #expect(reread.body == patched.body)
    }

    @Test func patchAcceptsPlainJSONWithACharset() async throws {
        let server = try ItemsTestServer()
        let location = try await server.create("products", Self.lamp)
        let patched = try await server.send("PATCH", location, json: #"{"name":"Torch"}"#, contentType: "Application/JSON; Charset=\"UTF-8\"")
        #expect(patched.status == 200)
        #expect(patched.json?["name"] as? String == "Torch")
    }

    @Test func aPatchThatChangesNothingWritesNothing() async throws {
        let server = try ItemsTestServer()
        let location = try await server.create("products", Self.lamp)
        let before = try server.store.latestSequence()
        let tag = try await fetch(port: server.port, location).header("ETag")
        let patched = try await server.send("PATCH", location, json: #"{"name":"Lamp"}"#)
        #expect(patched.status == 200)
        #expect(patched.header("ETag") == tag)
        #expect(try server.store.latestSequence() == before)
    }

    @Test func deletedItemsAre404() async throws {
        let server = try ItemsTestServer()
        let location = try await server.create("articles", #"{"headline":"News","markdown":"**Big** news"}"#)
        let deleted = try await server.write("DELETE", location)
        #expect(deleted.status == 204)
        #expect(deleted.body.isEmpty)
        let read = try await fetch(port: server.port, location)
        #expect(read.status == 404)
        #expect(read.problemCode == "NOT_FOUND")
        #expect(try await server.write("DELETE", location).status == 404)
        #expect(try await server.send("PATCH", location, json: #"{"headline":"Old"}"#).status == 404)
    }

    @Test func staleIfMatchIs412AndChangesNothing() async throws {
        let server = try ItemsTestServer()
        let location = try await server.create("documents", #"{"title":"Memo","body":"First"}"#)
        let stale = try #require(try await fetch(port: server.port, location).header("ETag"))
        let second = try await server.send("PATCH", location, json: #"{"body":"Second"}"#, headers: [("If-Match", stale)])
        #expect(second.status == 200)
        let current = try #require(second.header("ETag"))
        let sequence = try server.store.latestSequence()

        let refused = try await server.send("PATCH", location, json: #"{"body":"Third"}"#, headers: [("If-Match", stale)])
        #expect(refused.status == 412)
        #expect(refused.problemCode == "PRECONDITION_FAILED")
        let refusedDelete = try await server.write("DELETE", location, headers: [("If-Match", stale)])
        #expect(refusedDelete.status == 412)
        let foreign = try await server.send("PATCH", location, json: #"{"body":"Third"}"#, headers: [("If-Match", "W/\"x\"")])
        #expect(foreign.status == 412)
        #expect(try server.store.latestSequence() == sequence)
        let read = try await fetch(port: server.port, location)
        #expect(read.json?["body"] as? String == "Second")
        #expect(read.header("ETag") == current)

        // The current version matches in any locale, and among several tags; `*` means "exists".
        let otherLocale = current.replacingOccurrences(of: "en-US", with: "de-DE")
        let accepted = try await server.send(
            "PATCH", location, json: #"{"body":"Third"}"#, headers: [("If-Match", "\(stale), \(otherLocale)")])
        #expect(accepted.status == 200)
        let star = try await server.write("DELETE", location, headers: [("If-Match", "*")])
        #expect(star.status == 204)
        let gone = try await server.write("DELETE", location, headers: [("If-Match", "*")])
        #expect(gone.status == 404)
    }

    @Test func ifNoneMatchWithTheCurrentTagIs304WithoutABody() async throws {
        let server = try ItemsTestServer()
        let location = try await server.create("departments", #"{"name":"Sales"}"#)
        let tag = try #require(try await fetch(port: server.port, location).header("ETag"))
        for header in [tag, "W/\(tag)", "\"v0.en-US\", \(tag)", "*"] {
            let response = try await fetch(port: server.port, location, headers: [("If-None-Match", header)])
            #expect(response.status == 304)
            #expect(response.body.isEmpty)
            #expect(response.header("ETag") == tag)
            #expect(response.header("Cache-Control") == "no-cache")
        }
        let changed = try await fetch(port: server.port, location, headers: [("If-None-Match", "\"v0.en-US\"")])
        #expect(changed.status == 200)
    }

    @Test func headOnADetailHasTheHeadersAndNoBody() async throws {
        let server = try ItemsTestServer()
        let location = try await server.create("departments", #"{"name":"Sales"}"#)
        let get = try await fetch(port: server.port, location)
        let head = try await fetch(port: server.port, "HEAD", location)
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("ETag") == get.header("ETag"))
        #expect(head.header("Content-Length") == String(get.body.count))
    }

    @Test(arguments: [
        "/v1/nope/prd_0000000000000001", "/v1/products/per_0000000000000001", "/v1/products/garbage",
        "/v1/products/PRD_0000000000000001", "/v1/products/prd_0000000000000001", "/v1/samples/smp_0000000000000001",
        "/v1/tracks/trk_0000000000000001/samples/smp_0000000000000001",
    ])
    func unknownCollectionsAndIDsAre404(_ target: String) async throws {
        let server = try ItemsTestServer()
        let response = try await fetch(port: server.port, target)
        #expect(response.status == 404)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.problemCode == "NOT_FOUND")
    }

    @Test func acceptLanguageChangesFormattedValuesAndContentLanguage() async throws {
        let server = try ItemsTestServer()
        let location = try await server.create("products", Self.lamp)
        let english = try await fetch(port: server.port, location)
        let german = try await fetch(port: server.port, location, headers: [("Accept-Language", "de-DE,de;q=0.9")])
        #expect((english.json?["price"] as? [String: Any])?["formatted"] as? String == "$1,234.56")
        #expect(english.header("Content-Language") == "en-US")
        let germanPrice = try #require((german.json?["price"] as? [String: Any])?["formatted"] as? String)
        #expect(germanPrice.hasPrefix("1.234,56"))
        #expect(german.header("Content-Language") == "de-DE")
        #expect(german.header("Vary")?.contains("Accept-Language") == true)
        let englishTag = try #require(english.header("ETag"))
        #expect(german.header("ETag") == englishTag.replacingOccurrences(of: "en-US", with: "de-DE"))
    }
}
