import Definitions
import Domain
import Foundation
import Storage

/// The demo definition, and a store of it on a throwaway file, for targets that need the
/// catalog the server serves (the router's table, list parameters, item documents).
public enum DemoCatalog {
    public static let catalog: Catalog = {
        do {
            return try DefinitionLoader.demo()
        } catch {
            fuzzCheck(false, "the demo definition does not load: \(error)")
            return Catalog(collections: [])
        }
    }()

    /// An empty store of the demo catalog in a temporary folder (left for the system to clean).
    public static func store() -> CatalogStore? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rowserver-fuzz-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try? CatalogStore(path: directory.appendingPathComponent("fuzz.sqlite").path, catalog: catalog)
    }
}
