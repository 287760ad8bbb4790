import Foundation
import HTTPTestSupport
import ServerTestSupport
import Testing

@Suite("The explorer: GET / and its assets")
struct ExplorerRouteTests {
    static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
        + "base-uri 'none'; frame-ancestors 'none'; form-action 'none'"

    static let explorerFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Explorer")

    @Test(arguments: [
        ("/", "index.html", "text/html; charset=utf-8"),
        ("/explorer/app.js", "app.js", "text/javascript; charset=utf-8"),
        ("/explorer/app.css", "app.css", "text/css; charset=utf-8"),
        ("/explorer/listview.js", "listview.js", "text/javascript; charset=utf-8"),
        ("/client/rowserver.js", "rowserver.js", "text/javascript; charset=utf-8"),
        ("/client/rowserver.d.ts", "rowserver.d.ts", "application/typescript; charset=utf-8"),
    ])
    func assetIsServedAsBuiltWithItsHeaders(route: String, file: String, contentType: String) async throws {
        let app = try LiveApplication()
        let response = try await fetch(port: app.port, route)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == contentType)
        #expect(response.header("Content-Security-Policy") == Self.policy)
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.header("Cache-Control") == "no-cache")
        #expect(response.header("ETag")?.hasPrefix("\"x") == true)
        let onDisk = try Data(contentsOf: Self.explorerFolder.appendingPathComponent(file))
        #expect(response.body == Array(onDisk), "the embedded file must be the file, byte for byte")
    }

    @Test func everyFileOfTheFolderIsEmbedded() async throws {
        let app = try LiveApplication()
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.explorerFolder.path).filter { !$0.hasPrefix(".") }
        #expect(names.contains("index.html"))
        for name in names where name != "index.html" {
            let response = try await fetch(port: app.port, (name.hasPrefix("rowserver.") ? "/client/" : "/explorer/") + name)
            #expect(response.status == 200, "\(name)")
        }
    }

    @Test func matchingEntityTagIs304() async throws {
        let app = try LiveApplication()
        let first = try await fetch(port: app.port, "/explorer/app.js")
        let tag = try #require(first.header("ETag"))
        let again = try await fetch(port: app.port, "/explorer/app.js", headers: [("If-None-Match", tag)])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(again.header("ETag") == tag)
        let other = try await fetch(port: app.port, "/", headers: [("If-None-Match", tag)])
        #expect(other.status == 200, "each file has its own tag")
    }

    @Test func pageAnswersHEADAndUnknownAssetsAre404() async throws {
        let app = try LiveApplication()
        let head = try await fetch(port: app.port, "HEAD", "/")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        let missing = try await fetch(port: app.port, "/explorer/missing.js")
        #expect(missing.status == 404)
        #expect(missing.header("Content-Type")?.hasPrefix("application/problem+json") == true)
    }
}
