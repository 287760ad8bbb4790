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

    static let integers: [Int64] = [0, 7, -7, 10, 99, 100, -100, 4_999, 1_000_000, Int64(Int32.max), Int64.max, Int64.min, Int64.min + 1]

    @Test(arguments: integers)
    func integersAreWrittenAsSwiftSpellsThem(value: Int64) {
        var writer = JSONWriter()
        writer.int64(value)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
        var small = JSONWriter()
        small.int(Int(value))
        #expect(small.bytes == writer.bytes)
    }

    @Test func keysAreEscapedLikeValues() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("a\"b", "c\nd")
        writer.field("n", 3)
        writer.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"a\"b":"c\nd","n":3}"#)
    }

    @Test func encodedKeysWriteTheSameBytesAsKeysFromStrings() {
        var fromStrings = JSONWriter()
        fromStrings.beginObject()
        fromStrings.field("id", "a")
        fromStrings.field("say \"hi\"", nil)
        fromStrings.key("detail")
        fromStrings.string("/v1/x/", "a")
        fromStrings.endObject()
        var fromKeys = JSONWriter()
        fromKeys.beginObject()
        fromKeys.field(JSONWriter.Key("id"), "a")
        fromKeys.field(JSONWriter.Key("say \"hi\""), nil)
        fromKeys.key(JSONWriter.Key("detail"))
        fromKeys.string("/v1/x/", "a")
        fromKeys.endObject()
        #expect(fromKeys.bytes == fromStrings.bytes)
        #expect(String(decoding: fromKeys.bytes, as: UTF8.self) == #"{"id":"a","say \"hi\"":null,"detail":"/v1/x/a"}"#)
    }

    static let joined: [(String, String, String)] = [("/v1/p/", "prd_1", #""/v1/p/prd_1""#), ("", "", #""""#), ("a\"", "\nb", #""a\"\nb""#)]

    @Test(arguments: joined)
    func twoStringsWriteAsOne(first: String, second: String, json: String) {
        var writer = JSONWriter()
        writer.string(first, second)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == json)
    }
}
