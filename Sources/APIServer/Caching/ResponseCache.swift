import HTTPServer
import Prometheus
import Storage

/// Finished responses by a key of everything that shapes their bytes, so a repeated GET costs
/// a lookup instead of a query and an encoding.
///
/// Correct by construction rather than by invalidation. A page's key holds the versions of the
/// collections it reads (bumped by every committed change), its request target and locale
/// (`ListCacheKey`), so any change that could alter its bytes changes the key. A detail's key
/// is its item and locale (`DetailCacheKey`), and its entry watches the items it was made from
/// (`Watch`): it is served only while the store vouches that none of them changed since, so
/// writes to other items of its collection leave it kept. Either way a stale entry can only
/// age out, never be served. Bounded by entries and by bytes; when full, the oldest half is
/// dropped (cheap, and hot pages come straight back).
///
/// Split into shards by a hash of the key, each behind its own lock: every cached request
/// takes one, and with one lock the libmicrohttpd threads queue on it. A small cache keeps one
/// shard, so its bounds hold exactly.
final class ResponseCache: Sendable {
    /// The items an entry was made from, and the change-log sequence it was made at: it holds
    /// while none of them changed after that (`ItemStore.unchanged`).
    struct Watch: Sendable {
        var sequence: Int64
        var items: [ItemAddress]
    }

    private struct Entry {
        var response: Response
        var order: UInt64
        var watch: Watch?
    }

    private struct Shard {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let shards: [Locked<Shard>]
    let maxEntries: Int
    let maxBytes: Int
    private let entriesPerShard: Int
    private let bytesPerShard: Int

    /// Entries a shard holds at least; fewer in all and the cache is one shard.
    static let minimumShardEntries = 128
    static let maximumShards = 16

    /// `name` and `registry`: where its lookups are counted (nil: not counted).
    init(maxEntries: Int = 2_048, maxBytes: Int = 32 * 1024 * 1024, name: String = "", registry: PrometheusCollectorRegistry? = nil) {
        lookups = registry.map { registry in
            let help = "Response cache lookups: hit (answered from memory) or miss (made again)."
            return (
                registry.makeCounter(name: Self.lookupsMetric, labels: [("cache", name), ("result", "hit")], help: help),
                registry.makeCounter(name: Self.lookupsMetric, labels: [("cache", name), ("result", "miss")], help: help)
            )
        }
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
        let count = min(Self.maximumShards, max(1, maxEntries / Self.minimumShardEntries))
        shards = (0..<count).map { _ in Locked(Shard()) }
        entriesPerShard = maxEntries / count
        bytesPerShard = maxBytes / count
    }

    var shardCount: Int { shards.count }

    /// False when it keeps nothing (`maxEntries` 0).
    var isEnabled: Bool { maxEntries > 0 }

    /// Lookups answered from memory and not: `rowserver_response_cache_lookups_total` with
    /// `cache` (its name) and `result` (`hit`, `miss`) in `/metrics`.
    private let lookups: (hit: Counter, miss: Counter)?

    static let lookupsMetric = "rowserver_response_cache_lookups_total"

    func lookup(_ key: String) -> Response? {
        let found = shard(for: key).withLock { $0.entries[key]?.response }
        count(found != nil)
        return found
    }

    /// The entry under `key` with what it watches; the caller asks the store whether it still
    /// holds, and says so (`count`).
    func watchedEntry(_ key: String) -> (response: Response, watch: Watch?)? {
        shard(for: key).withLock { shard in shard.entries[key].map { ($0.response, $0.watch) } }
    }

    /// Counts a lookup as a hit or a miss.
    func count(_ hit: Bool) {
        guard let lookups else { return }
        (hit ? lookups.hit : lookups.miss).increment()
    }

    /// Keeps `response` under `key` and returns it as kept: with a box for its gzip body, which
    /// the first gzip answer of it fills (`EncodedBodies`), so return the kept one.
    @discardableResult
    func store(_ response: Response, for key: String, watching watch: Watch? = nil) -> Response {
        let size = response.body.count
        guard maxEntries > 0, size <= maxBytes / 16 else { return response }
        var response = response
        let entriesPerShard = entriesPerShard
        let bytesPerShard = bytesPerShard
        let shard = shard(for: key)
        if response.encodedBodies == nil {
            // Its gzip form, made on the first gzip hit, counts against the budget from then on
            // (unless the entry is gone by then: a later eviction recounts from the entries).
            response.encodedBodies = EncodedBodies { [weak shard] added in
                shard?.withLock { shard in
                    guard shard.entries[key] != nil else { return }
                    shard.bytes += added
                    if shard.bytes > bytesPerShard { Self.evictOldestHalf(&shard) }
                }
            }
        }
        shard.withLock { shard in
            shard.clock &+= 1
            if let old = shard.entries.updateValue(Entry(response: response, order: shard.clock, watch: watch), forKey: key) {
                shard.bytes -= Self.bytes(of: old.response)
            }
            shard.bytes += size
            if shard.entries.count > entriesPerShard || shard.bytes > bytesPerShard {
                Self.evictOldestHalf(&shard)
            }
        }
        return response
    }

    /// The body and its kept encoded forms.
    private static func bytes(of response: Response) -> Int {
        response.body.count + (response.encodedBodies?.byteCount ?? 0)
    }

    /// Bytes kept, encoded forms included.
    var byteCount: Int { shards.reduce(0) { total, shard in total + shard.withLock { $0.bytes } } }

    var count: Int { shards.reduce(0) { total, shard in total + shard.withLock { $0.entries.count } } }

    /// FNV-1a over the key's bytes: cheap, and every byte counts, so keys that differ only in
    /// an id in the middle (`<collection>:7/42|en`) spread over the shards. Read from the string's
    /// own storage, not by iterating `utf8` generically.
    private func shard(for key: String) -> Locked<Shard> {
        guard shards.count > 1 else { return shards[0] }
        var key = key
        let hash = key.withUTF8 { bytes in
            var hash: UInt32 = 2_166_136_261
            for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
            return hash
        }
        return shards[Int(hash % UInt32(shards.count))]
    }

    private static func evictOldestHalf(_ shard: inout Shard) {
        let cutoff = shard.entries.values.map(\.order).sorted()[shard.entries.count / 2]
        shard.entries = shard.entries.filter { $0.value.order > cutoff }
        shard.bytes = shard.entries.values.reduce(0) { $0 + bytes(of: $1.response) }
    }
}
