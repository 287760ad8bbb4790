/// Lowercase Crockford base32 for the 80-bit body of an ``EntityID``.
///
/// The alphabet (`0-9a-z` without `i l o u`) is in ascending ASCII order, so fixed-width
/// encodings sort lexicographically exactly like the numbers they encode. Decoding is strict:
/// only the canonical lowercase alphabet is accepted, so every id has exactly one spelling.
enum Crockford32 {
    static let alphabet: [UInt8] = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)

    /// Digit value of an ASCII byte, or nil when the byte is outside the canonical alphabet.
    static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x61...0x68: return byte - 0x61 + 10  // a-h
        case 0x6A, 0x6B: return byte - 0x6A + 18  // j k
        case 0x6D, 0x6E: return byte - 0x6D + 20  // m n
        case 0x70...0x74: return byte - 0x70 + 22  // p-t
        case 0x76...0x7A: return byte - 0x76 + 27  // v-z
        default: return nil
        }
    }

    /// Writes the 16 digits of the 80-bit number `high16:low64`, most significant first, at
    /// `offset` of `buffer` (which must have room for them). Straight into the buffer: every row
    /// of a page spells its id, and a call per digit showed in its profile.
    static func encode(high: UInt64, low: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        alphabet.withUnsafeBufferPointer { digits in
            for index in 0..<16 {
                let shift = 75 - 5 * index
                // Smart shifts: a negative or oversized amount shifts the other way or yields 0.
                let digit = ((high << (64 - shift)) | (low >> shift)) & 31
                buffer[offset + index] = digits[Int(digit)]
            }
        }
    }
}
