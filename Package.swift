// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "rowserver",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "rowserver", targets: ["rowserver"]),
        // The Swift client for apps: rows, sections, tables, paging, revalidation and live changes.
        .library(name: "RowKit", targets: ["RowKit"]),
        // For the benchmarks' own package (Benchmarks/Package.swift), which depends on this one by path.
        .library(name: "Domain", targets: ["Domain"]),
        .library(name: "DemoData", targets: ["DemoData"]),
        .library(name: "Definitions", targets: ["Definitions"]),
        .library(name: "Storage", targets: ["Storage"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.1.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.0.0"),
        .package(url: "https://github.com/yaslab/CSV.swift.git", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-atomics.git", from: "1.2.0"),
    ],
    targets: [
        // The C module: libmicrohttpd plus fixed-argument shims of its variadic calls.
        // Only HTTPServer imports it. GnuTLS (libmicrohttpd's own TLS library; Debian's
        // libmicrohttpd-dev depends on libgnutls28-dev) names why a certificate is refused.
        .target(
            name: "CMicroHTTPD",
            linkerSettings: [.linkedLibrary("microhttpd"), .linkedLibrary("gnutls")]
        ),
        // zlib's gzip streams (Debian zlib1g-dev), for compressed responses. Only HTTPServer imports it (and
        // HTTPTestSupport, whose tests read the responses back).
        .target(
            name: "CZlib",
            linkerSettings: [.linkedLibrary("z")]
        ),
        // libpq, PostgreSQL's C client (Debian libpq-dev): the PostgreSQL store's driver, called
        // synchronously on the request threads. Only Storage imports it.
        .target(
            name: "CLibPQ",
            linkerSettings: [.linkedLibrary("pq")]
        ),
        // SQLite's process-wide settings, made before main (sqlite3_config is variadic: Swift cannot
        // call it). Debian's libsqlite3-dev, which GRDB needs too. Only Storage imports it.
        .target(
            name: "CSQLite",
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),
        // The generic HTTP layer: daemon, request, response, router, middleware.
        .target(
            name: "HTTPServer",
            dependencies: [
                "CMicroHTTPD",
                "CZlib",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // Pure models and row mapping for any collection definition. Foundation at most.
        .target(name: "Domain"),
        // The demo: its typed models and the seeded generator of its collections' items (the
        // definition itself is `definitions/demo.yaml`, embedded in Definitions). Only the
        // executable, the benchmarks and the tests use it: a store is handed its items.
        .target(name: "DemoData", dependencies: ["Domain"]),
        // Collection definitions: a YAML or JSON file read, checked (errors with line and column)
        // and resolved into Domain's Catalog. The demo definition is embedded at build time.
        .target(
            name: "Definitions",
            dependencies: ["Domain", .product(name: "Yams", package: "Yams")],
            plugins: ["EmbedDemoDefinition"]
        ),
        // The source of truth, a table per collection of the served catalog: SQLite through GRDB (the
        // embedded default), or PostgreSQL through libpq (CLibPQ) for several instances on one database.
        // GRDBSQLite (SQLite's C API) only for reading a page's columns in place: `StatementRow`.
        .target(
            name: "Storage",
            dependencies: [
                "Domain",
                "CLibPQ",
                "CSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "CSV", package: "CSV.swift"),
                // One load of SQLite's shared commit counter (`CommitCounter`), written by other processes.
                .product(name: "Atomics", package: "swift-atomics"),
            ]
        ),
        // The product: rowserver's routes on top of HTTPServer and Domain.
        .target(
            name: "APIServer",
            dependencies: [
                "HTTPServer",
                "Domain",
                "Storage",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            plugins: ["EmbedExplorer"]
        ),
        // The client: Foundation only (FoundationNetworking on Linux), none of the server's modules.
        .target(name: "RowKit"),
        .plugin(name: "EmbedDemoDefinition", capability: .buildTool()),
        .plugin(name: "EmbedExplorer", capability: .buildTool()),
        .executableTarget(
            name: "rowserver",
            dependencies: [
                "APIServer",
                "HTTPServer",
                "Storage",
                "Definitions",
                "DemoData",
                "Domain",
                "RowKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // A raw-socket HTTP/1.1 client for tests: exact bytes on the wire, no client-side fixing; gzip read back.
        .target(name: "HTTPTestSupport", dependencies: ["CZlib"], path: "Tests/HTTPTestSupport"),
        // rowserver's application live on an ephemeral port, for every suite that needs one: over no
        // store, a store the test made, or a fresh one (a SQLite file, or a new PostgreSQL database
        // when ROWSERVER_TEST_STORE=postgres).
        .target(
            name: "ServerTestSupport",
            dependencies: [
                "APIServer", "HTTPServer", "HTTPTestSupport", "Storage", "Domain", "DemoData", "Definitions",
                .product(name: "Logging", package: "swift-log"), .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            path: "Tests/ServerTestSupport"
        ),
        .testTarget(
            name: "HTTPServerTests",
            dependencies: ["HTTPServer", "HTTPTestSupport", .product(name: "MetricsTestKit", package: "swift-metrics")]
        ),
        .testTarget(name: "DomainTests", dependencies: ["Domain", "DemoData"]),
        .testTarget(name: "DemoDataTests", dependencies: ["DemoData", "Domain"]),
        .testTarget(name: "DefinitionsTests", dependencies: ["Definitions", "Domain", "DemoData"]),
        .testTarget(
            name: "StorageTests", dependencies: ["Storage", "Domain", "DemoData", "Definitions", .product(name: "GRDB", package: "GRDB.swift")]),
        // Against the PostgreSQL server named by ROWSERVER_TEST_POSTGRES (scripts/postgres.sh start);
        // without it, the suites that need a server are disabled and say so.
        .testTarget(name: "PostgresStoreTests", dependencies: ["Storage", "Domain", "DemoData", "Definitions"]),
        .testTarget(
            name: "RowKitTests",
            dependencies: [
                "RowKit", "APIServer", "HTTPServer", "ServerTestSupport", "Storage", "Definitions", "Domain", "DemoData",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"), .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(
            name: "APIServerTests",
            dependencies: [
                "APIServer", "HTTPTestSupport", "ServerTestSupport", "Storage", "Domain", "DemoData", "Definitions", "rowserver",
                // A restored file's integrity_check.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets (scripts/fuzz.sh), declared only when ROWSERVER_FUZZ is set: normal builds and
// the CI test run never see them.
if Context.environment["ROWSERVER_FUZZ"] != nil {
    package.targets.append(.target(name: "CFuzzDriver", path: "Fuzz/CFuzzDriver"))
    package.targets.append(
        .target(
            name: "FuzzSupport", dependencies: ["CFuzzDriver", "APIServer", "HTTPServer", "Storage", "Domain", "Definitions"], path: "Fuzz/Support"))
    for name in ["RequestTarget", "Router", "ListOptions", "Tokens", "JSON", "MergePatch", "ItemDecoder"] {
        package.targets.append(
            .executableTarget(
                name: "Fuzz\(name)",
                dependencies: [
                    "FuzzSupport", "APIServer", "HTTPServer", "Storage", "Domain", "DemoData", "Definitions",
                    .product(name: "Logging", package: "swift-log"), .product(name: "Prometheus", package: "swift-prometheus"),
                ],
                path: "Fuzz/\(name)"))
    }
}
