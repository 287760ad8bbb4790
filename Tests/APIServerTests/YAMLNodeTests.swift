import Domain
import Testing

@testable import APIServer

/// The YAML the OpenAPI document is written in, and the bound texts it writes back.
@Suite("YAML emitting and OpenAPI values", .runsOnce("no store"))
struct YAMLNodeTests {
    static let layouts: [(YAMLNode, String)] = [
        (["a": "b"], "a: \"b\"\n"),
        (["200": 1, "$ref": true, "null": .null, "X-Request-ID": "x"], "\"200\": 1\n\"$ref\": true\n\"null\": null\nX-Request-ID: \"x\"\n"),
        (["empty": [:], "none": []], "empty: {}\nnone: []\n"),
        (["list": ["a", ["k": "v", "w": 1]]], "list:\n  - \"a\"\n  - k: \"v\"\n    w: 1\n"),
        (["nested": [["a", "b"]]], "nested:\n  - - \"a\"\n    - \"b\"\n"),
        (["n": .number("12.5"), "i": -3], "\"n\": 12.5\ni: -3\n"),
        (["yes": "no", "on": "1"], "\"yes\": \"no\"\n\"on\": \"1\"\n"),
    ]

    @Test(arguments: layouts)
    func writesBlockStyle(node: YAMLNode, expected: String) {
        #expect(node.yaml == expected)
    }

    @Test(arguments: [
        ("plain", "\"plain\""),
        ("say \"hi\"\\", "\"say \\\"hi\\\"\\\\\""),
        ("a\nb\tc", "\"a\\nb\\tc\""),
        ("nul\u{0}del\u{7F}", "\"nul\\u0000del\\u007f\""),
        ("line\u{2028}sep", "\"line\\u2028sep\""),
        ("商品 ✓", "\"商品 ✓\""),
    ])
    func quotesWithJSONEscapes(text: String, expected: String) {
        #expect(YAMLNode.quoted(text) == expected)
    }

    @Test(arguments: [
        (Int64(1250), 2, "12.5"), (1200, 2, "12"), (5, 3, "0.005"), (-75, 1, "-7.5"), (42, 0, "42"), (0, 2, "0"), (1_250_000, 3, "1250"),
    ])
    func writesDecimalsInTheirUnits(scaled: Int64, scale: Int, expected: String) {
        #expect(OpenAPIBuilder.decimalText(scaled, scale: scale) == expected)
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01"), (-1, "1969-12-31"), (18262, "2020-01-01"), (11016, "2000-02-29"), (-719_468, "0000-03-01"),
    ])
    func writesDaysAsDates(days: Int64, expected: String) {
        #expect(DateText.text(days: days) == expected)
    }

    @Test func writesMillisecondsAsUTCInstants() {
        #expect(DateText.rfc3339(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(DateText.rfc3339(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(DateText.rfc3339(milliseconds: 1_795_539_600_123) == "2026-11-24T17:00:00.123Z")
    }

    @Test func enumeratesEverySortExpression() {
        #expect(
            OpenAPIBuilder.sortExpressions(["a", "b"]) == ["a", "-a", "b", "-b", "a,b", "a,-b", "-a,b", "-a,-b", "b,a", "b,-a", "-b,a", "-b,-a"])
        #expect(OpenAPIBuilder.sortExpressions(["a", "b", "c"]).count == OpenAPIBuilder.sortExpressionCount(3))
        #expect(OpenAPIBuilder.sortExpressionCount(3) == 78)
        #expect(OpenAPIBuilder.sortExpressionCount(4) > OpenAPIBuilder.maximumSortEnumeration)
        #expect(OpenAPIBuilder.sortExpressionCount(40) > OpenAPIBuilder.maximumSortEnumeration)
    }

    @Test func nullableAddsNullToTypeAndEnum() {
        let node = OpenAPIBuilder.nullable(["type": "string", "enum": ["a"]])
        #expect(node["type"]?.elements.compactMap(\.stringValue) == ["string", "null"])
        #expect(node["enum"]?.elements.count == 2)
        #expect(OpenAPIBuilder.nullable(OpenAPIBuilder.nullableString)["type"]?.elements.count == 2)
    }
}
