import Testing

@testable import Domain

@Suite("UTF-8 validation: the first ill-formed sequence, wherever it falls in an 8-byte step")
struct UTF8ValidationTests {
    /// Bytes and the offset of their first ill-formed sequence (nil: well-formed).
    static let cases: [([UInt8], Int?)] = [
        ([], nil),
        (Array("plain ascii text".utf8), nil),
        (Array("Crème brûlée 🍮 東京".utf8), nil),
        ([0xED, 0x9F, 0xBF], nil),  // U+D7FF, the last before the surrogates
        ([0xF4, 0x8F, 0xBF, 0xBF], nil),  // U+10FFFF
        ([0x80], 0),  // a continuation byte alone
        ([0xC0, 0xAF], 0),  // overlong "/"
        ([0xE0, 0x80, 0xAF], 0),  // overlong, three bytes
        ([0xED, 0xA0, 0x80], 0),  // an encoded surrogate
        ([0xF4, 0x90, 0x80, 0x80], 0),  // past U+10FFFF
        ([0xF5, 0x80, 0x80, 0x80], 0),
        ([0x61, 0xC3], 1),  // truncated at the end
        ([0x61, 0xE2, 0x82], 1),
        ([0x61, 0xE2, 0x82, 0x41], 1),  // a third byte that does not continue
        ([0xC3, 0xA9, 0xFF], 2),
    ]

    /// A byte of 0x80 or more at each place of every length up to 24 is seen; none, none is.
    @Test func asciiIsToldFromAnyNonASCIIByteAnywhere() {
        for length in 0...24 {
            let ascii = [UInt8](repeating: 0x7F, count: length)
            #expect(ascii.withUnsafeBufferPointer { $0.baseAddress.map { UTF8Validation.isASCII($0, count: length) } ?? true })
            for place in 0..<length {
                var bytes = ascii
                bytes[place] = 0x80
                #expect(bytes.withUnsafeBufferPointer { $0.baseAddress.map { UTF8Validation.isASCII($0, count: length) } } == false)
            }
        }
    }

    /// Each case behind every ASCII prefix up to 17 bytes and before an ASCII tail: the word step
    /// must hand over to the byte loop at the right place, and stop at the offset moved by the prefix.
    @Test(arguments: cases)
    func firstInvalidOffsetIsFoundBehindAnyPrefix(bytes: [UInt8], offset: Int?) {
        for prefix in 0...17 {
            for tail in [0, 9] {
                let input = Array(repeating: UInt8(ascii: "a"), count: prefix) + bytes + Array(repeating: UInt8(ascii: "z"), count: tail)
                let expected = offset.map { $0 + prefix }
                #expect(UTF8Validation.firstInvalidOffset(input) == expected, "prefix \(prefix), tail \(tail)")
                #expect(input.withUnsafeBufferPointer(UTF8Validation.isWellFormed) == (expected == nil))
            }
        }
    }
}
