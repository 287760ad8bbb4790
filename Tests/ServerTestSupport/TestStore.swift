import Domain
import Foundation
import HTTPTestSupport
import Storage

/// The store a test server runs on: a SQLite file, or — when the suites run for PostgreSQL
/// (`ROWSERVER_TEST_STORE=postgres`, with the server `ROWSERVER_TEST_POSTGRES` names, as
/// `scripts/test.sh` runs them a second time) — a new database of that server. The same suites
/// hold both stores to the same answers.
public struct TestStore: Sendable {
    public let store: any ItemStore
    public let keys: KeyStore
    public let close: @Sendable () -> Void
    /// A second store on the same database, as another process would open it.
    public let another: @Sendable () throws -> TestStore

    /// The PostgreSQL server these suites run against; nil: SQLite.
    public static let postgresURL: String? = {
        let environment = ProcessInfo.processInfo.environment
        guard environment["ROWSERVER_TEST_STORE"] == "postgres", let url = environment["ROWSERVER_TEST_POSTGRES"], !url.isEmpty else { return nil }
        return url
    }()

    /// The PostgreSQL server, for tests that start rowserver processes on it or compare both
    /// stores (whichever store the in-process suites run on).
    public static let postgresURLForProcesses: String? = ProcessInfo.processInfo.environment["ROWSERVER_TEST_POSTGRES"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// Opens a store of `catalog`: SQLite at `file`, or a new PostgreSQL database. `template`
    /// names what the new database starts as, for stores made alike many times (the demo
    /// definition, seeded or not): the first one is made and kept as a template, and the others
    /// are copies of it (`CREATE DATABASE … TEMPLATE`), not seeded again.
    public static func open(catalog: Catalog, options: CatalogStore.Options, file: String, template: String? = nil) throws -> TestStore {
        guard let url = postgresURL else {
            return try sqlite(catalog: catalog, options: options, file: file)
        }
        let database: String
        if let template {
            database = try templates.copy(template, url: url) { templateURL in
                try PostgresStore(url: templateURL, catalog: catalog, options: options, connections: 2).close()
            }
        } else {
            database = try newDatabase(url)
        }
        return try postgres(catalog: catalog, options: options, database: database)
    }

    private static func sqlite(catalog: Catalog, options: CatalogStore.Options, file: String) throws -> TestStore {
        let store = try CatalogStore(path: file, catalog: catalog, options: options)
        return TestStore(
            store: store, keys: store.keys, close: { try? store.close() }, another: { try sqlite(catalog: catalog, options: options, file: file) })
    }

    private static func postgres(catalog: Catalog, options: CatalogStore.Options, database: String) throws -> TestStore {
        let store = try PostgresStore(url: database, catalog: catalog, options: options, connections: 4)
        return TestStore(
            store: store, keys: store.keys, close: { store.close() },
            another: { try postgres(catalog: catalog, options: options, database: database) })
    }

    private static let templates = Templates()

    /// The template databases made so far, by name; one is made once, whoever asks first.
    final class Templates: @unchecked Sendable {
        private let lock = NSLock()
        private var made: [String: String] = [:]

        func copy(_ key: String, url: String, make: (String) throws -> Void) throws -> String {
            let name = try lock.withLock { () throws -> String in
                if let name = made[key] { return name }
                let name = "template_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
                try TestStore.psql(url, "CREATE DATABASE \(name)")
                try make(TestStore.url(url, database: name))
                made[key] = name
                return name
            }
            let copy = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            // A template must have no sessions while it is copied: the made store's listener may
            // still be closing its connection.
            for attempt in 0..<50 {
                do {
                    try TestStore.psql(url, "CREATE DATABASE \(copy) TEMPLATE \(name)")
                    break
                } catch  where attempt < 49 {
                    Thread.sleep(forTimeInterval: 0.1)
                }
            }
            return try TestStore.url(url, database: copy)
        }
    }

    /// A new database on the server at `url`; its URL.
    public static func newDatabase(_ url: String) throws -> String {
        let name = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try psql(url, "CREATE DATABASE \(name)")
        return try self.url(url, database: name)
    }

    public static func psql(_ url: String, _ sql: String) throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", url, "-qAtc", sql]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw StoreError.unavailable("psql failed: \(sql)") }
    }

    public static func url(_ url: String, database: String) throws -> String {
        guard var components = URLComponents(string: url) else { throw StoreError.unavailable("not a URL: \(url)") }
        components.path = "/" + database
        return components.string ?? url
    }
}
