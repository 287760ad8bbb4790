import Domain
import HTTPServer

/// Query parameter values as links carry them.
enum ListLinks {
    /// Unreserved bytes as they are, every other byte as `%XX`. Text that needs no escape (a
    /// cursor, a name, a number: nearly every value) is returned as it is, without a copy.
    static func percentEncode(_ text: String) -> String {
        // In place where the string allows, not by iterating the view generically.
        let clean = text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isUnreserved) } ?? text.utf8.allSatisfy(isUnreserved)
        guard !clean else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(HexDigits.uppercase[Int(byte >> 4)])
                bytes.append(HexDigits.uppercase[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// RFC 3986 §2.3: letters, digits, `-`, `.`, `_` and `~`.
    @inline(__always)
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
