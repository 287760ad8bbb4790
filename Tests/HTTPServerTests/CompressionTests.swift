import Foundation
import HTTPTestSupport
import Testing

@testable import HTTPServer

@Suite("Content codings (pure)")
struct ContentCodingTests {
    static let cases: [(String?, ContentCoding)] = [
        (nil, .identity), ("", .identity), ("gzip", .gzip), ("GZip", .gzip), ("x-gzip", .gzip), ("deflate, br", .identity),
        ("*", .gzip), ("*;q=0", .identity), ("gzip;q=0", .identity), ("gzip;q=0, *", .identity), ("identity;q=0", .identity),
        ("identity;q=0, gzip", .gzip), ("gzip;q=0.5, identity", .identity), ("gzip;q=0.5, identity;q=0.5", .gzip),
        ("gzip;q=abc", .identity), ("gzip;q=1.5", .identity), ("gzip;q=1.0001", .identity), (" gzip ; q=0.8 ", .gzip),
        ("br;q=1, gzip;q=0.1", .gzip), ("gzip;q=0.001", .gzip), ("gzip;level=9", .gzip), (",,gzip,,", .gzip), (";q=1", .identity),
        ("gzip;q=", .identity), ("identity, *;q=0", .identity),
        ("GZIP;Q=0.5, IDENTITY;q=0.4", .gzip), ("gzip;q=.5", .gzip), ("gzip;q=0..5", .identity), ("gzip; q = 0.5 , identity;q=0.6", .identity),
        ("gzip, deflate, br, zstd", .gzip), ("gzip;q=0.5;q=0", .identity), ("\tx-gzip\t", .gzip), ("gzipx", .identity), ("*;q=0.2", .gzip),
    ]

    @Test(arguments: cases)
    func theCodingFollowsTheClientsWeights(header: String?, expected: ContentCoding) {
        #expect(ContentCoding.preferred(acceptEncoding: header) == expected)
    }

    static let tags: [(String, String)] = [(#""abc""#, #""abc-gzip""#), (#"W/"abc""#, #"W/"abc-gzip""#), ("abc", "abc"), (#"""#, #"""#)]

    @Test(arguments: tags)
    func gzipTagsMarkTheirEncodingInsideTheQuotes(tag: String, gzip: String) {
        #expect(ResponseEncoding.gzipTag(tag) == gzip)
    }

    static let conditionals: [(String, String, Bool)] = [
        (#""abc-gzip""#, #""abc""#, true), (#""a-gzip", "b""#, #""a", "b""#, true), (#""abc""#, #""abc""#, false), ("*", "*", false),
        (#""a--gzip""#, #""a-""#, true), (#""a-gzi""#, #""a-gzi""#, false), ("-gzip", "-gzip", false), (#"W/"a-gzip""#, #"W/"a""#, true),
        (#""a-gzip-x""#, #""a-gzip-x""#, false), (#""a-g-gzip""#, #""a-g""#, true),
        // Past 15 bytes a string lives on the heap: the same scan over its stored bytes.
        (#""l8d096154af2928e460504e6e-gzip""#, #""l8d096154af2928e460504e6e""#, true),
        (#""l8d096154af2928e460504e6e-gzi""#, #""l8d096154af2928e460504e6e-gzi""#, false),
    ]

    @Test(arguments: conditionals)
    func conditionalsNamingAGzipTagReachHandlersAsTheirOwnTag(sent: String, seen: String, namedGzip: Bool) {
        var headers = HTTPHeaders([("If-None-Match", sent), ("If-Match", sent)])
        #expect(ResponseEncoding.normalizeConditionals(&headers) == namedGzip)
        #expect(headers["If-None-Match"] == seen)
        #expect(headers["If-Match"] == seen)
    }
}

@Suite("gzip (pure)")
struct GzipTests {
    static let sizes = [0, 1, 1_023, 7_568, 200_000]

    @Test(arguments: sizes)
    func decompressingGivesBackTheBytes(size: Int) throws {
        var generator = SystemRandomNumberGenerator()
        // Half text that repeats, half noise: both paths of deflate.
        let bytes = (0..<size).map { index in index % 2 == 0 ? UInt8(ascii: "a") + UInt8(index % 7) : UInt8.random(in: 0...255, using: &generator) }
        let compressed = try #require(Gzip.compress(bytes))
        #expect(compressed.prefix(2) == [0x1F, 0x8B], "a gzip member")
        #expect(Gunzip.decompress(compressed) == bytes)
    }

    @Test func theSameBytesAlwaysCompressTheSame() throws {
        let first = try #require(Gzip.compress(TestServer.bigBody))
        let second = try #require(Gzip.compress(TestServer.bigBody))
        #expect(first == second, "one strong tag per encoding needs the same bytes each time")
        #expect(first.count * 3 < TestServer.bigBody.count)
    }

    @Test func damagedOrOversizedInputIsRefused() throws {
        let compressed = try #require(Gzip.compress(TestServer.bigBody))
        #expect(Gunzip.decompress(Array(compressed.dropLast(4))) == nil)
        #expect(Gunzip.decompress(Array("not gzip".utf8)) == nil)
        #expect(Gunzip.decompress(compressed, limit: 100) == nil)
        #expect(Gunzip.decompress(compressed + [0]) == nil)
    }
}

@Suite("Compressed responses (live server)")
struct CompressionTests {
    @Test func aGzipBodyDecompressesToTheIdentityBodyUnderItsOwnTag() async throws {
        let server = try TestServer()
        let plain = try await fetch(port: server.port, "/big")
        let gzip = try await fetch(port: server.port, "/big", headers: [("Accept-Encoding", "gzip, deflate, br")])
        #expect(plain.body == TestServer.bigBody)
        #expect(plain.header("Content-Encoding") == nil)
        #expect(plain.header("ETag") == TestServer.bigTag)
        #expect(plain.headerValues("Vary").contains("Accept-Encoding"))
        #expect(gzip.header("Content-Encoding") == "gzip")
        #expect(gzip.header("ETag") == #""big1-gzip""#)
        #expect(gzip.headerValues("Vary").contains("Accept-Encoding"))
        #expect(gzip.header("Content-Length") == String(gzip.body.count))
        #expect(gzip.body.count < plain.body.count / 3)
        #expect(Gunzip.decompress(gzip.body) == plain.body)
    }

    @Test func smallBodiesAndCodingsTheServerLacksStayIdentity() async throws {
        let server = try TestServer()
        let small = try await fetch(port: server.port, "/hello", headers: [("Accept-Encoding", "gzip")])
        #expect(small.body == Array("hello".utf8))
        #expect(small.header("Content-Encoding") == nil)
        // Never compressed, so it does not vary with Accept-Encoding.
        #expect(!small.headerValues("Vary").contains("Accept-Encoding"))
        for header in ["br", "gzip;q=0", "identity;q=0", "gzip;q=nonsense"] {
            let response = try await fetch(port: server.port, "/big", headers: [("Accept-Encoding", header)])
            #expect(response.header("Content-Encoding") == nil, "\(header)")
            #expect(response.body == TestServer.bigBody, "\(header)")
        }
    }

    @Test func revalidationAnswers304InTheEncodingOfTheTagItNamed() async throws {
        let server = try TestServer()
        let gzip = try await fetch(port: server.port, "/big", headers: [("If-None-Match", #""big1-gzip""#), ("Accept-Encoding", "gzip")])
        #expect(gzip.status == 304)
        #expect(gzip.header("ETag") == #""big1-gzip""#)
        #expect(gzip.headerValues("Vary").contains("Accept-Encoding"))
        let plain = try await fetch(port: server.port, "/big", headers: [("If-None-Match", TestServer.bigTag), ("Accept-Encoding", "gzip")])
        #expect(plain.status == 304)
        #expect(plain.header("ETag") == TestServer.bigTag)
        // A gzip tag from a client that no longer accepts gzip still names the same state.
        let dropped = try await fetch(port: server.port, "/big", headers: [("If-None-Match", #""big1-gzip""#)])
        #expect(dropped.status == 304)
        #expect(dropped.header("ETag") == TestServer.bigTag)
        let stale = try await fetch(port: server.port, "/big", headers: [("If-None-Match", #""big0-gzip""#), ("Accept-Encoding", "gzip")])
        #expect(stale.status == 200)
        #expect(stale.header("ETag") == #""big1-gzip""#)
    }

    @Test func headAnnouncesTheLengthOfTheGzipBody() async throws {
        let server = try TestServer()
        let get = try await fetch(port: server.port, "/big", headers: [("Accept-Encoding", "gzip")])
        let head = try await onThread {
            let client = try RawHTTPClient(port: server.port)
            try client.send("HEAD /big HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
            return try client.readResponse(isHEAD: true)
        }
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Encoding") == "gzip")
        #expect(head.header("Content-Length") == String(get.body.count))
        #expect(head.header("ETag") == get.header("ETag"))
    }
}

@Suite("Compressible types (pure)")
struct CompressibleTypeTests {
    static let types: [(String, Bool)] = [
        ("application/json", true), ("Application/JSON; charset=utf-8", true), ("application/problem+json", true),
        ("text/html; charset=utf-8", true), ("TEXT/CSS", true), ("image/svg+xml", true), ("application/yaml; charset=utf-8", true),
        ("application/octet-stream", false), ("image/png", false), ("text", false), ("", false),
        // Only letters fold: 0x0F | 0x20 is "/", which a bitwise fold would have matched.
        ("application\u{0F}json", false),
    ]

    @Test(arguments: types)
    func typesAreMatchedByPrefixIgnoringCase(type: String, compressible: Bool) {
        #expect(ResponseEncoding.isCompressible(type) == compressible)
    }
}
