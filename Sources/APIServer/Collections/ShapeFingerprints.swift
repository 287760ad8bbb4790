import Crypto
import Domain

/// The fingerprints of the query shapes cursors were made for, by their canonical text.
///
/// A cursor carries the first 8 bytes of the SHA-256 of its query's shape (`Cursor`): every
/// page with a next page digests it, and a page opened from a cursor digests it again (~4,000
/// instructions each, counted: an uncached page 725,718 -> 720,799, a deep one 827,944 ->
/// 819,382). Shapes repeat (a screen pages through one list), so the digest is kept; the memo
/// empties itself past `limit` shapes, which bounds its memory whatever the queries (a search's
/// text is part of its shape).
enum ShapeFingerprints {
    static let limit = 1_024
    private static let kept = BoundedMemo<String, [UInt8]>(limit: limit)

    static func fingerprint(of canonical: String) -> [UInt8] {
        kept.value(for: canonical) { digest(canonical) }
    }

    /// What the memo keeps: the first 8 bytes of the SHA-256 of the text's UTF-8.
    static func digest(_ canonical: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(canonical.utf8)).prefix(8))
    }

    /// How many shapes are kept (for tests).
    static var count: Int { kept.count }
}
