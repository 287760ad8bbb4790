import Crypto
import Domain

/// The fingerprint of the query shape a cursor was made for (`Cursor`): kept per list with
/// its links (`ListShapes`).
enum ShapeFingerprints {
    /// The first 8 bytes of the SHA-256 of the shape's canonical text's UTF-8. Pinned: cursors
    /// already given out must still open.
    static func digest(_ canonical: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(canonical.utf8)).prefix(8))
    }
}
