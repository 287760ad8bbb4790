import Definitions
import Domain
import Foundation
import HTTPServer
import Storage
import Testing

@testable import APIServer

@Suite("Cursors and change tokens (pure)", .runsOnce("no store"))
struct TokenTests {
    let signer = TokenSigner(key: Array(repeating: 7, count: 32))

    func shape(sort: String = "name", search: String? = nil, collection name: String = "products") throws -> CatalogShape {
        let catalog = try DefinitionLoader.demo()
        let collection = try #require(catalog.collection(named: name))
        var options = try ListParameters.parse([], for: collection, catalog: catalog)
        options.sort = try ListParameters.parseSort(sort, for: collection)
        options.search = search
        return CatalogShape(collection: ServedCollection(collection, catalog: catalog), parent: nil, parameters: options)
    }

    static let positions: [[SortValue]] = [
        [.text("keyboard"), .text("prd_01hx0000000000000")],
        [.integer(12_000), .text("prd_01")],
        [.integer(-5), .integer(Int64.max), .text("")],
        [.text("José «é» 🎹"), .text("x")],
    ]

    @Test(arguments: positions)
    func cursorRoundTrips(values: [SortValue]) throws {
        let shape = try shape()
        let token = Cursor.seal(after: values, shape: shape, signer: signer)
        #expect(try Cursor.open(token, shape: shape, signer: signer) == .after(values))
        #expect(token.utf8.allSatisfy { $0 == 45 || $0 == 95 || ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) })
        // A cursor to the page before a position keeps its direction.
        let back = Cursor.seal(before: values, shape: shape, signer: signer)
        #expect(back != token)
        #expect(try Cursor.open(back, shape: shape, signer: signer) == .before(values))
    }

    @Test func cursorOfAnotherQueryIsRefused() throws {
        let token = Cursor.seal(after: [.text("a"), .text("b")], shape: try shape(), signer: signer)
        for other in [try shape(sort: "-name"), try shape(search: "key"), try shape(sort: "familyName", collection: "people")] {
            #expect(throws: HTTPError.self) { try Cursor.open(token, shape: other, signer: signer) }
        }
    }

    @Test func editedTruncatedOrForeignCursorsAreRefused() throws {
        let shape = try shape()
        let token = Cursor.seal(after: [.text("a"), .text("b")], shape: shape, signer: signer)
        var edited = Array(token.utf8)
        edited[edited.count / 2] = edited[edited.count / 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let foreign = Cursor.seal(after: [.text("a"), .text("b")], shape: shape, signer: TokenSigner(key: Array(repeating: 8, count: 32)))
        for bad in [String(decoding: edited, as: UTF8.self), String(token.dropLast(3)), "garbage", "", "%%%%", foreign, token + "A"] {
            do {
                _ = try Cursor.open(bad, shape: shape, signer: signer)
                Issue.record("accepted \(bad)")
            } catch {
                #expect(error.code == "INVALID_CURSOR")
            }
        }
    }

    @Test func changeTokenRoundTripsAndIsBoundToItsCollection() throws {
        let token = ChangeToken.seal(collection: "products", after: 4_242, signer: signer)
        #expect(try ChangeToken.open(token, collection: "products", signer: signer) == 4_242)
        for (bad, collection) in [(token, "people"), ("nope", "products"), (String(token.dropLast()), "products")] {
            do {
                _ = try ChangeToken.open(bad, collection: collection, signer: signer)
                Issue.record("accepted \(bad)")
            } catch {
                #expect(error.code == "INVALID_TOKEN")
            }
        }
    }

    static let ifMatch: [(String?, EntityTag.Precondition?)] = [
        (nil, nil),
        ("*", .any),
        ("\"v12.en-US\"", .versions([12])),
        ("\"v12.de-DE\", \"v13.en-US\"", .versions([12, 13])),
        ("W/\"v12.en-US\"", .versions([])),
        ("\"l0123\"", .versions([])),
        ("garbage", .versions([])),
        ("\"v.en-US\"", .versions([])),
        ("\"v99999999999999999999.en-US\"", .versions([])),
    ]

    @Test(arguments: ifMatch)
    func ifMatchParsing(header: String?, expected: EntityTag.Precondition?) {
        #expect(EntityTag.parseIfMatch(header) == expected)
    }

    @Test(arguments: [
        (Int64(0), RenderLocale.enUS, #""v0.en-US""#), (42, .deDE, #""v42.de-DE""#),
        (999_999_999_999_999_999, .enUS, #""v999999999999999999.en-US""#),
    ])
    func aDetailTagNamesItsVersionAndLocaleAndParsesBack(version: Int64, locale: RenderLocale, tag: String) {
        #expect(EntityTag.detail(version: version, locale: locale) == tag)
        #expect(EntityTag.parseIfMatch(tag) == .versions([version]))
    }

    // Found by fuzzing: spellings whose bits after the last byte are not zero decoded too ("AB"
    // and "AA" were both [0]), so every cursor and change token had 4 or 16 spellings that opened.
    @Test(arguments: ["AB", "AP", "_x", "-_9", "AQJ", "aGVsbG8gd29ybGR", "garbage"])
    func base64URLRefusesNonzeroTrailingBits(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test(arguments: ["A", "AAAAA", "AA==", "AAA=", "AA.A", "AAAA AAAA", "AAAAé", "+/AA", "AAAA\u{0}"])
    func base64URLRefusesPaddingOtherDigitsAndLengthsLeavingSpareBits(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test func tokensHaveOneSpelling() throws {
        let shape = try shape()
        let cursor = Cursor.seal(after: [.text("keyboard"), .text("prd_01")], shape: shape, signer: signer)
        let change = ChangeToken.seal(collection: "products", after: 4_242, signer: signer)
        let digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        let cursors = digits.map { String(cursor.dropLast()) + String($0) }.filter { (try? Cursor.open($0, shape: shape, signer: signer)) != nil }
        let changes = digits.map { String(change.dropLast()) + String($0) }.filter {
            (try? ChangeToken.open($0, collection: "products", signer: signer)) != nil
        }
        #expect(cursors == [cursor])
        #expect(changes == [change])
    }

    static let base64URL: [([UInt8], String)] = [
        ([], ""), ([0], "AA"), ([0xFF], "_w"), ([0xFB, 0xFF], "-_8"), ([1, 2, 3], "AQID"), ([0xFF, 0xFF, 0xFE], "___-"),
        (Array("hello world".utf8), "aGVsbG8gd29ybGQ"),
    ]

    @Test(arguments: base64URL)
    func base64URLEncodesWithoutPaddingAndDecodesBack(bytes: [UInt8], text: String) {
        #expect(Base64URL.encode(bytes) == text)
        #expect(Base64URL.decode(text) == bytes)
    }

    /// Every length to 64, seeded bytes: the same text as Foundation's base64 with the URL
    /// alphabet and no padding, and back.
    @Test func base64URLAgreesWithFoundationForEveryLength() {
        var generator = SeededBytes(seed: 0x5EED)
        for length in 0...64 {
            let bytes = (0..<length).map { _ in generator.next() }
            let foundation = String(
                Data(bytes).base64EncodedString().compactMap { character -> Character? in
                    switch character {
                    case "+": "-"
                    case "/": "_"
                    case "=": nil
                    default: character
                    }
                })
            #expect(Base64URL.encode(bytes) == foundation, "length \(length)")
            #expect(Base64URL.decode(foundation) == bytes, "length \(length)")
        }
    }

    /// A small fixed generator: the same bytes every run.
    struct SeededBytes {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    @Test(arguments: ["A", "AA=", "AA+", "AA/", "A A", "AAAAA", "é", "AA\u{0}"])
    func base64URLRefusesWhatItNeverProduces(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    static let ifNoneMatch: [(String?, Bool)] = [
        ("\"labc\"", true), ("W/\"labc\"", true), ("\"x\", \"labc\"", true), ("*", true), (" * ", true),
        ("\"x\",\t W/\"labc\" \t", true), (",, \"labc\",", true), ("\"x\", *", true),
        ("\"labd\"", false), (nil, false), ("", false), ("labc", false), ("\"labc", false), ("w/\"labc\"", false),
        ("\"LABC\"", false), ("\"labc\"x", false), ("**", false), ("W/", false), (",", false),
    ]

    @Test(arguments: ifNoneMatch)
    func ifNoneMatchUsesWeakComparison(header: String?, hits: Bool) {
        #expect(EntityTag.noneMatchHits(header, current: "\"labc\"") == hits)
    }

    static let encodings: [(String, String)] = [
        ("abc-_.~", "abc-_.~"), ("a b", "a%20b"), ("José", "Jos%C3%A9"), ("a&b=c", "a%26b%3Dc"), ("+", "%2B"),
        ("", ""), ("%", "%25"), ("AcZj481qfXuuAgAAAAATYWRq_-", "AcZj481qfXuuAgAAAAATYWRq_-"),
    ]

    @Test(arguments: encodings)
    func linksPercentEncodeValues(raw: String, encoded: String) {
        #expect(ListLinks.percentEncode(raw) == encoded)
    }
}
