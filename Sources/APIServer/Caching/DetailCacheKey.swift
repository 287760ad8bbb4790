import Domain

/// The response cache's key of a detail: the collection, the versions of every collection the
/// detail reads, the item, its parent and the locale; a commit to any of them changes the key,
/// so a kept detail is never older than the newest commit.
enum DetailCacheKey {
    static func make<Failure: Error>(
        collection: ServedCollection, id: EntityID, parent: EntityID?, locale: RenderLocale, version: (String) throws(Failure) -> Int64
    ) throws(Failure) -> String {
        var key = collection.name
        key.reserveCapacity(64)
        for dependency in collection.dependencies {
            key += ":"
            key += String(try version(dependency))
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
