import APIServer
import Definitions
import DemoData
import Domain
import Foundation
import HTTPServer
import HTTPTestSupport
import Logging
import Prometheus
import Storage

/// The application serving a definition file on an ephemeral port over a real SQLite file in a
/// fresh temporary folder (removed when the value goes away).
final class CatalogTestServer: KeyedTestServer, Sendable {
    let application: Application
    let opened: TestStore
    var store: any ItemStore { opened.store }
    var keys: KeyStore { opened.keys }
    /// A key with the write scope: every write needs one.
    let writeKey: String
    let directory: URL

    var port: Int { application.port }

    init(definition path: String, seedDemoData: Bool = false) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rowserver-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let catalog = try DefinitionLoader.load(path: path)
        opened = try TestStore.open(
            catalog: catalog, options: .init(seedItems: seedDemoData ? DemoData.standardItems : nil),
            file: directory.appendingPathComponent("catalog.sqlite").path)
        writeKey = try opened.keys.create(name: "test", scopes: ["write"], at: 0).secret
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        application = try Application(
            configuration: configuration, dependencies: .init(registry: PrometheusCollectorRegistry(), logger: logger, store: opened.store))
    }

    /// The tickets example of the repository.
    static func tickets() throws -> CatalogTestServer {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../examples/tickets.yaml").standardized.path
        return try CatalogTestServer(definition: path)
    }

    deinit {
        application.shutdown(gracePeriod: 1)
        opened.close()
        try? FileManager.default.removeItem(at: directory)
    }

    func send(_ method: String, _ target: String, json: String? = nil, headers: [(String, String)] = []) async throws -> HTTPResponse {
        var all = headers
        if json != nil { all.append(("Content-Type", method == "PATCH" ? "application/merge-patch+json" : "application/json")) }
        if method != "GET" && method != "HEAD" { all.insert(authorization, at: 0) }
        return try await fetch(port: port, method, target, headers: all, body: Array((json ?? "").utf8))
    }

    func get(_ target: String, language: String? = nil) async throws -> HTTPResponse {
        try await send("GET", target, headers: language.map { [("Accept-Language", $0)] } ?? [])
    }

    /// Creates an item and returns its id, failing when it is not 201.
    func create(_ collection: String, _ json: String) async throws -> String {
        let response = try await send("POST", "/v1/\(collection)", json: json)
        guard response.status == 201, let id = response.json?["id"] as? String else {
            throw RawHTTPClient.Failure(description: "POST /v1/\(collection) answered \(response.status): \(response.text)")
        }
        return id
    }
}
