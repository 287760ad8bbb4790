import Testing

@testable import HTTPServer

@Suite("Header names (pure)")
struct HTTPHeadersTests {
    static let names: [(String, String, Bool)] = [
        ("Content-Type", "content-type", true), ("ETAG", "ETag", true), ("Vary", "Vary", true), ("", "", true),
        ("Content-Type", "Content-Typo", false), ("ETag", "ETags", false),
        // Only letters fold: "[" is "{" without 0x20, and "@" is "`".
        ("a[", "a{", false), ("@", "`", false),
        // Past 15 bytes a string is not small: the same comparison on heap storage.
        ("Access-Control-Allow-Origin", "access-control-allow-origin", true),
        ("Access-Control-Allow-Origin", "access-control-allow-origins", false),
    ]

    @Test(arguments: names)
    func namesCompareIgnoringTheCaseOfLettersOnly(a: String, b: String, equal: Bool) {
        #expect(a.equalsIgnoringASCIICase(b) == equal)
        #expect(b.equalsIgnoringASCIICase(a) == equal)
    }

    @Test func lookupFindsAFieldWhateverTheCaseOfItsName() {
        var headers = HTTPHeaders([("content-type", "application/json"), ("ETag", #""a""#)])
        #expect(headers["Content-Type"] == "application/json")
        #expect(headers["etag"] == #""a""#)
        headers.set("CONTENT-TYPE", "text/plain")
        #expect(headers.values("Content-Type") == ["text/plain"])
        #expect(headers.count == 2)
    }
}
