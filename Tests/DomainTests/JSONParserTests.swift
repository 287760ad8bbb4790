import Testing

@testable import Domain

@Suite("Strict JSON parser")
struct JSONParserTests {
    static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    static let validDocuments: [(String, JSONValue)] = [
        ("{}", .object([])),
        ("[]", .array([])),
        (
            " \t\r\n[ 1 , -0 , 1.5e+3 ]\n",
            .array([.number(JSONNumber(validatedText: "1")), .number(JSONNumber(validatedText: "-0")), .number(JSONNumber(validatedText: "1.5e+3"))])
        ),
        ("\"a\"", .string("a")),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("null", .null),
        ("{\"b\":1,\"a\":[null,{}]}", .object([JSONMember("b", .integer(1)), JSONMember("a", .array([.null, .object([])]))])),
        (#""\"\\\/\b\f\n\r\t""#, .string("\"\\/\u{8}\u{C}\n\r\t")),
        (#""\u00e9\u00E9é""#, .string("ééé")),
        (#""\ud83d\ude00😀""#, .string("😀😀")),
        (#""\u0000""#, .string("\u{0}")),
        ("\"\u{7F}\"", .string("\u{7F}")),
        (#"{"":0}"#, .object([JSONMember("", .integer(0))])),
        (#"{"a":1,"A":2}"#, .object([JSONMember("a", .integer(1)), JSONMember("A", .integer(2))])),
        ("1e-400", .number(JSONNumber(validatedText: "1e-400"))),
        (String(repeating: "[", count: 32) + String(repeating: "]", count: 32), nested(32)),
    ]

    static func nested(_ depth: Int) -> JSONValue {
        depth == 1 ? .array([]) : .array([nested(depth - 1)])
    }

    @Test(arguments: validDocuments)
    func validDocumentsParseInOrder(_ text: String, _ expected: JSONValue) throws {
        #expect(try Self.parse(text) == expected)
    }

    static let malformed: [String] = [
        "", "   ", "{", "[", "[1,]", "{\"a\":1,}", "{,}", "'a'", "NaN", "Infinity", "+1", ".5", "1.", "1e", "1e+", "-", "--1",
        "01", "-01", "00", "0x10", "tru", "nul", "True", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "{a:1}", "{\"a\" 1}", "{1:2}",
        "/* c */ {}", "{} // c", "{} x", "1 2", "{}}", "[]]", "\u{FEFF}{}",
        "1e400", "-1e400", "1e999999999999999999", "123456789e999",
        "\"a\tb\"", "\"a\nb\"", "\"\u{0}\"", "\"\u{1F}\"",
        #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\ud800x""#, #""\udbff\udbff""#, #""a\ud834""#,
    ]

    @Test(arguments: malformed)
    func malformedInputIsRefused(_ text: String) {
        #expect {
            try Self.parse(text)
        } throws: { error in
            (error as? JSONParseError)?.kind == .malformed
        }
    }

    static let duplicates: [(String, String)] = [
        (#"{"a":1,"a":2}"#, "/a"),
        (#"{"a":1,"b":2,"a":1}"#, "/a"),
        (#"{"x":{"a":1,"a":2}}"#, "/x/a"),
        (#"[{"a":1},{"b":1,"b":2}]"#, "/1/b"),
        (#"{"p":[0,{"q":{"r":[{"k":1,"k":1}]}}]}"#, "/p/1/q/r/0/k"),
        (#"{"a/b":{"~":1,"~":2}}"#, "/a~1b/~0"),
        ("{\"\\u0061\":1,\"a\":2}", "/a"),
        ("{\"\u{E9}\":1,\"e\u{301}\":2}", "/\u{E9}"),
    ]

    @Test(arguments: duplicates)
    func duplicateKeysAreRefusedAtAnyDepth(_ text: String, _ pointer: String) {
        #expect {
            try Self.parse(text)
        } throws: { error in
            (error as? JSONParseError)?.kind == .duplicateKey(pointer: pointer)
        }
    }

    static let badUTF8: [([UInt8], Int)] = [
        ([0x22, 0xC3, 0x28, 0x22], 1),  // bad continuation
        ([0x22, 0xC0, 0xAF, 0x22], 1),  // overlong "/"
        ([0x22, 0xE0, 0x80, 0xAF, 0x22], 1),  // overlong, 3 bytes
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),  // encoded surrogate
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // past U+10FFFF
        ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1),
        ([0x22, 0x61, 0xE2, 0x82], 2),  // truncated at the end
        ([0x22, 0x80, 0x22], 1),  // lone continuation
        ([0xFF], 0),
        ([0x7B, 0x7D, 0x20, 0xFE], 3),  // after a complete document: still a UTF-8 error
    ]

    @Test(arguments: badUTF8)
    func invalidUTF8IsRefusedWithItsOffset(_ bytes: [UInt8], _ offset: Int) {
        #expect {
            try JSONParser.parse(bytes)
        } throws: { error in
            let error = error as? JSONParseError
            return error?.kind == .invalidUTF8 && error?.offset == offset
        }
    }

    @Test(arguments: [
        String(repeating: "[", count: 33) + String(repeating: "]", count: 33),
        String(repeating: "{\"a\":", count: 33) + "1" + String(repeating: "}", count: 33),
        String(repeating: "[{\"a\":", count: 17) + "1" + String(repeating: "}]", count: 17),
        String(repeating: "[", count: 100_000),
    ])
    func nestingDeeperThan32IsRefused(_ text: String) {
        #expect {
            try Self.parse(text)
        } throws: { error in
            (error as? JSONParseError)?.kind == .tooDeep
        }
    }

    static let integers: [(String, Int64?)] = [
        ("12", 12), ("12.0", 12), ("1.2e1", 12), ("1200e-2", 12), ("0.12E+2", 12), ("12.5", nil), ("-0", 0), ("0.000", 0),
        ("0e999999", 0), ("9223372036854775807", .max), ("9223372036854775808", nil), ("-9223372036854775808", .min),
        ("-9223372036854775809", nil), ("1e18", 1_000_000_000_000_000_000), ("1e19", nil), ("1e-400", nil), ("0.05", nil),
        ("100000000000000000000e-2", 1_000_000_000_000_000_000),
    ]

    @Test(arguments: integers)
    func integersAreExactFromTheDigits(_ text: String, _ expected: Int64?) throws {
        guard case .number(let number) = try Self.parse(text) else {
            Issue.record("not a number")
            return
        }
        #expect(number.int64 == expected)
    }
}
