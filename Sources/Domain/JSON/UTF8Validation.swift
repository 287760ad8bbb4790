/// Strict UTF-8 well-formedness (Unicode §3.9, Table 3-7).
///
/// Stricter than decoding with repair: overlong forms, encoded surrogates, code points past
/// U+10FFFF and truncated sequences are all errors, and the offset of the first one is reported
/// so the client learns where its encoder went wrong.
public enum UTF8Validation {
    /// The offset of the first byte of the first ill-formed sequence, or nil when all is well.
    static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { firstInvalidOffset($0) }
    }

    /// Whether `bytes` are well-formed UTF-8: then `String(decoding:as:)` would keep them as they
    /// are, and they can be written without making the string.
    public static func isWellFormed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        // A page checks every text it writes, and most are ASCII: their bytes OR-ed together
        // say so without the walk below.
        return isASCII(base, count: bytes.count) || firstInvalidOffset(bytes) == nil
    }

    /// Whether every byte is below 0x80: eight a step, the last step overlapping the one before
    /// (fewer than eight are OR-ed one by one).
    static func isASCII(_ base: UnsafePointer<UInt8>, count: Int) -> Bool {
        var bits: UInt64 = 0
        var index = 0
        while index + 8 <= count {
            bits |= UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            index += 8
        }
        if index < count {
            if count >= 8 {
                bits |= UnsafeRawPointer(base + count - 8).loadUnaligned(as: UInt64.self)
            } else {
                for offset in index..<count { bits |= UInt64(base[offset]) }
            }
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }

    static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let count = bytes.count
        while index < count {
            // Eight ASCII bytes a step: a page checks every stored text it writes as it is.
            if index + 8 <= count, let base = bytes.baseAddress,
                UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
                continue
            }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var secondRange: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                secondRange = 0xA0...0xBF
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                secondRange = 0x80...0x9F
            case 0xF0:
                length = 4
                secondRange = 0x90...0xBF
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                secondRange = 0x80...0x8F
            default: return index
            }
            guard index + length <= count, secondRange.contains(bytes[index + 1]) else { return index }
            for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) {
                return index
            }
            index += length
        }
        return nil
    }
}
