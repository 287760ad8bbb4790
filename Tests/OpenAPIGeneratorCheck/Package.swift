// swift-tools-version:6.1
// swift-openapi-generator, pinned, to check that openapi.yaml generates a client without a
// skipped schema: scripts/openapi-generator.sh builds its command from here and runs it.
// Kept out of the main package so that rowserver's own build never compiles the generator.
import PackageDescription

let package = Package(
    name: "OpenAPIGeneratorCheck",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "1.14.3")
    ],
    targets: []
)
