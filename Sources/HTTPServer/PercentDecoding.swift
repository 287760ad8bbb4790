/// Percent-decoding (RFC 3986 §2.1) into validated UTF-8.
enum PercentDecoding {
    enum Failure: Error, Equatable {
        /// `%` not followed by two hex digits.
        case malformedEscape
        /// The decoded bytes are not UTF-8 (includes overlong forms and surrogates).
        case invalidUTF8
    }

    /// Decodes `%XX` escapes; with `plusAsSpace` (form encoding of query strings) `+` is a space.
    /// The result must be UTF-8: overlong forms, surrogates and stray bytes are refused.
    static func decode(_ input: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) throws(Failure) -> String {
        if !input.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) {
            return try validated(input)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < input.count,
                    let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
                else {
                    throw .malformedEscape
                }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return try bytes.withUnsafeBufferPointer { buffer throws(Failure) in try validated(buffer) }
    }

    /// `bytes` as a String when they are UTF-8. ASCII (nearly every query) takes the direct
    /// path: `String(validating:as:)` is generic and, unspecialized here, looks up type
    /// metadata at run time on every call.
    private static func validated(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> String {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        guard let string = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
        return string
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
