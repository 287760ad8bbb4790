import Foundation
import HTTPTestSupport
import Testing

@Suite("Routing over real sockets")
struct RoutingTests {
    @Test func knownRouteAnswers200() async throws {
        let server = try TestServer()
        let response = try await fetch(port: server.port, "/hello")
        #expect(response.status == 200)
        #expect(response.text == "hello")
    }

    @Test func unknownPathIs404ProblemJSON() async throws {
        let server = try TestServer()
        let response = try await fetch(port: server.port, "/nope")
        #expect(response.status == 404)
        try expectProblem(response, status: 404, code: "NOT_FOUND")
    }

    @Test func knownPathWithOtherMethodIs405WithAllow() async throws {
        let server = try TestServer()
        let response = try await fetch(port: server.port, "PUT", "/items/abc")
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD, DELETE, OPTIONS")
        try expectProblem(response, status: 405, code: "METHOD_NOT_ALLOWED")
    }

    @Test func literalSegmentWinsOverParameter() async throws {
        let server = try TestServer()
        let literal = try await fetch(port: server.port, "/items/special")
        #expect(literal.json?["special"] as? Bool == true)
        let parameter = try await fetch(port: server.port, "/items/ordinary")
        #expect(parameter.json?["id"] as? String == "ordinary")
        // The literal route has GET only: DELETE on it is 405, not a fall-through to :id.
        let delete = try await fetch(port: server.port, "DELETE", "/items/special")
        #expect(delete.status == 405)
    }

    @Test func headIsServedByGetWithoutBody() async throws {
        let server = try TestServer()
        let head = try await fetch(port: server.port, "HEAD", "/hello")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == "5")
        #expect(head.header("Content-Type") == "text/plain")
    }

    @Test func optionsAnswers204WithAllow() async throws {
        let server = try TestServer()
        let response = try await fetch(port: server.port, "OPTIONS", "/items/x")
        #expect(response.status == 204)
        #expect(response.header("Allow") == "GET, HEAD, DELETE, OPTIONS")
        let unknown = try await fetch(port: server.port, "OPTIONS", "/nowhere")
        #expect(unknown.status == 404)
    }

    @Test func corsPreflightFromAllowedOrigin() async throws {
        let server = try TestServer { $0.allowedOrigins = ["https://app.example"] }
        let preflight = try await fetch(
            port: server.port, "OPTIONS", "/items/x",
            headers: [("Origin", "https://app.example"), ("Access-Control-Request-Method", "DELETE")])
        #expect(preflight.status == 204)
        #expect(preflight.header("Access-Control-Allow-Origin") == "https://app.example")
        #expect(preflight.header("Access-Control-Allow-Methods") == "GET, HEAD, DELETE, OPTIONS")
        #expect(preflight.header("Access-Control-Allow-Headers")?.contains("If-None-Match") == true)
        #expect(preflight.header("Access-Control-Allow-Headers")?.contains("Idempotency-Key") == true)
        let actual = try await fetch(port: server.port, "/hello", headers: [("Origin", "https://app.example")])
        #expect(actual.header("Access-Control-Allow-Origin") == "https://app.example")
        #expect(
            actual.header("Access-Control-Expose-Headers")
                == "ETag, Link, Location, X-Request-ID, Content-Language, Retry-After, RateLimit, RateLimit-Policy, Idempotent-Replayed")
        #expect(actual.headerValues("Vary").contains("Origin"))
    }

    @Test func aKeyCrossesOriginsOnlyToAnOriginListedByName() async throws {
        let server = try TestServer { $0.allowedOrigins = ["https://app.example", "*"] }
        let request = [("Access-Control-Request-Method", "DELETE"), ("Access-Control-Request-Headers", "authorization")]
        let listed = try await fetch(port: server.port, "OPTIONS", "/items/x", headers: [("Origin", "https://app.example")] + request)
        #expect(listed.header("Access-Control-Allow-Headers")?.contains("Authorization") == true)
        let any = try await fetch(port: server.port, "OPTIONS", "/items/x", headers: [("Origin", "https://other.example")] + request)
        #expect(any.header("Access-Control-Allow-Origin") == "*")
        #expect(any.header("Access-Control-Allow-Headers")?.contains("Authorization") == false)
    }

    @Test func corsIgnoresOtherOrigins() async throws {
        let server = try TestServer { $0.allowedOrigins = ["https://app.example"] }
        let preflight = try await fetch(
            port: server.port, "OPTIONS", "/items/x",
            headers: [("Origin", "https://evil.example"), ("Access-Control-Request-Method", "DELETE")])
        #expect(preflight.header("Access-Control-Allow-Origin") == nil)
        let actual = try await fetch(port: server.port, "/hello", headers: [("Origin", "https://evil.example")])
        #expect(actual.header("Access-Control-Allow-Origin") == nil)
    }

    /// Unknown methods are the client's mistake: a 4xx (never a 5xx), the connection closed.
    @Test(arguments: ["BREW", "get", "PROPFIND", "G%45T"])
    func unknownMethodIs405WithAllowOr404(method: String) async throws {
        let server = try TestServer()
        let routed = try await exchange(port: server.port, raw: "\(method) /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        try expectProblem(routed, status: 405, code: "METHOD_NOT_ALLOWED")
        #expect(routed.header("Allow") == "GET, HEAD, OPTIONS")
        #expect(routed.header("Connection") == "close")
        let unrouted = try await exchange(port: server.port, raw: "\(method) /nowhere HTTP/1.1\r\nHost: x\r\n\r\n")
        try expectProblem(unrouted, status: 404, code: "NOT_FOUND")
        #expect(!server.sawRequest(containing: "/hello"))
    }

    @Test func knownButUnroutedMethodIs405NotA5xx() async throws {
        let server = try TestServer()
        for method in ["QUERY", "TRACE", "CONNECT"] {
            let response = try await exchange(port: server.port, raw: "\(method) /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            try expectProblem(response, status: 405, code: "METHOD_NOT_ALLOWED")
            #expect(response.header("Allow") == "GET, HEAD, OPTIONS")
        }
    }

    @Test func handlerHTTPErrorKeepsItsStatusAndParameter() async throws {
        let server = try TestServer()
        let response = try await fetch(port: server.port, "/conflict")
        try expectProblem(response, status: 409, code: "CONFLICT")
        #expect(response.json?["parameter"] as? String == "id")
    }

    @Test func unexpectedHandlerErrorIs500WithoutDetailsLeaking() async throws {
        let server = try TestServer()
        let response = try await fetch(port: server.port, "/boom")
        try expectProblem(response, status: 500, code: "INTERNAL_ERROR")
        #expect(!response.text.contains("Boom"))
    }

    @Test(arguments: [("/layer/404", "GET", 404), ("/layer/503", "GET", 503), ("/layer/500", "GET", 500), ("/layer-async", "POST", 503)])
    func anotherLayersErrorIsAnsweredWithItsOwnStatusAndNeverItsMessage(target: String, method: String, status: Int) async throws {
        let server = try TestServer()
        let response = try await fetch(port: server.port, method, target)
        try expectProblem(response, status: status, code: "LAYER_\(status)")
        #expect(response.json?["detail"] as? String == "The layer says \(status).")
        #expect(!response.text.contains("SELECT"))
    }

    @Test func requestIDIsEchoedOrGenerated() async throws {
        let server = try TestServer()
        let given = try await fetch(port: server.port, "/hello", headers: [("X-Request-ID", "abc-123")])
        #expect(given.header("X-Request-ID") == "abc-123")
        let generated = try await fetch(port: server.port, "/hello")
        let id = try #require(generated.header("X-Request-ID"))
        #expect(id.count >= 10)
        let other = try await fetch(port: server.port, "/nope")
        #expect(other.header("X-Request-ID") != id)
        let unsafe = try await fetch(port: server.port, "/hello", headers: [("X-Request-ID", "has space\"quote")])
        #expect(unsafe.header("X-Request-ID") != "has space\"quote")
    }

    @Test func keepAliveServesManyRequestsOnOneConnection() async throws {
        let server = try TestServer()
        let statuses = try await onThread { () -> [Int] in
            let client = try RawHTTPClient(port: server.port)
            return try (0..<20).map { i in try client.request("GET", i % 2 == 0 ? "/hello" : "/nope").status }
        }
        #expect(statuses == (0..<20).map { $0 % 2 == 0 ? 200 : 404 })
    }
}

/// Checks the RFC 9457 shape every error must have.
func expectProblem(_ response: HTTPResponse, status: Int, code: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(response.status == status, sourceLocation: sourceLocation)
    #expect(response.header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
    let json = try #require(response.json, "body is not a JSON object: \(response.text)", sourceLocation: sourceLocation)
    #expect(json["status"] as? Int == status, sourceLocation: sourceLocation)
    #expect(json["code"] as? String == code, sourceLocation: sourceLocation)
    #expect((json["type"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
    #expect((json["title"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
    #expect((json["detail"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
}
