import Domain
import Foundation

extension CatalogStore {
    /// How a store opens its database.
    public struct Options: Sendable {
        /// The items a new database is filled with, given its catalog, referenced items first; nil
        /// leaves it empty. The executable passes the demo's generator: the store knows no demo.
        ///
        /// Only a file that had no schema before this open is new; an existing database is never
        /// seeded, even when it is empty, so deleting every item does not bring the demo back.
        public var seedItems: SeedItems?
        /// Change-log entries kept: older ones are pruned by the writer, and a change-feed token
        /// older than what is kept answers `.changesExpired`. At least 1.
        public var changeRetention: Int
        /// Most writes one group commit takes; bounds the latency of the last write in a batch.
        public var maximumBatchSize: Int
        /// SQLite page cache per connection, in KiB (the pool has a writer and up to five readers).
        public var cacheSizeKiB: Int
        /// How much of the database file each connection maps into memory, in MiB (0: none).
        /// Mapped pages touched count in the process's RSS, so it is off by default.
        public var mmapSizeMiB: Int
        /// How long a connection waits for another process's lock before failing, in seconds.
        public var busyTimeout: Double
        /// Where a search changes plans (`CatalogStore+Search.swift`).
        public var search = SearchLimits()
        /// Items whose newest change the store keeps in memory (`RecentChanges`), so a kept
        /// detail outlives writes to other items; past it, the older half is forgotten.
        public var recentChanges = RecentChanges.defaultCapacity
        /// Seconds a cached API key is trusted without a read, whatever the commits (`KeyCache`).
        public var keyCacheAge: Double = 2
        /// Inserts that may wait to be indexed for search together (`SearchBacklog`): the commit
        /// that would make more indexes them all. 0 indexes every commit's own. A search reads
        /// every waiting row (`BacklogMatches`): the limit bounds what that costs it too.
        public var searchBacklogLimit = 256

        public init(
            seedItems: SeedItems? = nil, changeRetention: Int = 100_000, maximumBatchSize: Int = 1_024, cacheSizeKiB: Int = 8_192,
            busyTimeout: Double = 10, mmapSizeMiB: Int = 0
        ) {
            self.seedItems = seedItems
            self.changeRetention = max(1, changeRetention)
            self.maximumBatchSize = max(1, maximumBatchSize)
            self.cacheSizeKiB = max(256, cacheSizeKiB)
            self.busyTimeout = max(0, busyTimeout)
            self.mmapSizeMiB = max(0, mmapSizeMiB)
        }
    }

    /// Items to insert into a new database, by collection (`Options.seedItems`).
    public typealias SeedItems = @Sendable (Catalog) -> [(collection: CollectionDefinition, item: Item)]

    /// The counts at which a search changes plans. Tests lower them to take every plan on a
    /// small dataset; the defaults are measured (Benchmarks/ab.py, bench.py's search set).
    public struct SearchLimits: Sendable, Hashable {
        /// Matches read first: this many or fewer are read by key and sorted.
        public var probe = 200
        /// Matches read by key after a walk gave up; more are probed along the order's index.
        /// Also the most matches a search in the title order of an ordered table reads for one
        /// page (when filters keep few of them); past it, the plans above decide.
        public var keys = 2_000
        /// A short text in more trigrams than this is common: walked, never queried by trigram.
        public var trigrams = 24
        /// Rows a walk reads before it gives up.
        public var walk = 1_500
        /// Matches of a phrase read into memory to scan the order's index for them; more are
        /// left to SQLite (which reads them by key and sorts them).
        public var scanKeys = 20_000
        /// Index entries such a scan reads before it gives up (then the matches read are sorted).
        public var scan = 5_000

        public init() {}
    }

    /// Unix milliseconds: the commit time change-log entries record.
    static func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down))
    }
}
