import APIServer
import Definitions
import DemoData
import Foundation
import HTTPServer
import Logging
import Prometheus
import Storage

/// The application on an ephemeral port over a real SQLite file in a fresh temporary folder,
/// filled with the demo data. The folder is removed when the value goes away.
final class LiveStoreApplication: KeyedTestServer, Sendable {
    let application: Application
    let opened: TestStore
    var store: any ItemStore { opened.store }
    var keys: KeyStore { opened.keys }
    /// A key with the write scope: every write needs one.
    let writeKey: String
    let directory: URL

    var port: Int { application.port }

    init(
        seedDemoData: Bool = true, changeRetention: Int = 100_000, responseCacheEntries: Int = 2_048, accessLog: AccessLog? = nil,
        rateLimiter: RateLimiter? = nil, trustedProxies: TrustedProxies = TrustedProxies()
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rowserver-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        opened = try TestStore.open(
            catalog: try DefinitionLoader.demo(),
            options: .init(seedItems: seedDemoData ? DemoData.standardItems : nil, changeRetention: changeRetention),
            file: directory.appendingPathComponent("test.sqlite").path, template: "demo \(seedDemoData) \(changeRetention)")
        writeKey = try opened.keys.create(name: "test", scopes: ["write"], at: 0).secret
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        configuration.trustedProxies = trustedProxies
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        application = try Application(
            configuration: configuration,
            dependencies: .init(
                registry: PrometheusCollectorRegistry(), logger: logger, store: opened.store, responseCacheEntries: responseCacheEntries,
                accessLog: accessLog, rateLimiter: rateLimiter))
    }

    deinit {
        application.shutdown(gracePeriod: 1)
        opened.close()
        try? FileManager.default.removeItem(at: directory)
    }
}
