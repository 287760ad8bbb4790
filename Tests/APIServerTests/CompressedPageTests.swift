import Foundation
import HTTPTestSupport
import ServerTestSupport
import Testing

@testable import HTTPServer

@Suite("Compressed pages (live store)")
struct CompressedPageTests {
    /// With the response cache (a kept page is compressed once, on its first gzip hit) and
    /// without it (every answer compressed anew): the same bytes either way.
    @Test(arguments: [2_048, 0])
    func aGzipPageIsThePageInFewerBytesAndTheSameBytesEachTime(cacheEntries: Int) async throws {
        let app = try LiveStoreApplication(responseCacheEntries: cacheEntries)
        let target = "/v1/products?limit=50"
        let plain = try await fetch(port: app.port, target)
        let first = try await fetch(port: app.port, target, headers: [("Accept-Encoding", "gzip")])
        let second = try await fetch(port: app.port, target, headers: [("Accept-Encoding", "gzip")])
        let again = try await fetch(port: app.port, target)
        #expect(plain.header("Content-Encoding") == nil)
        #expect(again.body == plain.body, "the identity body is untouched by a gzip answer of the same page")
        #expect(first.header("Content-Encoding") == "gzip")
        #expect(first.body == second.body)
        #expect(first.body.count * 3 < plain.body.count)
        #expect(Gunzip.decompress(first.body) == plain.body)
        let tag = try #require(plain.header("ETag"))
        #expect(first.header("ETag") == ResponseEncoding.gzipTag(tag))
        #expect(first.header("Content-Language") == plain.header("Content-Language"))
        #expect(first.headerValues("Vary").contains("Accept-Encoding") && first.headerValues("Vary").contains("Accept-Language"))
        let revalidated = try await fetch(
            port: app.port, target, headers: [("Accept-Encoding", "gzip"), ("If-None-Match", try #require(first.header("ETag")))])
        #expect(revalidated.status == 304)
        #expect(revalidated.header("ETag") == first.header("ETag"))
    }

    @Test func problemsAndSmallAnswersAreNotCompressed() async throws {
        let app = try LiveStoreApplication()
        let problem = try await fetch(port: app.port, "/v1/products?limit=nope", headers: [("Accept-Encoding", "gzip")])
        #expect(problem.status == 400)
        #expect(problem.header("Content-Encoding") == nil)
        let health = try await fetch(port: app.port, "/health", headers: [("Accept-Encoding", "gzip")])
        #expect(health.header("Content-Encoding") == nil)
    }

    @Test func theSpecAndTheExplorerAreSentCompressed() async throws {
        let app = try LiveStoreApplication()
        for target in ["/openapi.yaml", "/"] {
            let plain = try await fetch(port: app.port, target)
            let gzip = try await fetch(port: app.port, target, headers: [("Accept-Encoding", "gzip")])
            #expect(gzip.header("Content-Encoding") == "gzip", "\(target)")
            #expect(Gunzip.decompress(gzip.body) == plain.body, "\(target)")
        }
    }
}
