import Crypto
import Domain
import Storage

/// The strong ETag of a list response: a digest of everything that shapes its bytes — the
/// versions of the collections it reads (bumped by every committed change), the request's
/// query, the locale and the server's version. Computed before any query runs, so a matching
/// `If-None-Match` is answered 304 without touching the database.
enum ListETag {
    static func make(versions: [Int64], target: String, locale: RenderLocale) -> String {
        var hasher = SHA256()
        for version in versions {
            withUnsafeBytes(of: version.bigEndian) { hasher.update(bufferPointer: $0) }
        }
        // Hashed in place: this runs on every list request, cached or revalidated.
        for var text in [target, "\0", locale.rawValue, RowserverVersion.current] {
            text.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        }
        let digest = hasher.finalize()
        let hex = Array("0123456789abcdef".utf8)
        var tag: [UInt8] = [UInt8(ascii: "\""), UInt8(ascii: "l")]
        for byte in digest.prefix(12) {
            tag.append(hex[Int(byte >> 4)])
            tag.append(hex[Int(byte & 0x0F)])
        }
        tag.append(UInt8(ascii: "\""))
        return String(decoding: tag, as: UTF8.self)
    }

    /// The collections whose changes can alter a list of `collection`.
    static func dependencies(of collection: StoredCollection) -> [StoredCollection] {
        switch collection {
        case .people: [.people, .departments]
        case .samples: [.samples, .tracks]
        default: [collection]
        }
    }
}
