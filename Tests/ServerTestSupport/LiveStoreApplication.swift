import APIServer
import Definitions
import DemoData
import Domain
import Foundation
import HTTPServer
import Storage

/// The application on an ephemeral port over a store of its own: a real SQLite file in a fresh
/// temporary folder, or a new PostgreSQL database when the suites run for PostgreSQL
/// (`TestStore`). Its database holds a key with the write scope. The folder is removed, and the
/// store closed, when the value goes away.
public final class LiveStoreApplication: KeyedTestServer, Sendable {
    public let live: LiveApplication
    public let opened: TestStore
    public var store: any ItemStore { opened.store }
    public var keys: KeyStore { opened.keys }
    /// A key with the write scope: every write needs one.
    public let writeKey: String
    public let directory: URL

    public var application: Application { live.application }
    public var port: Int { live.port }

    /// A store of `catalog` in `file` of the folder; `template` as `TestStore.open` takes it.
    public init(
        catalog: Catalog, options: CatalogStore.Options = .init(), file: String = "test.sqlite", template: String? = nil,
        responseCacheEntries: Int = 2_048, accessLog: AccessLog? = nil, rateLimiter: RateLimiter? = nil,
        streams: StreamSettings = StreamSettings(), configure: (inout ServerConfiguration) -> Void = { _ in }
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rowserver-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        opened = try TestStore.open(catalog: catalog, options: options, file: directory.appendingPathComponent(file).path, template: template)
        writeKey = try opened.keys.create(name: "test", scopes: ["write"], at: 0).secret
        live = try LiveApplication(
            store: opened.store, responseCacheEntries: responseCacheEntries, accessLog: accessLog, rateLimiter: rateLimiter, streams: streams,
            configure: configure)
    }

    /// The demo definition, filled with the demo data unless `seedDemoData` is false.
    public convenience init(
        seedDemoData: Bool = true, changeRetention: Int = 100_000, responseCacheEntries: Int = 2_048, accessLog: AccessLog? = nil,
        rateLimiter: RateLimiter? = nil, trustedProxies: TrustedProxies = TrustedProxies()
    ) throws {
        try self.init(
            catalog: try DefinitionLoader.demo(),
            options: .init(seedItems: seedDemoData ? DemoData.standardItems : nil, changeRetention: changeRetention),
            template: "demo \(seedDemoData) \(changeRetention)", responseCacheEntries: responseCacheEntries, accessLog: accessLog,
            rateLimiter: rateLimiter, configure: { $0.trustedProxies = trustedProxies })
    }

    deinit {
        // Before the store closes and its folder goes: no request may still be reading it.
        application.shutdown(gracePeriod: 1)
        opened.close()
        try? FileManager.default.removeItem(at: directory)
    }
}
