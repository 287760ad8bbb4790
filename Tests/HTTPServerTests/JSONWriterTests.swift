import Testing

@testable import HTTPServer

@Suite("JSONWriter: strings escaped as JSON requires, runs copied whole")
struct JSONWriterTests {
    static let strings: [(String, String)] = [
        ("", #""""#),
        ("plain", #""plain""#),
        ("a/b", #""a/b""#),
        ("say \"hi\"", #""say \"hi\"""#),
        ("back\\slash", #""back\\slash""#),
        ("line\nbreak\r\ttab", #""line\nbreak\r\ttab""#),
        ("\u{0}\u{1}\u{1F}\u{7F}", #""\u0000\u0001\u001f\u007f""#),
        ("\"", #""\"""#),
        ("end\\", #""end\\""#),
        ("Crème brûlée 🍮 東京", "\"Crème brûlée 🍮 東京\""),
        ("\u{2028}", "\"\u{2028}\""),
    ]

    @Test(arguments: strings)
    func stringsAreEscaped(value: String, json: String) {
        var writer = JSONWriter()
        writer.string(value)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == json)
    }

    @Test func keysAreEscapedLikeValues() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("a\"b", "c\nd")
        writer.field("n", 3)
        writer.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"a\"b":"c\nd","n":3}"#)
    }
}
