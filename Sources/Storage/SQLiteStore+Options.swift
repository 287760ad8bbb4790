extension SQLiteStore {
    /// How a store opens its database.
    public struct Options: Sendable, Hashable {
        /// Fill a new database with `DemoData(seed: 1).dataset(volume: .standard)`.
        ///
        /// Only a file that had no schema before this open is new; an existing database is never
        /// seeded, even when it is empty, so deleting every item does not bring the demo back.
        public var seedDemoData: Bool
        /// Change-log entries kept: older ones are pruned by the writer, and a change-feed token
        /// older than what is kept answers `.changesExpired`. At least 1.
        public var changeRetention: Int
        /// Most writes one group commit takes; bounds the latency of the last write in a batch.
        public var maximumBatchSize: Int
        /// SQLite page cache per connection, in KiB (the pool has a writer and up to five readers).
        public var cacheSizeKiB: Int
        /// How much of the database file each connection maps into memory, in MiB (0: none,
        /// every page is read with pread). The pages stay in the OS cache, but every mapped page
        /// touched counts in the process's RSS: off by default, so that RSS shows what the server
        /// holds (a 1M-product run reached ~1 GiB with 4 GiB mapped, ~110 MiB without), and
        /// search on 1M products is ~25 % slower for it.
        public var mmapSizeMiB: Int
        /// How long a connection waits for another process's lock before failing, in seconds.
        public var busyTimeout: Double
        /// Full-text matches up to which a search sorts its matches rather than walking the sort
        /// index (see `SQLiteStore.searchPage`); internal so tests can force either plan.
        var searchMatchThreshold = 5_000
        /// Rows a search walk reads before it switches to testing full-text membership; internal
        /// for the same reason.
        var searchWalkBudget = 1_500
        /// Full-text matches besides the titles that start with the text, up to which a search
        /// ordered by title merges the two (see `SQLiteStore.searchPage`); internal for the same reason.
        var searchRemainderThreshold = 5_000
        /// Trigrams containing a text of one or two characters up to which a search asks the
        /// full-text index for any of them; internal for the same reason.
        var searchGramLimit = 64

        public init(
            seedDemoData: Bool = false,
            changeRetention: Int = 100_000,
            maximumBatchSize: Int = 1_024,
            cacheSizeKiB: Int = 8_192,
            busyTimeout: Double = 10,
            mmapSizeMiB: Int = 0
        ) {
            self.seedDemoData = seedDemoData
            self.changeRetention = max(1, changeRetention)
            self.maximumBatchSize = max(1, maximumBatchSize)
            self.cacheSizeKiB = max(256, cacheSizeKiB)
            self.busyTimeout = max(0, busyTimeout)
            self.mmapSizeMiB = max(0, mmapSizeMiB)
        }
    }
}
