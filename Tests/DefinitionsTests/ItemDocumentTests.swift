import Definitions
import Testing

@testable import Domain

/// The write rules of the demo definition, as the hand-written decoder enforced them: each
/// rule reports its field's pointer, in the same order.
@Suite("Item documents: each rule of a definition reports its field's pointer")
struct ItemDocumentTests {
    static let catalog: Catalog? = try? DefinitionLoader.demo()
    static let departmentID = "dep_0000000000000001"

    static func collection(_ name: String) throws -> CollectionDefinition {
        let catalog = try #require(catalog)
        return try #require(catalog.collection(named: name))
    }

    static func decode(_ name: String, _ text: String, mode: ItemDocument.Mode? = nil) throws -> ItemDocument.Outcome {
        let collection = try collection(name)
        let id = EntityID(kind: collection.kind, timestampMilliseconds: 1, randomBits: 1)
        return ItemDocument.decode(try JSONParser.parse(Array(text.utf8)), in: collection, catalog: try #require(catalog), mode: mode ?? .create(id))
    }

    static func repeated(_ text: String, _ count: Int) -> String { String(repeating: text, count: count) }

    static let product = #"{"name":"Lamp","shortDescription":"Bright","longDescription":"Very bright","price":{"minorUnits":1999,"currency":"USD"}}"#

    /// (collection, body, the pointers that fail, in order). An empty list means the body is valid.
    static let cases: [(String, String, [String])] = [
        ("products", product, []),
        ("products", #"{"name":"Lamp","price":{"minorUnits":0,"currency":"JPY"}}"#, []),
        ("products", #"{"name":"Lamp","price":{"minorUnits":12.0,"currency":"USD"}}"#, []),
        // The demo bounds USD, EUR, GBP and JPY per currency; other currencies only by the minimum.
        ("products", #"{"name":"Lamp","price":{"minorUnits":1000000000000000,"currency":"KWD"}}"#, []),
        ("products", #"{"name":"Lamp","price":{"minorUnits":100000000,"currency":"USD"}}"#, []),
        ("products", #"{"name":"Lamp","price":{"minorUnits":100000001,"currency":"USD"}}"#, ["/price/minorUnits"]),
        ("products", #"{"name":"Lamp","price":{"minorUnits":100000000,"currency":"JPY"}}"#, []),
        ("products", #"{"name":"Lamp","price":{"minorUnits":100000001,"currency":"JPY"}}"#, ["/price/minorUnits"]),
        ("products", #"{"name":"Lamp","price":{"minorUnits":-1,"currency":"KWD"}}"#, ["/price/minorUnits"]),
        // Lengths count Unicode scalars, as JSON Schema's maxLength: 👍🏽 is two.
        ("products", #"{"name":"\#(repeated("👍🏽", 100))","price":{"minorUnits":1,"currency":"USD"}}"#, []),
        ("products", #"{"name":"\#(repeated("é", 200))","price":{"minorUnits":1,"currency":"USD"}}"#, []),
        ("products", #"{"price":{"minorUnits":1,"currency":"USD"}}"#, ["/name"]),
        ("products", #"{"name":null,"price":{"minorUnits":1,"currency":"USD"}}"#, ["/name"]),
        ("products", #"{"name":"","price":{"minorUnits":1,"currency":"USD"}}"#, ["/name"]),
        ("products", #"{"name":" \n\t\u3000","price":{"minorUnits":1,"currency":"USD"}}"#, ["/name"]),
        ("products", #"{"name":"\#(repeated("a", 201))","price":{"minorUnits":1,"currency":"USD"}}"#, ["/name"]),
        ("products", #"{"name":"\#(repeated("👍🏽", 101))","price":{"minorUnits":1,"currency":"USD"}}"#, ["/name"]),
        ("products", #"{"name":"La\u0000mp","price":{"minorUnits":1,"currency":"USD"}}"#, ["/name"]),
        ("products", #"{"name":5,"price":{"minorUnits":1,"currency":"USD"}}"#, ["/name"]),
        ("products", #"{"name":"L","shortDescription":"\#(repeated("s", 501))","price":{"minorUnits":1,"currency":"USD"}}"#, ["/shortDescription"]),
        ("products", #"{"name":"L","longDescription":"\#(repeated("l", 10_001))","price":{"minorUnits":1,"currency":"USD"}}"#, ["/longDescription"]),
        ("products", #"{"name":"L","longDescription":["x"],"price":{"minorUnits":1,"currency":"USD"}}"#, ["/longDescription"]),
        ("products", #"{"name":"L"}"#, ["/price"]),
        ("products", #"{"name":"L","price":1999}"#, ["/price"]),
        ("products", #"{"name":"L","price":{"minorUnits":-1,"currency":"USD"}}"#, ["/price/minorUnits"]),
        ("products", #"{"name":"L","price":{"minorUnits":1000000000000001,"currency":"USD"}}"#, ["/price/minorUnits"]),
        ("products", #"{"name":"L","price":{"minorUnits":1.5,"currency":"USD"}}"#, ["/price/minorUnits"]),
        ("products", #"{"name":"L","price":{"minorUnits":1e20,"currency":"USD"}}"#, ["/price/minorUnits"]),
        ("products", #"{"name":"L","price":{"minorUnits":"100","currency":"USD"}}"#, ["/price/minorUnits"]),
        ("products", #"{"name":"L","price":{"currency":"USD"}}"#, ["/price/minorUnits"]),
        ("products", #"{"name":"L","price":{"minorUnits":1,"currency":"XYZ"}}"#, ["/price/currency"]),
        ("products", #"{"name":"L","price":{"minorUnits":1,"currency":"usd"}}"#, ["/price/currency"]),
        ("products", #"{"name":"L","price":{"minorUnits":1}}"#, ["/price/currency"]),
        ("products", #"{"name":"L","price":{"minorUnits":1,"currency":"USD","amount":1}}"#, ["/price/amount"]),
        ("products", #"{"name":"L","price":{"minorUnits":1,"currency":"USD","formatted":"$0.01"}}"#, ["/price/formatted"]),
        ("products", #"{"nmae":"L","price":{"minorUnits":1,"currency":"USD"}}"#, ["/nmae", "/name"]),
        ("products", #"{"name":"L","links":{},"price":{"minorUnits":1,"currency":"USD"}}"#, ["/links"]),
        ("products", #"{"id":"prd_0000000000000001","name":"L","price":{"minorUnits":1,"currency":"USD"}}"#, ["/id"]),
        ("products", #"{"a/b":1,"name":"L","price":{"minorUnits":1,"currency":"USD"}}"#, ["/a~1b"]),
        ("products", #"[]"#, [""]),
        ("products", #"null"#, [""]),
        (
            "products", #"{"name":"","shortDescription":1,"price":{"minorUnits":-5,"currency":"EURO"}}"#,
            ["/name", "/shortDescription", "/price/minorUnits", "/price/currency"]
        ),

        ("departments", #"{"name":"Sales"}"#, []),
        ("departments", #"{}"#, ["/name"]),
        ("departments", #"{"name":"\#(repeated("d", 101))"}"#, ["/name"]),
        ("departments", #"{"name":"Sales","people":[]}"#, ["/people"]),

        ("people", person(), []),
        ("people", person(phone: "+1 (408) 555-43.01"), []),
        ("people", person(given: ""), ["/givenName"]),
        ("people", person(family: repeated("f", 101)), ["/familyName"]),
        ("people", person(email: "ada.example.com"), ["/emailAddress"]),
        ("people", person(email: "ada@@example.com"), ["/emailAddress"]),
        ("people", person(email: "@example.com"), ["/emailAddress"]),
        ("people", person(email: "ada@"), ["/emailAddress"]),
        ("people", person(email: "ada lovelace@example.com"), ["/emailAddress"]),
        ("people", person(email: repeated("a", 243) + "@example.com"), ["/emailAddress"]),
        ("people", person(phone: "555-CALL"), ["/phoneNumber"]),
        ("people", person(phone: "()"), ["/phoneNumber"]),
        ("people", person(phone: repeated("5", 41)), ["/phoneNumber"]),
        ("people", person(phone: ""), ["/phoneNumber"]),
        ("people", person(department: "dep_x"), ["/departmentID"]),
        ("people", person(department: "prd_0000000000000001"), ["/departmentID"]),
        ("people", #"{"givenName":"Ada","familyName":"Lovelace","emailAddress":"a@b","phoneNumber":"1"}"#, ["/departmentID"]),
        (
            "people",
            #"{"givenName":"Ada","familyName":"L","fullName":"Ada L","emailAddress":"a@b","phoneNumber":"1","departmentID":"dep_0000000000000001"}"#,
            ["/fullName"]
        ),

        ("articles", #"{"headline":"News"}"#, []),
        ("articles", #"{"headline":"  ","markdown":"x"}"#, ["/headline"]),
        ("articles", #"{"headline":"News","markdown":"\#(repeated("m", 100_001))"}"#, ["/markdown"]),
        ("articles", #"{"headline":"News","preview":"x"}"#, ["/preview"]),

        ("documents", #"{"title":"Memo","body":"Text"}"#, []),
        ("documents", #"{"title":"\#(repeated("t", 201))"}"#, ["/title"]),
        ("documents", #"{"title":"Memo","body":"\#(repeated("b", 100_001))"}"#, ["/body"]),
        ("documents", #"{"title":"Memo","body":true}"#, ["/body"]),

        ("tracks", #"{"title":"Song","channels":[{"name":"Left"},{"name":"Right"}]}"#, []),
        ("tracks", #"{"title":"Song"}"#, ["/channels"]),
        ("tracks", #"{"title":"Song","channels":[]}"#, ["/channels"]),
        ("tracks", #"{"title":"Song","channels":[\#(Array(repeating: #"{"name":"C"}"#, count: 17).joined(separator: ","))]}"#, ["/channels"]),
        ("tracks", #"{"title":"Song","channels":[{"name":""}]}"#, ["/channels/0/name"]),
        ("tracks", #"{"title":"Song","channels":[{"name":"L"},{"name":"\#(repeated("c", 51))"}]}"#, ["/channels/1/name"]),
        ("tracks", #"{"title":"Song","channels":[{"name":"L","id":"chn_0000000000000001"}]}"#, ["/channels/0/id"]),
        ("tracks", #"{"title":"Song","channels":["Left"]}"#, ["/channels/0"]),
        ("tracks", #"{"title":"Song","channels":[{"name":"L","gain":1}]}"#, ["/channels/0/gain"]),
        ("tracks", #"{"title":"","channels":{"name":"L"}}"#, ["/title", "/channels"]),

        ("samples", #"{"timestampMilliseconds":1}"#, [""]),
    ]

    static func person(
        given: String = "Ada", family: String = "Lovelace", email: String = "ada@example.com", phone: String = "(408) 555-4301",
        department: String = departmentID
    ) -> String {
        #"{"givenName":"\#(given)","familyName":"\#(family)","emailAddress":"\#(email)","phoneNumber":"\#(phone)","departmentID":"\#(department)"}"#
    }

    @Test(arguments: cases)
    func eachRuleFailsAtItsPointer(_ collection: String, _ body: String, _ pointers: [String]) throws {
        let outcome = try Self.decode(collection, body)
        #expect(outcome.problems.map(\.pointer) == pointers)
        #expect((outcome.item == nil) == !pointers.isEmpty)
    }

    @Test func aValidProductIsItsValuesInSlotOrderWithTheNewID() throws {
        let products = try Self.collection("products")
        let outcome = try Self.decode("products", Self.product)
        let expected = Item(
            id: EntityID(kind: products.kind, timestampMilliseconds: 1, randomBits: 1), in: products,
            [
                "name": .text("Lamp"), "shortDescription": .text("Bright"), "longDescription": .text("Very bright"),
                "price": .money(Money(minorUnits: 1999, currency: "USD")),
            ])
        #expect(outcome.item == expected)
    }

    @Test func absentOptionalTextsTakeTheirDefaults() throws {
        let articles = try Self.collection("articles")
        let outcome = try Self.decode("articles", #"{"headline":"News","markdown":null}"#)
        #expect(outcome.item?.value(of: "markdown", in: articles) == .text(""))
    }

    @Test func aPersonsDepartmentIsAReferenceToCheck() throws {
        let outcome = try Self.decode("people", Self.person())
        let department = try #require(EntityID(parsing: Self.departmentID))
        #expect(outcome.references == [.init(pointer: "/departmentID", collection: "departments", id: department)])
    }

    @Test func newNamesGetDistinctIDsOfTheirPrefix() throws {
        let tracks = try Self.collection("tracks")
        let outcome = try Self.decode("tracks", #"{"title":"Song","channels":[{"name":"L"},{"name":"R"},{"name":"C"}]}"#)
        let channels = try #require(outcome.item?.value(of: "channels", in: tracks).names)
        #expect(channels.map(\.name) == ["L", "R", "C"])
        #expect(Set(channels.map(\.id)).count == 3)
        #expect(channels.allSatisfy { $0.id.kind.rawValue == "chn" })
    }

    // MARK: - Replacing (PATCH)

    static func track() throws -> Item {
        let tracks = try collection("tracks")
        let chn = try #require(EntityKind(prefix: "chn"))
        return Item(
            id: EntityID(kind: tracks.kind, timestampMilliseconds: 5, randomBits: 5), in: tracks,
            [
                "title": .text("Song"),
                "channels": .names([
                    NamedEntry(id: EntityID(kind: chn, timestampMilliseconds: 1, randomBits: 1), name: "Left"),
                    NamedEntry(id: EntityID(kind: chn, timestampMilliseconds: 1, randomBits: 2), name: "Right"),
                ]),
            ])
    }

    static func patched(_ patch: String, _ item: Item, in name: String) throws -> ItemDocument.Outcome {
        let collection = try collection(name)
        let document = MergePatch.apply(try JSONParser.parse(Array(patch.utf8)), to: ItemDocument.writable(item, in: collection))
        return ItemDocument.decode(document, in: collection, catalog: try #require(catalog), mode: .replace(item))
    }

    @Test func anUnpatchedDocumentDecodesToTheSameItem() throws {
        let products = try Self.collection("products")
        let product = Item(
            id: EntityID(kind: products.kind, timestampMilliseconds: 1, randomBits: 1), in: products,
            [
                "name": .text("Lamp"), "shortDescription": .text(""), "longDescription": .text("x"),
                "price": .money(Money(minorUnits: 5, currency: "EUR")),
            ])
        #expect(try Self.patched("{}", try Self.track(), in: "tracks").item == (try Self.track()))
        #expect(try Self.patched("{}", product, in: "products").item == product)
    }

    static func patchCases() throws -> [(String, [String])] {
        let channels = try #require(try track().values.compactMap(\.names).first)
        return [
            (#"{"title":"New"}"#, []),
            (#"{"id":"trk_0000000000000009"}"#, ["/id"]),
            (#"{"id":null}"#, ["/id"]),
            (#"{"id":5}"#, ["/id"]),
            (#"{"title":null}"#, ["/title"]),
            (#"{"channels":null}"#, ["/channels"]),
            (#"{"channels":[{"id":"\#(channels[0].id)","name":"L"},{"id":"\#(channels[1].id)","name":"R"},{"name":"LFE"}]}"#, []),
            (#"{"channels":[{"id":"\#(channels[0].id)","name":"Mono"}]}"#, []),
            (
                #"{"channels":[{"id":"\#(channels[1].id)","name":"R"},{"id":"\#(channels[0].id)","name":"L"}]}"#,
                ["/channels/0/id", "/channels/1/id"]
            ),
            (#"{"channels":[{"name":"Left"},{"name":"Right"}]}"#, ["/channels/0/id", "/channels/1/id"]),
            (
                #"{"channels":[{"id":"\#(channels[0].id)","name":"L"},{"id":"\#(channels[1].id)","name":"R"},{"id":"chn_0000000000000009","name":"C"}]}"#,
                ["/channels/2/id"]
            ),
        ]
    }

    @Test func aPatchedTrackKeepsItsIDAndItsChannelsPositions() throws {
        let tracks = try Self.collection("tracks")
        let original = try Self.track()
        let before = try #require(original.value(of: "channels", in: tracks).names)
        for (patch, pointers) in try Self.patchCases() {
            let outcome = try Self.patched(patch, original, in: "tracks")
            #expect(outcome.problems.map(\.pointer) == pointers, "\(patch)")
            guard pointers.isEmpty else { continue }
            let item = try #require(outcome.item)
            #expect(item.id == original.id)
            let after = try #require(item.value(of: "channels", in: tracks).names)
            let kept = min(after.count, before.count)
            #expect(after.prefix(kept).map(\.id) == before.prefix(kept).map(\.id))
        }
    }
}
