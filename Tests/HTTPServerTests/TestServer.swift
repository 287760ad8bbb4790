import Foundation
import HTTPServer
import Logging
import MetricsTestKit
import Synchronization

/// A live server on an ephemeral port with routes that expose what reached them.
final class TestServer: Sendable {
    let server: Server
    let metrics: TestMetrics
    /// Every request a handler saw, as "METHOD target".
    let seen = SeenRequests()

    var port: Int { server.port }

    init(accessLog: AccessLog? = nil, configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        configure(&configuration)
        let metrics = TestMetrics()
        self.metrics = metrics
        let seen = seen
        var router = Router()
        let record: @Sendable (Request) -> Void = { request in
            seen.list.withLock { $0.append("\(request.method.rawValue) \(request.target)") }
        }
        router.get("/hello") { request in
            record(request)
            return Response(status: 200, headers: HTTPHeaders([("Content-Type", "text/plain")]), body: Array("hello".utf8))
        }
        router.get("/items/:id") { request in
            record(request)
            return Response.json(Array("{\"id\":\"\(request.parameter("id") ?? "")\"}".utf8))
        }
        router.get("/items/special") { request in
            record(request)
            return Response.json(Array(#"{"special":true}"#.utf8))
        }
        router.add(
            .DELETE, "/items/:id",
            .sync { request in
                record(request)
                return .empty(status: 204)
            })
        router.add(
            .POST, "/echo",
            .sync { request in
                record(request)
                return Response(status: 200, body: request.body)
            })
        router.add(
            .POST, "/slow",
            .async { request in
                record(request)
                let millis = Int(request.query("ms") ?? "") ?? 200
                try await Task.sleep(for: .milliseconds(millis))
                return Response.json(Array(#"{"slow":true}"#.utf8))
            })
        router.get("/big") { request in
            record(request)
            if request.headers["If-None-Match"] == TestServer.bigTag {
                return Response(status: 304, headers: HTTPHeaders([("ETag", TestServer.bigTag)]))
            }
            var response = Response.json(TestServer.bigBody)
            response.headers.set("ETag", TestServer.bigTag)
            return response
        }
        router.get("/hidden") { request in
            record(request)
            return Response.json(Array("{}".utf8))
        }
        router.get("/boom") { request in
            record(request)
            struct Boom: Error {}
            throw Boom()
        }
        router.get("/layer/:status") { request in
            record(request)
            throw LayerError(status: Int(request.parameter("status") ?? "") ?? 500)
        }
        router.add(
            .POST, "/layer-async",
            .async { request in
                record(request)
                throw LayerError(status: 503)
            })
        router.get("/conflict") { request in
            record(request)
            throw HTTPError(status: 409, code: "CONFLICT", detail: "It conflicts.", parameter: "id")
        }
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        server = try Server(configuration: configuration, router: router, logger: logger, metricsFactory: metrics, accessLog: accessLog)
    }

    /// `/big`: a JSON body of 4 KiB that compresses well, under a fixed strong tag.
    static let bigBody = Array(("[" + (0..<64).map { #"{"id":"item-\#($0)","title":"A row of the big answer"}"# }.joined(separator: ",") + "]").utf8)
    static let bigTag = "\"big1\""

    func sawRequest(containing text: String) -> Bool {
        seen.list.withLock { $0.contains { $0.contains(text) } }
    }

    var handledCount: Int { seen.list.withLock { $0.count } }

    deinit { server.shutdown(gracePeriod: 1) }
}

/// Another layer's error that knows its answer (as the store's does), with a message for logs only.
struct LayerError: HTTPResponseError, CustomStringConvertible {
    var status: Int
    var httpError: HTTPError { HTTPError(status: status, code: "LAYER_\(status)", detail: "The layer says \(status).") }
    var description: String { "SELECT secret FROM layer" }
}

final class SeenRequests: Sendable {
    let list = Locked<[String]>([])
}
