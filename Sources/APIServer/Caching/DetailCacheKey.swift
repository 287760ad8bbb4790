import Domain

/// The response cache's key of a detail: the collection, the item, its parent and the locale.
/// No version: the entry watches the items it was made from (`ResponseCache.Watch`), so a
/// commit to any of them, and only to them, makes it be made again.
enum DetailCacheKey {
    static func make(collection: ServedCollection, id: EntityID, parent: EntityID?, locale: RenderLocale) -> String {
        var key = collection.name
        key.reserveCapacity(64)
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
