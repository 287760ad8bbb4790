// swift-tools-version:6.1
// rowserver's Swift benchmarks, a package of their own so that the product's `swift build` never
// compiles them (Hummingbird keeps its benchmarks so). They use rowserver's library products by
// path. Release builds, from the repository's root:
//   swift run -c release --package-path Benchmarks DomainBenchmark
//   swift run -c release --package-path Benchmarks StorageBenchmark
// The Python benchmarks beside this file (bench.py and the others) need none of it.
import PackageDescription

let package = Package(
    name: "RowserverBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "rowserver", path: "..")
    ],
    targets: [
        // The cost of mapping pages of rows with locale formatting.
        .executableTarget(
            name: "DomainBenchmark",
            dependencies: [
                .product(name: "Domain", package: "rowserver"), .product(name: "DemoData", package: "rowserver"),
                .product(name: "Definitions", package: "rowserver"),
            ],
            path: "DomainBenchmark"
        ),
        // The SQLite store on a real file (synchronous=FULL): bulk load, open, keyset pages, search,
        // group-committed writes with 32 writers.
        .executableTarget(
            name: "StorageBenchmark",
            dependencies: [
                .product(name: "Storage", package: "rowserver"), .product(name: "Domain", package: "rowserver"),
                .product(name: "DemoData", package: "rowserver"), .product(name: "Definitions", package: "rowserver"),
            ],
            path: "StorageBenchmark"
        ),
    ],
    swiftLanguageModes: [.v6]
)
