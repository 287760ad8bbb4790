import Domain
import HTTPServer

/// The response cache's key of a list page: the versions of the collections it reads, the
/// locale and the request target, spelled out rather than digested. A kept page answers with
/// no SHA-256 at all (its ETag is in its headers); the digest (`ListETag`) is made only for a
/// page that is not kept.
///
/// `L` keeps list keys apart from details' (`DetailCacheKey` starts with a collection name).
/// Versions and the locale hold no `|`, so the target after the second one is unambiguous.
enum ListCacheKey {
    /// Written as bytes, not with `String(version)` and `+=`: every list request makes one.
    static func make(versions: [Int64], target: String, locale: RenderLocale) -> String {
        var key: [UInt8] = [UInt8(ascii: "L")]
        key.reserveCapacity(40 + target.utf8.count)
        for (index, version) in versions.enumerated() {
            if index > 0 { key.append(UInt8(ascii: ",")) }
            JSONWriter.appendDecimal(version, to: &key)
        }
        key.append(UInt8(ascii: "|"))
        key.append(contentsOf: locale.rawValue.utf8)
        key.append(UInt8(ascii: "|"))
        key.append(contentsOf: target.utf8)
        return String(decoding: key, as: UTF8.self)
    }
}
