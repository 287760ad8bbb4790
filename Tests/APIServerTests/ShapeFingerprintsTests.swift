import Testing

@testable import APIServer

/// A kept fingerprint is the digest itself, for every shape, however many shapes come.
@Suite("Shape fingerprints")
struct ShapeFingerprintsTests {
    /// Pinned: cursors already given out must still open, so the digest never changes.
    @Test(
        arguments: [
            ("", [0xE3, 0xB0, 0xC4, 0x42, 0x98, 0xFC, 0x1C, 0x14]),
            ("abc", [0xBA, 0x78, 0x16, 0xBF, 0x8F, 0x01, 0xCF, 0xEA]),
        ] as [(String, [UInt8])])
    func theDigestIsTheFirstEightBytesOfSHA256(text: String, expected: [UInt8]) {
        #expect(ShapeFingerprints.digest(text) == expected)
    }

    @Test func keptFingerprintsAreTheDigestsEvenPastTheLimit() {
        // A few shapes asked again (kept), then more than the memo keeps (it empties itself).
        let few = (0..<10).map { "people|p=|s=name|f=|q=\($0)|g=1|v=table" }
        let many = (0..<(ShapeFingerprints.limit + 300)).map { "products|p=|s=-price|f=|q=café \($0)|g=|v=rows" }
        for (shapes, rounds) in [(few, 3), (many, 2)] {
            for round in 0..<rounds {
                for shape in shapes {
                    #expect(ShapeFingerprints.fingerprint(of: shape) == ShapeFingerprints.digest(shape), "\(shape), round \(round)")
                }
            }
        }
        #expect(ShapeFingerprints.count <= ShapeFingerprints.limit)
        #expect(ShapeFingerprints.fingerprint(of: many[0]) != ShapeFingerprints.fingerprint(of: many[1]))
    }
}
