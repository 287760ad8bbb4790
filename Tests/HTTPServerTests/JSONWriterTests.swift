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

    /// Every byte at every place of a word, among bytes that need nothing: the word test flags
    /// exactly the words holding a byte to escape (fillers never carry a borrow).
    @Test func aWordIsFlaggedExactlyWhenOneOfItsBytesNeedsEscaping() {
        for filler: UInt8 in [0x20, 0x61, 0x7E, 0x80, 0xC3, 0xFF] {
            for place in 0..<8 {
                for byte in UInt8.min...UInt8.max {
                    var bytes = [UInt8](repeating: filler, count: 8)
                    bytes[place] = byte
                    let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                    let expected = byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F
                    #expect(JSONWriter.mayNeedEscape(word) == expected, "byte \(byte) at \(place) among \(filler)")
                }
            }
        }
    }

    /// The whole-text check a text takes first: for every length up to 24, false exactly when a
    /// byte at some place needs escaping (the last word overlaps or pads a short text's tail).
    @Test func aTextNeedsNoEscapeExactlyWhenNoneOfItsBytesDoes() {
        for length in 0...24 {
            let clean = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            #expect(clean.withUnsafeBufferPointer { $0.baseAddress.map { JSONWriter.needsNoEscape($0, count: length) } ?? true })
            for place in 0..<length {
                for byte: UInt8 in [0x00, 0x1F, 0x22, 0x5C, 0x7F] {
                    var bytes = clean
                    bytes[place] = byte
                    let found = bytes.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { JSONWriter.needsNoEscape($0, count: length) } }
                    #expect(found == false, "byte \(byte) at \(place) of \(length)")
                }
            }
        }
    }

    /// Strings of every length up to 40 with a byte to escape at each place, against writing
    /// them byte by byte: the word steps and the tail agree with the plain rule.
    @Test func escapingByWordsWritesWhatEscapingByBytesWrites() {
        let specials: [Character] = ["\"", "\\", "\n", "\u{1}", "\u{7F}", "é", "🍮"]
        for length in 0...40 {
            for place in 0...length {
                for special in specials where place < length || special == "é" {
                    var characters = Array(repeating: Character("a"), count: length)
                    if place < length { characters[place] = special }
                    if length > 9 { characters[length - 1] = "\t" }
                    let value = String(characters)
                    var writer = JSONWriter()
                    writer.string(value)
                    #expect(String(decoding: writer.bytes, as: UTF8.self) == Self.escapedByteByByte(value))
                }
            }
        }
    }

    /// Clean texts of every length up to 40, each byte different, written after every length of
    /// text before them (so at every place in the buffer, through its growth): copied exactly.
    @Test func cleanTextsAreCopiedExactlyAtEveryLengthAndPlace() {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
        for before in 0...17 {
            for length in 0...40 {
                let text = Array(letters[0..<length])
                var writer = JSONWriter(capacity: 1)
                writer.beginArray()
                writer.string(String(decoding: letters[0..<before], as: UTF8.self))
                writer.beginString()
                text.withUnsafeBufferPointer { writer.appendToString(utf8: $0) }
                writer.endString()
                writer.endArray()
                let expected = "[\"" + String(decoding: letters[0..<before], as: UTF8.self) + "\",\"" + String(decoding: text, as: UTF8.self) + "\"]"
                #expect(String(decoding: writer.bytes, as: UTF8.self) == expected, "\(before) then \(length)")
            }
        }
    }

    /// Ids (letters, digits, `_`) written verbatim are the bytes the checked path writes, alone
    /// and after a base, between other values.
    @Test(arguments: ["prd_01k2m3n4p5q6r7s8", "a", "", "per_zzzzzzzzzzzzzzzz"])
    func verbatimIdsWriteWhatTheCheckedPathWrites(id: String) {
        var checked = JSONWriter()
        var verbatim = JSONWriter()
        Array(id.utf8).withUnsafeBufferPointer { id in
            checked.beginArray()
            checked.beginString()
            checked.appendToString(utf8: id)
            checked.endString()
            checked.beginString()
            checked.appendToString("/v1/products/")
            checked.appendToString(utf8: id)
            checked.endString()
            checked.endArray()
            verbatim.beginArray()
            verbatim.string(verbatim: id)
            verbatim.string("/v1/products/", verbatim: id)
            verbatim.endArray()
        }
        #expect(verbatim.bytes == checked.bytes)
        #expect(String(decoding: verbatim.bytes, as: UTF8.self) == "[\"\(id)\",\"/v1/products/\(id)\"]")
    }

    static func escapedByteByByte(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A writer is a value: what a copy writes stays out of the original, and the other way round.
    @Test func aCopiedWriterWritesIntoItsOwnBytes() {
        var original = JSONWriter(capacity: 1)
        original.beginArray()
        original.string("a")
        var copy = original
        copy.string("b")
        copy.endArray()
        original.int(1)
        original.endArray()
        #expect(String(decoding: original.bytes, as: UTF8.self) == #"["a",1]"#)
        #expect(String(decoding: copy.bytes, as: UTF8.self) == #"["a","b"]"#)
    }

    /// Growing from the smallest buffer keeps every byte, and rewinding forgets exactly what
    /// came after the mark (the comma state included).
    @Test func growingAndRewindingKeepWhatWasWritten() {
        var writer = JSONWriter(capacity: 1)
        writer.beginArray()
        let long = String(repeating: "x\"y", count: 3_000)
        writer.string(long)
        let mark = writer.mark()
        writer.string("dropped")
        writer.rewind(to: mark)
        writer.int64(-42)
        writer.endArray()
        let expected = "[\"" + String(repeating: #"x\"y"#, count: 3_000) + "\",-42]"
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
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
