import Foundation
import Testing

@testable import Storage

/// The PostgreSQL server the connection suites run against: `ROWSERVER_TEST_POSTGRES`, a libpq URI
/// (`eval "$(scripts/postgres.sh start)"` starts one and sets it).
enum PostgresTestServer {
    static let url = ProcessInfo.processInfo.environment["ROWSERVER_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }

    static let missingReason: Comment = "needs a PostgreSQL server: eval \"$(scripts/postgres.sh start)\" sets ROWSERVER_TEST_POSTGRES"

    /// A new connection to the test server. Each test opens its own: temporary tables are then its
    /// own too, and tests run in parallel without seeing each other's.
    static func connect() throws -> PostgresConnection {
        guard let url else { throw Unconfigured() }
        return try PostgresConnection(url: url)
    }

    /// The test server's URL with another database name.
    static func url(database: String) throws -> String {
        guard let url, var components = URLComponents(string: url) else { throw Unconfigured() }
        components.path = "/" + database
        guard let changed = components.string else { throw Unconfigured() }
        return changed
    }

    /// A name (a channel) no other test uses at the same time.
    static func uniqueName(_ prefix: String) -> String {
        prefix + "_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    struct Unconfigured: Error {}
}

extension PostgresTestServer {
    /// The URL of a new, empty database of the test server: a store's tables of its own.
    static func freshDatabase() throws -> String {
        let name = uniqueName("store")
        try connect().execute("CREATE DATABASE \(name)")
        return try url(database: name)
    }
}
