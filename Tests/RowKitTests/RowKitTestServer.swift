import APIServer
import Definitions
import DemoData
import Domain
import Foundation
import HTTPServer
import Logging
import Prometheus
import RowKit
import Storage

/// rowserver on an ephemeral port over a real SQLite file with the demo data, and a RowKit
/// client of it. The folder is removed when the value goes away.
final class RowKitTestServer: Sendable {
    let application: Application
    let store: CatalogStore
    let directory: URL
    let client: RowClient
    /// A key with the write scope, which both clients send.
    let key: String

    init(changeRetention: Int = 100_000) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rowkit-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try CatalogStore(
            path: directory.appendingPathComponent("test.sqlite").path, catalog: try DefinitionLoader.demo(),
            options: .init(seedItems: DemoData.standardItems, changeRetention: changeRetention))
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        var logger = Logger(label: "rowkit-test")
        logger.logLevel = .warning
        application = try Application(
            configuration: configuration, dependencies: .init(registry: PrometheusCollectorRegistry(), logger: logger, store: store))
        key = try KeyStore(path: store.path).create(name: "rowkit-test", scopes: ["write"], at: 0).secret
        client = RowClient(baseURL: URL(string: "http://127.0.0.1:\(application.port)")!, key: key)
    }

    /// Another app's client of the same server.
    func secondClient() -> RowClient {
        RowClient(baseURL: URL(string: "http://127.0.0.1:\(application.port)")!, key: key)
    }

    /// The ids of a collection's items in the store's default order, read from the store itself.
    func storeOrder(_ collection: String) throws -> [String] {
        guard let definition = store.catalog.collection(named: collection) else { throw StoreError.unavailable("no \(collection)") }
        var ids: [String] = []
        var after: [SortValue]?
        repeat {
            let page = try store.page(CatalogQuery(collection: definition, after: after, limit: 1_000))
            ids += page.items.map(\.item.id.rawValue)
            after = page.nextAfter
        } while after != nil
        return ids
    }

    deinit {
        application.shutdown(gracePeriod: 1)
        try? FileManager.default.removeItem(at: directory)
    }
}
