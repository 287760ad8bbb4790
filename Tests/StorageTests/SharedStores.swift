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

    private static let seededStore = Result { try open("seeded.sqlite") }
    private static let walkingStore = Result { try open("walking.sqlite", searchMatchThreshold: 0) }
    private static let membershipStore = Result { try open("membership.sqlite", searchMatchThreshold: 0, searchWalkBudget: 0) }

    private static func open(_ name: String, searchMatchThreshold: Int? = nil, searchWalkBudget: Int? = nil) throws -> SQLiteStore {
        var options = SQLiteStore.Options(seedDemoData: true)
        if let searchMatchThreshold { options.searchMatchThreshold = searchMatchThreshold }
        if let searchWalkBudget { options.searchWalkBudget = searchWalkBudget }
        return try SQLiteStore(path: root.get().appendingPathComponent(name).path, options: options)
    }

    /// The standard demo dataset of seed 1; tests must not write to it.
    static func seeded() throws -> SQLiteStore { try seededStore.get() }

    /// The same, with search always walking the sort index instead of sorting full-text matches.
    static func seededWalkingSearch() throws -> SQLiteStore { try walkingStore.get() }

    /// The same, with search always walking the sort index testing full-text membership.
    static func seededMembershipSearch() throws -> SQLiteStore { try membershipStore.get() }
}
