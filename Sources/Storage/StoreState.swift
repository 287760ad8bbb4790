/// What the store answers from memory: each collection's version and the latest sequence.
///
/// Loaded when the store opens and advanced after each commit (before the writes are
/// acknowledged), so `version(of:)` costs a lock rather than a query. A process that writes
/// the same file (`rowserver import` next to a running server) is not seen until the server
/// reopens the database.
struct StoreState: Sendable {
    var versions: [StoredCollection: Int64] = [:]
    var latest: Int64 = 0

    /// What one committed transaction changed.
    struct Update: Sendable {
        var versions: [StoredCollection: Int64] = [:]
        var latest: Int64

        /// Adds versions known without a change entry (bulk-loaded items whose entries were pruned).
        mutating func merge(_ other: [StoredCollection: Int64]) {
            for (collection, version) in other {
                versions[collection] = max(versions[collection] ?? 0, version)
                latest = max(latest, version)
            }
        }
    }

    mutating func apply(_ update: Update) {
        for (collection, version) in update.versions {
            versions[collection] = max(versions[collection] ?? 0, version)
        }
        latest = max(latest, update.latest)
    }
}
