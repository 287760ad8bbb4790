import DemoData
import Foundation

@testable import Storage

/// Seeded stores opened once and shared by the tests that only read them.
///
/// Seeding takes a fraction of a second; opening one store per parameterized case would
/// multiply that by a hundred. Their folder is removed when the test process exits.
enum SharedStores {
    private static let root: Result<URL, any Error> = Result {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("storage-shared-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit {
            if case .success(let url) = SharedStores.root { try? FileManager.default.removeItem(at: url) }
        }
        return url
    }

    private static let seededStore = Result {
        try DemoStore(path: root.get().appendingPathComponent("seeded.sqlite").path, options: .init(seedItems: DemoData.standardItems))
    }

    /// The standard demo dataset of seed 1; tests must not write to it.
    static func seeded() throws -> DemoStore { try seededStore.get() }

    /// Search limits so low that the demo dataset takes every search plan: few keys read by
    /// key, walks that give up, title orders read a batch at a time past the first, probing
    /// along the index, common short texts.
    static let tinySearchLimits = {
        var limits = CatalogStore.SearchLimits()
        limits.probe = 3
        limits.keys = 12
        limits.trigrams = 2
        limits.walk = 5
        limits.scanKeys = 40
        limits.scan = 30
        return limits
    }()

    private static let tinyLimitsStore = Result {
        var options = CatalogStore.Options(seedItems: DemoData.standardItems)
        options.search = tinySearchLimits
        return try DemoStore(path: root.get().appendingPathComponent("seeded-tiny-limits.sqlite").path, options: options)
    }

    /// The same dataset, searched with `tinySearchLimits`; tests must not write to it.
    static func seededWithTinySearchLimits() throws -> DemoStore { try tinyLimitsStore.get() }
}
