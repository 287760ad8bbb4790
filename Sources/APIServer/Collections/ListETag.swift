import Crypto
import Domain
import HTTPServer

/// The strong ETag of a list response: a digest of everything that shapes its bytes — the
/// versions of the collections it reads (bumped by every committed change), the request's
/// query, the locale and the server's version. Computed before any query runs, so a matching
/// `If-None-Match` is answered 304 without touching the database. Hashed in place, without
/// arrays: this runs on every list request, cached or revalidated.
enum ListETag {
    /// The tag of a list: the versions of the collections it reads, the target, the locale.
    static func make(versions: some Sequence<Int64>, target: String, locale: RenderLocale) -> String {
        var hasher = SHA256()
        for version in versions { update(&hasher, version) }
        update(&hasher, target)
        withUnsafeBytes(of: UInt8(0)) { hasher.update(bufferPointer: $0) }
        update(&hasher, locale.rawValue)
        update(&hasher, RowserverVersion.current)
        let digest = hasher.finalize()
        return String(unsafeUninitializedCapacity: 27) { buffer in
            buffer[0] = UInt8(ascii: "\"")
            buffer[1] = UInt8(ascii: "l")
            var index = 2
            for byte in digest.prefix(12) {
                buffer[index] = HexDigits.lowercase[Int(byte >> 4)]
                buffer[index + 1] = HexDigits.lowercase[Int(byte & 0x0F)]
                index += 2
            }
            buffer[index] = UInt8(ascii: "\"")
            return index + 1
        }
    }

    private static func update(_ hasher: inout SHA256, _ version: Int64) {
        withUnsafeBytes(of: version.bigEndian) { hasher.update(bufferPointer: $0) }
    }

    private static func update(_ hasher: inout SHA256, _ text: String) {
        var text = text
        text.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
    }
}
