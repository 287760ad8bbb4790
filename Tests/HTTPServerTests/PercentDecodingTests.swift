import Testing

@testable import HTTPServer

@Suite("Percent-decoding (pure)")
struct PercentDecodingTests {
    /// (raw bytes, plus as space, the decoded text or the failure).
    static let cases: [([UInt8], Bool, Result<String, PercentDecoding.Failure>)] = [
        (Array("limit=50".utf8), true, .success("limit=50")),
        (Array("a+b".utf8), true, .success("a b")),
        (Array("a+b".utf8), false, .success("a+b")),
        (Array("a%20b%2F".utf8), false, .success("a b/")),
        (Array("%C3%A9t%C3%A9".utf8), true, .success("été")),
        (Array("été".utf8), true, .success("été")),
        (Array("été+x".utf8), true, .success("été x")),
        ([], true, .success("")),
        ([0xFF], true, .failure(.invalidUTF8)),
        ([0x61, 0xC3], false, .failure(.invalidUTF8)),
        (Array("%FF".utf8), true, .failure(.invalidUTF8)),
        (Array("%C0%AF".utf8), true, .failure(.invalidUTF8)),
        (Array("%ED%A0%80".utf8), true, .failure(.invalidUTF8)),
        (Array("%G1".utf8), true, .failure(.malformedEscape)),
        (Array("abc%2".utf8), true, .failure(.malformedEscape)),
    ]

    @Test(arguments: cases)
    func decodesToUTF8OrSaysWhyNot(raw: [UInt8], plusAsSpace: Bool, expected: Result<String, PercentDecoding.Failure>) {
        let result = raw.withUnsafeBufferPointer { bytes in
            Result { () throws(PercentDecoding.Failure) in try PercentDecoding.decode(bytes, plusAsSpace: plusAsSpace) }
        }
        #expect(result == expected)
    }
}
