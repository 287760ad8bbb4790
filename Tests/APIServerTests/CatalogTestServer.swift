import APIServer
import Definitions
import DemoData
import Foundation
import HTTPTestSupport
import ServerTestSupport
import Storage

/// The application serving a definition file on an ephemeral port over a store of its own
/// (`LiveStoreApplication`), with helpers for its routes.
final class CatalogTestServer: KeyedTestServer, Sendable {
    let live: LiveStoreApplication
    var opened: TestStore { live.opened }
    var store: any ItemStore { live.store }
    var keys: KeyStore { live.keys }
    /// A key with the write scope: every write needs one.
    var writeKey: String { live.writeKey }
    var port: Int { live.port }

    init(definition path: String, seedDemoData: Bool = false, changeRetention: Int = 100_000, streams: StreamSettings = StreamSettings()) throws {
        live = try LiveStoreApplication(
            catalog: try DefinitionLoader.load(path: path),
            options: .init(seedItems: seedDemoData ? DemoData.standardItems : nil, changeRetention: changeRetention), streams: streams)
    }

    /// The tickets example of the repository.
    static func tickets(changeRetention: Int = 100_000, streams: StreamSettings = StreamSettings()) throws -> CatalogTestServer {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../examples/tickets.yaml").standardized.path
        return try CatalogTestServer(definition: path, changeRetention: changeRetention, streams: streams)
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
