import APIServer
import Definitions
import Foundation
import HTTPServer
import HTTPTestSupport
import Logging
import Prometheus
import Storage

/// The application on an ephemeral port over an empty SQLite file in a fresh temporary
/// folder (removed when the value goes away), with helpers for the item routes.
final class ItemsTestServer: KeyedTestServer, Sendable {
    let application: Application
    let opened: TestStore
    var store: any ItemStore { opened.store }
    var keys: KeyStore { opened.keys }
    /// A key with the write scope: every write needs one.
    let writeKey: String
    let directory: URL

    var port: Int { application.port }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rowserver-items-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        opened = try TestStore.open(
            catalog: try DefinitionLoader.demo(), options: .init(), file: directory.appendingPathComponent("items.sqlite").path,
            template: "demo false")
        writeKey = try opened.keys.create(name: "test", scopes: ["write"], at: 0).secret
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        application = try Application(
            configuration: configuration, dependencies: .init(registry: PrometheusCollectorRegistry(), logger: logger, store: opened.store))
    }

    deinit {
        application.shutdown(gracePeriod: 1)
        opened.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// One request with a JSON body (`application/json` unless `contentType` says otherwise).
    func send(
        _ method: String, _ target: String, json: String? = nil, contentType: String? = "application/json",
        headers: [(String, String)] = []
    ) async throws -> HTTPResponse {
        var all = headers
        if json != nil, let contentType { all.append(("Content-Type", contentType)) }
        if method != "GET" && method != "HEAD" { all.insert(authorization, at: 0) }
        return try await fetch(port: port, method, target, headers: all, body: Array((json ?? "").utf8))
    }

    /// Creates an item and returns its detail path (the `Location`), failing when it is not 201.
    func create(_ collection: String, _ json: String) async throws -> String {
        let response = try await send("POST", "/v1/\(collection)", json: json)
        guard response.status == 201, let location = response.header("Location") else {
            throw RawHTTPClient.Failure(description: "POST /v1/\(collection) answered \(response.status): \(response.text)")
        }
        return location
    }
}

extension HTTPResponse {
    /// The problem document's `code`.
    var problemCode: String? { json?["code"] as? String }

    /// The pointers of a 422's `errors`.
    var problemPointers: [String] {
        ((json?["errors"] as? [[String: Any]]) ?? []).compactMap { $0["pointer"] as? String }
    }
}
