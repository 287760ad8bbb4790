import DemoData
import Foundation
import Storage

/// A fresh directory under the system temporary directory, removed when the value is released.
///
/// Tests use real files: WAL mode, fsync and reopening only mean something on disk.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("storage-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// A store on a new file in this directory.
    func store(_ name: String = "test.sqlite", seed: Bool = false, retention: Int = 100_000) throws -> DemoStore {
        try DemoStore(path: path(name), options: .init(seedItems: seed ? DemoData.standardItems : nil, changeRetention: retention))
    }

    /// A store on a new file in this directory, opened with `options`.
    func store(_ name: String = "test.sqlite", options: CatalogStore.Options) throws -> DemoStore {
        try DemoStore(path: path(name), options: options)
    }
}
