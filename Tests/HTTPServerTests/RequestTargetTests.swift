import Testing

@testable import HTTPServer

@Suite("RequestTarget parsing (pure)")
struct RequestTargetTests {
    static let valid: [(String, [String], [QueryItem])] = [
        ("/", [], []),
        ("/health", ["health"], []),
        ("/v1/products/prd_01", ["v1", "products", "prd_01"], []),
        ("/v1/products?limit=5&sort=-price", ["v1", "products"], [QueryItem(name: "limit", value: "5"), QueryItem(name: "sort", value: "-price")]),
        ("/a%2Fb/c", ["a/b", "c"], []),
        ("/caf%C3%A9", ["café"], []),
        ("/x?q=jos%C3%A9+garc%C3%ADa", ["x"], [QueryItem(name: "q", value: "josé garcía")]),
        ("/x?a&&b=", ["x"], [QueryItem(name: "a", value: ""), QueryItem(name: "b", value: "")]),
        ("/x?a=1=2", ["x"], [QueryItem(name: "a", value: "1=2")]),
        ("/x/", ["x", ""], []),
        ("http://example.com/v1?x=1", ["v1"], [QueryItem(name: "x", value: "1")]),
        ("/x?%2B=%2b", ["x"], [QueryItem(name: "+", value: "+")]),
        // Dots that are not a dot segment, and empty segments, stay as they are.
        ("/.../.a/a./..b", ["...", ".a", "a.", "..b"], []),
        ("/x//y/", ["x", "", "y", ""], []),
        ("/a/b/c/d/e/f/g?x", ["a", "b", "c", "d", "e", "f", "g"], [QueryItem(name: "x", value: "")]),
    ]

    @Test(arguments: valid)
    func parsesValidTargets(raw: String, segments: [String], query: [QueryItem]) throws {
        let target = try RequestTarget.parse(raw)
        #expect(target.segments == segments)
        #expect(target.query == query)
    }

    static let invalid: [(String, String)] = [
        ("", "INVALID_PATH"), ("v1/products", "INVALID_PATH"), ("/a#b", "INVALID_PATH"), ("/%00", "INVALID_PATH"),
        ("/%ff", "INVALID_PATH"), ("/%c0%af", "INVALID_PATH"), ("/%ed%a0%80", "INVALID_PATH"), ("/..", "INVALID_PATH"),
        ("/%2e", "INVALID_PATH"), ("/.", "INVALID_PATH"), ("/a/./b", "INVALID_PATH"), ("/a/../b", "INVALID_PATH"), ("/..?x=1", "INVALID_PATH"),
        ("/a/.", "INVALID_PATH"), ("/.%2e", "INVALID_PATH"), ("/%", "INVALID_PATH"), ("/%a", "INVALID_PATH"), ("/%gg", "INVALID_PATH"),
        ("/a%09b", "INVALID_PATH"), ("/a b", "INVALID_PATH"), ("/a\tb", "INVALID_PATH"), ("/x?a=%00", "INVALID_QUERY"), ("/x?a=%", "INVALID_QUERY"),
        ("/x?a=%fe%ff", "INVALID_QUERY"), ("/x?%00=1", "INVALID_QUERY"), ("/x?a=b%00c", "INVALID_QUERY"), ("/x?a=1&b=%00", "INVALID_QUERY"),
        ("/x?" + (0..<65).map { "p\($0)=1" }.joined(separator: "&"), "INVALID_QUERY"),
        // Found by fuzzing: absolute-form targets without a path skipped these checks.
        ("http\u{1A}//x", "INVALID_PATH"), ("http://a b", "INVALID_PATH"), ("https://a\u{7F}", "INVALID_PATH"),
        ("http://host#frag", "INVALID_PATH"), ("http://h#x/y", "INVALID_PATH"),
    ]

    @Test(arguments: invalid)
    func rejectsInvalidTargets(raw: String, code: String) {
        #expect {
            try RequestTarget.parse(raw)
        } throws: { error in
            (error as? HTTPError)?.code == code && (error as? HTTPError)?.status == 400
        }
    }

    /// Only `%00` and a raw zero byte decode to NUL; escapes next to zeros do not.
    @Test(arguments: [
        ("%00", true), ("a%00", true), ("\u{0}", true), ("a=b%00", true), ("%2500", false), ("00", false), ("%30%30", false),
        ("%0", false), ("%", false), ("", false), ("a=%20", false),
    ])
    func findsTheBytesThatDecodeToNUL(raw: String, expected: Bool) {
        #expect(Array(raw.utf8).withUnsafeBufferPointer(RequestTarget.decodesToNUL) == expected)
    }
}
