/// Lowercase Crockford base32 for the 80-bit body of an ``EntityID``.
///
/// The alphabet (`0-9a-z` without `i l o u`) is in ascending ASCII order, so fixed-width
/// encodings sort lexicographically exactly like the numbers they encode. Decoding is strict:
/// only the canonical lowercase alphabet is accepted, so every id has exactly one spelling.
enum Crockford32 {
    static let alphabet: [UInt8] = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)

    /// Marks a byte outside the alphabet in `values`: its high bit is set, no digit's is.
    static let notADigit: UInt8 = 0xFF

    /// Each byte's digit value, `notADigit` outside the canonical alphabet: one load a digit (a
    /// page parses an id per row), not the ranges of a `switch`.
    static let values: [UInt8] = (0...255).map { byte in alphabet.firstIndex(of: UInt8(byte)).map { UInt8($0) } ?? notADigit }

    /// Digit value of an ASCII byte, or nil when the byte is outside the canonical alphabet.
    static func value(of byte: UInt8) -> UInt8? {
        let value = values[Int(byte)]
        return value == notADigit ? nil : value
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
