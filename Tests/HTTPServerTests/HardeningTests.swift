import Foundation
import HTTPTestSupport
import Testing

@Suite("Hardening: limits, framing, paths")
struct HardeningTests {
    @Test func bodyWithinLimitReachesHandler() async throws {
        let server = try TestServer { $0.maxBodySize = 1_000 }
        let response = try await fetch(port: server.port, "POST", "/echo", body: Array(repeating: 65, count: 1_000))
        #expect(response.status == 200)
        #expect(response.body.count == 1_000)
    }

    @Test func declaredLengthOverLimitIs413BeforeTheBody() async throws {
        let server = try TestServer { $0.maxBodySize = 1_000 }
        let response = try await exchange(port: server.port, raw: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1001\r\n\r\n")
        try expectProblem(response, status: 413, code: "PAYLOAD_TOO_LARGE")
        #expect(response.header("Connection") == "close")
        #expect(!server.sawRequest(containing: "/echo"))
    }

    @Test func expectContinueOverLimitIs413Without100() async throws {
        let server = try TestServer { $0.maxBodySize = 1_000 }
        let raw = try await onThread { () -> String in
            let client = try RawHTTPClient(port: server.port)
            try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n")
            return String(decoding: try client.readToEnd(), as: UTF8.self)
        }
        #expect(raw.hasPrefix("HTTP/1.1 413"))
        #expect(!raw.contains("100 Continue"))
    }

    @Test func expectContinueWithinLimitGets100ThenAnswer() async throws {
        let server = try TestServer { $0.maxBodySize = 1_000 }
        let response = try await onThread { () -> HTTPResponse in
            let client = try RawHTTPClient(port: server.port)
            try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n")
            try client.send("abc")
            return try client.readResponse()
        }
        #expect(response.status == 200)
        #expect(response.text == "abc")
    }

    @Test func chunkedBodyPastLimitIs413() async throws {
        let server = try TestServer { $0.maxBodySize = 1_000 }
        let response = try await onThread { () -> HTTPResponse in
            let client = try RawHTTPClient(port: server.port)
            try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = "200\r\n" + String(repeating: "x", count: 0x200) + "\r\n"
            for _ in 0..<4 { try client.send(chunk) }
            try client.send("0\r\n\r\n")
            return try client.readResponse()
        }
        try expectProblem(response, status: 413, code: "PAYLOAD_TOO_LARGE")
        #expect(!server.sawRequest(containing: "/echo"))
    }

    @Test func endlessChunkedBodyLosesItsConnection() async throws {
        let server = try TestServer { $0.maxBodySize = 1_000 }
        let closed = try await onThread { () -> Bool in
            let client = try RawHTTPClient(port: server.port, timeout: 3 * RawHTTPClient.slowdown)
            try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = "1000\r\n" + String(repeating: "x", count: 0x1000) + "\r\n"
            for _ in 0..<64 {
                do { try client.send(chunk) } catch { return true }
            }
            return client.waitForClose()
        }
        #expect(closed)
        #expect(!server.sawRequest(containing: "/echo"))
    }

    @Test func chunkedBodyWithinLimitIsReassembled() async throws {
        let server = try TestServer()
        let response = try await exchange(
            port: server.port, raw: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
        #expect(response.status == 200)
        #expect(response.text == "abcde")
    }

    @Test func oversizeURIIs414() async throws {
        let server = try TestServer()
        let response = try await exchange(port: server.port, raw: "GET /hello?\(String(repeating: "a", count: 40_000)) HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(response.status == 414)
        #expect(server.handledCount == 0)
    }

    @Test func oversizeHeadersAre431() async throws {
        let server = try TestServer()
        var raw = "GET /hello HTTP/1.1\r\nHost: x\r\n"
        for i in 0..<40 { raw += "X-Filler-\(i): \(String(repeating: "b", count: 1_000))\r\n" }
        raw += "\r\n"
        let response = try await exchange(port: server.port, raw: raw)
        #expect(response.status == 431)
        #expect(server.handledCount == 0)
    }

    /// Each vector hides a second request after the first one's headers.
    static let smugglingVectors: [(String, String)] = [
        (
            "content-length and transfer-encoding",
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /hidden HTTP/1.1\r\nHost: x\r\n\r\n"
        ),
        (
            "differing content-lengths",
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 36\r\n\r\nGET /hidden HTTP/1.1\r\nHost: x\r\n\r\n"
        ),
        (
            "transfer-encoding gzip, chunked",
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\nGET /hidden HTTP/1.1\r\nHost: x\r\n\r\n"
        ),
        (
            "transfer-encoding on HTTP/1.0",
            "POST /echo HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /hidden HTTP/1.1\r\nHost: x\r\n\r\n"
        ),
        (
            "two transfer-encoding headers",
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n0\r\n\r\nGET /hidden HTTP/1.1\r\nHost: x\r\n\r\n"
        ),
    ]

    /// Vectors libmicrohttpd rejects itself, before any callback: its own 400 (HTML body, and in
    /// 0.9.75 the status line is sent twice), then the connection closes.
    static let libraryRejectedVectors: [(String, String)] = [
        ("non-numeric content-length", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: +4\r\n\r\nGET /hidden HTTP/1.1\r\nHost: x\r\n\r\n"),
        ("negative content-length", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\nGET /hidden HTTP/1.1\r\nHost: x\r\n\r\n"),
    ]

    @Test(arguments: libraryRejectedVectors)
    func libraryRejectedVectorIs400AndCloses(name: String, raw: String) async throws {
        let server = try TestServer()
        let rest = try await onThread { () -> String in
            let client = try RawHTTPClient(port: server.port, timeout: 3 * RawHTTPClient.slowdown)
            try client.send(raw)
            return String(decoding: try client.readToEnd(), as: UTF8.self)
        }
        #expect(rest.hasPrefix("HTTP/1.1 400"), "\(name)")
        #expect(!rest.contains("HTTP/1.1 200"), "\(name)")
        #expect(server.handledCount == 0, "\(name)")
    }

    @Test(arguments: smugglingVectors)
    func smugglingVectorIs400AndHiddenRequestNeverRuns(name: String, raw: String) async throws {
        let server = try TestServer()
        let (response, rest) = try await onThread { () -> (HTTPResponse, String) in
            let client = try RawHTTPClient(port: server.port, timeout: 3 * RawHTTPClient.slowdown)
            try client.send(raw)
            let response = try client.readResponse()
            return (response, String(decoding: (try? client.readToEnd()) ?? [], as: UTF8.self))
        }
        #expect(response.status == 400, "\(name)")
        #expect(response.header("Connection") == "close", "\(name)")
        #expect(response.json?["code"] as? String == "BAD_REQUEST_FRAMING", "\(name)")
        #expect(rest.isEmpty, "\(name): a second response came back: \(rest)")
        #expect(!server.sawRequest(containing: "/hidden"), "\(name)")
        #expect(!server.sawRequest(containing: "/echo"), "\(name)")
    }

    @Test func encodedSlashStaysInsideItsSegment() async throws {
        let server = try TestServer()
        let response = try await fetch(port: server.port, "/items/a%2Fb")
        #expect(response.status == 200)
        #expect(response.json?["id"] as? String == "a/b")
        let joined = try await fetch(port: server.port, "/items%2Fspecial")
        #expect(joined.status == 404)
    }

    static let badPaths: [String] = [
        "/items/a%00b", "/items/%00", "/items/%ff", "/items/%c0%ae", "/items/%2e%2e", "/items/..", "/items/.", "/items/%2E",
        "/items/%zz", "/items/%4", "/hello/../items/x", "/items/a%0Ab",
    ]

    @Test(arguments: badPaths)
    func maliciousPathIs400(path: String) async throws {
        let server = try TestServer()
        let response = try await exchange(port: server.port, raw: "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
        try expectProblem(response, status: 400, code: "INVALID_PATH")
        #expect(server.handledCount == 0)
    }

    @Test(arguments: ["GET /hello HTTP/1.1\r\n\r\n", "GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"])
    func missingOrDuplicateHostIs400(raw: String) async throws {
        let server = try TestServer()
        let response = try await exchange(port: server.port, raw: raw)
        try expectProblem(response, status: 400, code: "INVALID_HOST")
        #expect(server.handledCount == 0)
    }

    @Test func http10WithoutHostIsFine() async throws {
        let server = try TestServer()
        let response = try await exchange(port: server.port, raw: "GET /hello HTTP/1.0\r\n\r\n")
        #expect(response.status == 200)
    }

    @Test func spaceInsideTheTargetIs400() async throws {
        let server = try TestServer()
        let response = try await exchange(port: server.port, raw: "GET /items/a b HTTP/1.1\r\nHost: x\r\n\r\n")
        try expectProblem(response, status: 400, code: "INVALID_PATH")
        #expect(server.handledCount == 0)
    }

    static let badQueries: [String] = ["/hello?a=%00", "/hello?a=%ff", "/hello?%zz=1", "/hello?a=%e2%82"]

    @Test(arguments: badQueries)
    func malformedQueryIs400(target: String) async throws {
        let server = try TestServer()
        let response = try await exchange(port: server.port, raw: "GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
        try expectProblem(response, status: 400, code: "INVALID_QUERY")
        #expect(server.handledCount == 0)
    }
}
