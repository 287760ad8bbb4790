import Crypto
import Foundation

/// Makes opaque, URL-safe, tamper-evident tokens (cursors, change tokens): the payload bytes,
/// then the first 16 bytes of their HMAC-SHA256, in base64url without padding.
///
/// The key must outlive restarts, or every cursor a client holds turns invalid when the server
/// restarts: the CLI keeps it in a file beside the database.
struct TokenSigner: Sendable {
    /// The HMAC with the key already absorbed: each token copies it, so the key's pads are
    /// prepared once rather than per page (that was most of the 54,000 instructions a cursor cost).
    private let keyed: HMAC<SHA256>
    static let tagLength = 16

    init(key: [UInt8]) {
        keyed = HMAC<SHA256>(key: SymmetricKey(data: key))
    }

    func seal(_ payload: [UInt8]) -> String {
        Base64URL.encode(payload + Array(mac(payload).prefix(Self.tagLength)))
    }

    private func mac(_ payload: [UInt8]) -> HMAC<SHA256>.MAC {
        var mac = keyed
        mac.update(data: payload)
        return mac.finalize()
    }

    /// The payload when the token is intact and was signed with this key; nil otherwise.
    func open(_ token: String) -> [UInt8]? {
        guard let bytes = Base64URL.decode(token), bytes.count > Self.tagLength else { return nil }
        let payload = Array(bytes.dropLast(Self.tagLength))
        let tag = bytes.suffix(Self.tagLength)
        let expected = mac(payload)
        // Constant-time comparison: a timing difference would let a client forge tags byte by byte.
        var difference: UInt8 = 0
        for (a, b) in zip(tag, expected.prefix(Self.tagLength)) { difference |= a ^ b }
        return difference == 0 ? payload : nil
    }

    /// 32 random bytes for a new key.
    static func newKey() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}

/// base64url (RFC 4648 §5) without padding: safe in a query string as is.
///
/// Foundation does the base64; the alphabet swap is a byte map, because `replacingOccurrences`
/// bridged through NSString and cost more than the HMAC for every page's cursor.
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        let base64 = Data(bytes).base64EncodedString().utf8
        var url: [UInt8] = []
        url.reserveCapacity(base64.count)
        for byte in base64 {
            switch byte {
            case UInt8(ascii: "+"): url.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): url.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: url.append(byte)
            }
        }
        return String(decoding: url, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        var base64: [UInt8] = []
        base64.reserveCapacity(text.utf8.count + 3)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                base64.append(byte)
            case UInt8(ascii: "-"): base64.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): base64.append(UInt8(ascii: "/"))
            default: return nil
            }
        }
        let remainder = base64.count % 4
        if remainder == 1 { return nil }
        // The bits after the last whole byte must be zero (RFC 4648 §3.5). Foundation ignores them,
        // which gave every token 4 or 16 spellings that all opened (found by fuzzing).
        if remainder > 0, let last = text.utf8.last, sextet(last) & (remainder == 2 ? 0x0F : 0x03) != 0 { return nil }
        if remainder > 0 { base64.append(contentsOf: repeatElement(UInt8(ascii: "="), count: 4 - remainder)) }
        return Data(base64Encoded: Data(base64)).map(Array.init)
    }

    /// The 6-bit value of a base64url digit (already checked to be one).
    private static func sextet(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        default: 63
        }
    }
}
