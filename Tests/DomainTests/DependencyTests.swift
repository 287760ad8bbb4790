import Foundation
import Testing

/// Domain stays pure: its sources import Foundation at most — no HTTP, no SQLite.
@Suite("Dependencies")
struct DependencyTests {
    @Test("every Domain source imports nothing but Foundation")
    func importsFoundationAtMost() throws {
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/Domain").resolvingSymlinksInPath()
        let enumerator = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var files = 0
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            files += 1
            let imports = try String(contentsOf: url, encoding: .utf8)
                .split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.hasPrefix("import ") || $0.contains(" import ") }
            #expect(imports.allSatisfy { $0 == "import Foundation" }, "\(url.lastPathComponent): \(imports)")
        }
        #expect(files > 20)
    }
}
