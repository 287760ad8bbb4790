import Domain
import Storage

/// The cache key of a detail: everything that shapes its bytes — the item (and the track a
/// sample is addressed under), the versions of the collections its detail reads (bumped by
/// every committed change) and the locale. The server's version needs no place: a cache lives
/// as long as its process.
enum DetailCacheKey {
    static func make(collection: StoredCollection, id: EntityID, parent: EntityID?, versions: [Int64], locale: RenderLocale) -> String {
        var key = collection.rawValue
        key.reserveCapacity(64)
        for version in versions {
            key += ":"
            key += String(version)
        }
        key += "/"
        key += id.rawValue
        if let parent {
            key += "@"
            key += parent.rawValue
        }
        key += "|"
        key += locale.rawValue
        return key
    }
}
