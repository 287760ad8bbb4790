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
    private static let walkingStore = Result { try open("walking.sqlite", options: .walkingSearch) }
    private static let membershipStore = Result { try open("membership.sqlite", options: .membershipSearch) }
    private static let titlePrefixStore = Result { try open("prefix.sqlite", options: .titlePrefixSearch) }
    private static let commonShortTextStore = Result { try open("short.sqlite", options: .commonShortTextSearch) }

    private static func open(_ name: String, options: SQLiteStore.Options = .init()) throws -> SQLiteStore {
        var options = options
        options.seedDemoData = true
        return try SQLiteStore(path: root.get().appendingPathComponent(name).path, options: options)
    }

    /// The standard demo dataset of seed 1; tests must not write to it.
    static func seeded() throws -> SQLiteStore { try seededStore.get() }

    /// The same, with search always walking the sort index instead of sorting full-text matches.
    static func seededWalkingSearch() throws -> SQLiteStore { try walkingStore.get() }

    /// The same, with search always walking the sort index testing full-text membership.
    static func seededMembershipSearch() throws -> SQLiteStore { try membershipStore.get() }

    /// The same, with search ordered by title always merging the titles that start with the text
    /// and the other matches.
    static func seededTitlePrefixSearch() throws -> SQLiteStore { try titlePrefixStore.get() }

    /// The same, with every short text too common for a query of its trigrams.
    static func seededCommonShortTextSearch() throws -> SQLiteStore { try commonShortTextStore.get() }
}

extension SQLiteStore.Options {
    /// Search that never sorts matches or merges title ranges: it walks the sort index checking text.
    static var walkingSearch: Self {
        var options = Self()
        options.searchMatchThreshold = 0
        options.searchRemainderThreshold = 0
        return options
    }

    /// Search that walks the sort index testing full-text membership (ordered by title, testing
    /// the text in the title index's entries).
    static var membershipSearch: Self {
        var options = walkingSearch
        options.searchWalkBudget = 0
        return options
    }

    /// Search that merges the titles starting with the text and the other matches whenever the
    /// order starts with the title.
    static var titlePrefixSearch: Self {
        var options = Self()
        options.searchMatchThreshold = 0
        options.searchRemainderThreshold = Int.max
        return options
    }

    /// Search that treats every short text as too common to ask the index for its trigrams.
    static var commonShortTextSearch: Self {
        var options = Self()
        options.searchGramLimit = 0
        return options
    }
}
