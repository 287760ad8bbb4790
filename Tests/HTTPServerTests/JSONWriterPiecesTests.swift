import Testing

@testable import HTTPServer

@Suite("JSONWriter: a string written in pieces is the string written whole")
struct JSONWriterPiecesTests {
    /// Text escaped once, bytes written in place (some needing escapes), and a copy of bytes
    /// written earlier, against the same text as one `string`.
    static let pieces: [(prefix: String, inPlace: String)] = [
        ("Left ", "0.50"), (", Right ", "1,234.5"), ("say \"hi\" ", "a\"b\\c\n"), ("", ""), ("Crème ", "1 234,50 €"),
    ]

    @Test(arguments: pieces)
    func piecesWriteTheSameBytesAsOneString(prefix: String, inPlace: String) {
        var whole = JSONWriter()
        whole.beginArray()
        whole.string(inPlace)
        whole.string(prefix + inPlace)
        whole.endArray()

        var pieces = JSONWriter(capacity: 4)  // small: the writes must grow it
        pieces.beginArray()
        pieces.beginString()
        let start = pieces.count
        let written = pieces.appendToString(room: 64) { buffer in
            let bytes = Array(inPlace.utf8)
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
            return bytes.count
        }
        let cell = start..<pieces.count
        pieces.endString()
        pieces.beginString()
        pieces.appendToString(JSONWriter.EscapedText(prefix))
        pieces.appendToString(copyOf: cell)
        pieces.endString()
        pieces.endArray()

        #expect(written == inPlace.utf8.count)
        #expect(String(decoding: pieces.bytes, as: UTF8.self) == String(decoding: whole.bytes, as: UTF8.self))
    }

    @Test func aWriteThatDeclinesLeavesNothing() {
        var writer = JSONWriter()
        writer.beginString()
        let declined = writer.appendToString(room: 8) { buffer in
            buffer[0] = UInt8(ascii: "x")
            return nil
        }
        writer.endString()
        #expect(declined == nil)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #""""#)
    }

    @Test func aWriteKeepsNoMoreThanItsRoom() {
        var writer = JSONWriter()
        writer.beginString()
        let written = writer.appendToString(room: 2) { buffer in
            buffer[0] = UInt8(ascii: "a")
            buffer[1] = UInt8(ascii: "b")
            return 5
        }
        writer.endString()
        #expect(written == 2)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #""ab""#)
    }
}
