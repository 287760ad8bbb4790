import Domain

/// The response cache's key of a list page: the versions of the collections it reads, the
/// locale and the request target, spelled out rather than digested. A kept page answers with
/// no SHA-256 at all (its ETag is in its headers); the digest (`ListETag`) is made only for a
/// page that is not kept. About 4,000 instructions of a cached page's 112,000 went to it.
///
/// `L` keeps list keys apart from details' (`DetailCacheKey` starts with a collection name).
/// Versions and the locale hold no `|`, so the target after the second one is unambiguous.
enum ListCacheKey {
    static func make(versions: [Int64], target: String, locale: RenderLocale) -> String {
        var key = "L"
        key.reserveCapacity(32 + target.utf8.count)
        for (index, version) in versions.enumerated() {
            if index > 0 { key += "," }
            key += String(version)
        }
        key += "|"
        key += locale.rawValue
        key += "|"
        key += target
        return key
    }
}
