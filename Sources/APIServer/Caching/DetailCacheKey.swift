import Domain
import Storage

/// The cache key of a detail: everything that shapes its bytes — the item (and the track a
/// sample is addressed under), the versions of the collections its detail reads (bumped by
/// every committed change) and the locale. The server's version needs no place: a cache lives
/// as long as its process.
enum DetailCacheKey {
    /// `version` gives each collection's current version; the collections are those
    /// `ListETag.forEachDependency` names, written straight into the key (no array per request).
    static func make(
        collection: StoredCollection, id: EntityID, parent: EntityID?, locale: RenderLocale, version: (StoredCollection) -> Int64
    ) -> String {
        var key = collection.rawValue
        key.reserveCapacity(64)
        ListETag.forEachDependency(of: collection) { dependency in
            key += ":"
            key += String(version(dependency))
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
