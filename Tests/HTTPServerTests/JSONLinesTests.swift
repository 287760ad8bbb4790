import Testing

@testable import HTTPServer

/// What the access log writes lines with: records that do not run into each other, and
/// fixed-point numbers.
@Suite("JSON lines and fixed-point numbers")
struct JSONLinesTests {
    @Test(
        arguments: [
            (0, 3, "0.000"), (999, 3, "0.999"), (1_000, 3, "1.000"), (7_654_321, 3, "7654.321"), (5, 1, "0.5"), (123_456_789, 9, "0.123456789"),
            (UInt64.max, 3, "18446744073709551.615"),
        ] as [(UInt64, Int, String)])
    func decimalsHaveExactlyTheirFractionDigits(units: UInt64, digits: Int, text: String) {
        var writer = JSONWriter()
        writer.decimal(units, fractionDigits: digits)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == text)
    }

    @Test func recordsEndWithANewlineAndTheNextStartsWithoutAComma() {
        var writer = JSONWriter()
        for index in 0..<3 {
            writer.beginObject()
            writer.field("n", index)
            writer.key("ms")
            writer.decimal(UInt64(index) * 1_500, fractionDigits: 3)
            writer.endObject()
            writer.endLine()
        }
        let text = #"{"n":0,"ms":0.000}"# + "\n" + #"{"n":1,"ms":1.500}"# + "\n" + #"{"n":2,"ms":3.000}"# + "\n"
        #expect(String(decoding: writer.bytes, as: UTF8.self) == text)
        #expect(writer.count == text.utf8.count)
        #expect(writer.withUnsafeBytes { Array($0) } == writer.bytes)
    }
}
