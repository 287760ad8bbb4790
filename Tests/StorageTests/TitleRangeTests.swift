import Testing

@testable import Storage

/// The bounds of the range of titles that start with a text, as SQLite compares text (bytes).
@Suite struct TitleRangeTests {
    @Test(
        arguments: [
            ("wal", "wam"),
            ("a", "b"),
            ("zz", "z{"),
            ("ab\u{D7FF}", "ab\u{E000}"),
            ("a\u{10FFFF}", "b"),
            ("é", "ê"),
            ("\u{10FFFF}\u{10FFFF}", nil),
        ] as [(String, String?)])
    func theUpperBoundIsTheLeastTextAfterEveryTextWithThePrefix(prefix: String, upper: String?) {
        let bound = CatalogPageQuery.prefixUpperBound(prefix)
        #expect(bound == upper)
        if let bound {
            for text in [prefix, prefix + "\u{10FFFF}", prefix + "zzz", prefix + "\u{0}"] {
                #expect(CatalogPageQuery.precedes(text, bound), "\(text) sorts before \(bound)")
            }
        }
    }

    @Test(arguments: [
        ("a", "b", true), ("b", "a", false), ("a", "a", false), ("a", "ab", true),
        // Bytes, not Swift's String order: U+FF21 (3 bytes) sorts after U+00E9 (2 bytes).
        ("\u{E9}", "\u{FF21}", true), ("\u{1F98A}", "\u{FFFD}", false),
    ])
    func textsCompareByTheirUTF8Bytes(a: String, b: String, precedes: Bool) {
        #expect(CatalogPageQuery.precedes(a, b) == precedes)
    }
}
