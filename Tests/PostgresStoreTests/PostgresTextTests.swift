import Testing

@testable import Storage

/// Parameters rendered to libpq's text format and results read from it, without a server.
@Suite("PostgreSQL text format")
struct PostgresTextTests {
    static let renderings: [(PostgresValue, String)] = [
        (.text(""), ""), (.text("Grüße"), "Grüße"),
        (.integer(0), "0"), (.integer(-42), "-42"), (.integer(.max), "9223372036854775807"), (.integer(.min), "-9223372036854775808"),
        (.double(0.1), "0.1"), (.double(-0.0), "-0.0"), (.double(1e300), "1e+300"), (.double(Double.leastNonzeroMagnitude), "5e-324"),
        (.double(.infinity), "Infinity"), (.double(-.infinity), "-Infinity"), (.double(.nan), "NaN"),
        (.bytes([]), "\\x"), (.bytes([0, 0xAB, 0xFF]), "\\x00abff"),
        (.boolean(true), "true"), (.boolean(false), "false"),
    ]

    @Test(arguments: renderings)
    func valuesRenderAsPostgreSQLReadsThem(_ value: PostgresValue, _ text: String) throws {
        var buffer: [UInt8] = []
        try value.render(into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == text)
    }

    @Test func aTextWithNULIsRefusedNotCut() {
        #expect(throws: StoreError.self) { try CStringList([.text("a\u{0}b")]) }
    }

    @Test func parametersBecomeCStringsAndNullsNullPointers() throws {
        let list = try CStringList([.integer(7), nil, .text(""), .bytes([1])])
        #expect(list.count == 4)
        let strings = list.withPointers { $0.map { $0.map { String(cString: $0) } } }
        #expect(strings == ["7", nil, "", "\\x01"])
    }

    static func read<T>(_ text: String, _ parse: (UnsafeBufferPointer<UInt8>) -> T?) -> T? {
        Array(text.utf8).withUnsafeBufferPointer { parse($0) }
    }

    @Test(
        arguments: [
            ("0", 0), ("-1", -1), ("0042", 42), ("9223372036854775807", .max), ("-9223372036854775808", .min),
            ("9223372036854775808", nil), ("-9223372036854775809", nil), ("", nil), ("-", nil), ("+1", nil), ("1.5", nil), (" 1", nil), ("1e3", nil),
        ] as [(String, Int64?)])
    func integersAreReadExactlyOrRefused(_ text: String, _ expected: Int64?) {
        #expect(Self.read(text, PostgresText.integer) == expected)
    }

    @Test(
        arguments: [
            ("0.1", 0.1), ("-0", -0.0), ("1e+300", 1e300), ("4.9406564584124654e-324", Double.leastNonzeroMagnitude), ("Infinity", .infinity),
            ("-Infinity", -.infinity),
            ("", nil), (" 1", nil), ("+1", nil), ("one", nil),
        ] as [(String, Double?)])
    func doublesAreReadExactlyOrRefused(_ text: String, _ expected: Double?) {
        #expect(Self.read(text, PostgresText.double)?.bitPattern == expected?.bitPattern)
    }

    @Test func nanIsRead() {
        #expect(Self.read("NaN", PostgresText.double)?.isNaN == true)
    }

    @Test(
        arguments: [
            ("\\x", []), ("\\x00ff", [0, 0xFF]), ("\\xABcd", [0xAB, 0xCD]),
            ("\\x0", nil), ("\\xzz", nil), ("x00", nil), ("\\000", nil), ("", nil),
        ] as [(String, [UInt8]?)])
    func byteaHexIsReadOrRefused(_ text: String, _ expected: [UInt8]?) {
        #expect(Self.read(text, PostgresText.bytes) == expected)
    }

    @Test(arguments: [("t", true), ("f", false), ("true", nil), ("", nil)] as [(String, Bool?)])
    func booleansAreReadOrRefused(_ text: String, _ expected: Bool?) {
        #expect(Self.read(text, PostgresText.boolean) == expected)
    }
}
