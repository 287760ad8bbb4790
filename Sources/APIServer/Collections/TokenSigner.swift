import Crypto

/// Makes opaque, URL-safe, tamper-evident tokens (cursors, change tokens): the payload bytes,
/// then the first 16 bytes of their HMAC-SHA256, in base64url without padding.
///
/// The key must outlive restarts, or every cursor a client holds turns invalid when the server
/// restarts: the CLI keeps it in a file beside the database.
struct TokenSigner: Sendable {
    /// The HMAC with the key already absorbed: each token copies it, so the key's pads are
    /// prepared once rather than per page.
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
/// Written here rather than through Foundation's base64 and an alphabet swap: every page's next
/// cursor is encoded and every deep page's cursor decoded, without a round trip through `Data`.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        let length = (bytes.count * 4 + 2) / 3
        return String(unsafeUninitializedCapacity: length) { out in
            var written = 0
            func put(_ sextet: UInt32) {
                out[written] = alphabet[Int(sextet & 0x3F)]
                written += 1
            }
            var index = 0
            while index + 3 <= bytes.count {
                let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                put(group >> 18)
                put(group >> 12)
                put(group >> 6)
                put(group)
                index += 3
            }
            switch bytes.count - index {
            case 1:
                let group = UInt32(bytes[index]) << 16
                put(group >> 18)
                put(group >> 12)
            case 2:
                let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
                put(group >> 18)
                put(group >> 12)
                put(group >> 6)
            default: break
            }
            return written
        }
    }

    /// The bytes of `text`; nil for anything `encode` never writes: a character outside the
    /// alphabet, padding, a length that leaves 6 spare bits, or nonzero bits after the last whole
    /// byte (RFC 4648 §3.5: Foundation ignored them, which gave every token 4 or 16 spellings
    /// that all opened; found by fuzzing).
    static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode(utf8: $0) }
    }

    /// One pass: each group of four digits is looked up in `values` and written as three bytes,
    /// so the digits are never collected first.
    private static func decode(utf8 digits: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let remainder = digits.count % 4
        if remainder == 1 { return nil }
        let whole = digits.count - remainder
        var invalid: UInt32 = 0
        func value(_ index: Int) -> UInt32 {
            let looked = UInt32(values[Int(digits[index])])
            invalid |= looked
            return looked
        }
        let result = [UInt8](unsafeUninitializedCapacity: digits.count * 3 / 4) { out, count in
            var index = 0
            var written = 0
            while index < whole {
                let group = value(index) << 18 | value(index + 1) << 12 | value(index + 2) << 6 | value(index + 3)
                out[written] = UInt8(truncatingIfNeeded: group >> 16)
                out[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
                out[written + 2] = UInt8(truncatingIfNeeded: group)
                written += 3
                index += 4
            }
            if remainder >= 2 {
                let second = value(index + 1)
                let third = remainder == 3 ? value(index + 2) : 0
                // RFC 4648 §3.5: the bits after the last whole byte must be zero.
                invalid |= remainder == 2 ? (second & 0x0F) << 8 : (third & 0x03) << 8
                let group = value(index) << 18 | second << 12 | third << 6
                out[written] = UInt8(truncatingIfNeeded: group >> 16)
                written += 1
                if remainder == 3 {
                    out[written] = UInt8(truncatingIfNeeded: group >> 8)
                    written += 1
                }
            }
            count = written
        }
        return invalid & 0xFF00 == 0 ? result : nil
    }

    /// The 6-bit value of each byte that is a base64url digit; 0x100 for every other byte, so
    /// one OR over the looked-up values tells whether any was outside the alphabet.
    private static let values: [UInt16] = (0...255).map { byte in
        sextet(UInt8(byte)).map(UInt16.init) ?? 0x100
    }

    /// The 6-bit value of a base64url digit; nil for any other byte.
    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
