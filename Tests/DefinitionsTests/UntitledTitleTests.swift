import Domain
import Testing

@testable import Definitions

/// A title its values make blank shows a placeholder: the row's own, else "Untitled" in the
/// request's language; the store's keys keep the blank title.
@Suite("Titles of items whose values make none")
struct UntitledTitleTests {
    /// (text, blank): what a person cannot read is blank, however it is written.
    static let texts: [(String, Bool)] = [
        ("", true), (" ", true), ("\t\n\r\n", true), ("\u{3000}", true), ("\u{00A0} \u{2028}", true),
        ("a", false), ("  a", false), ("é", false), (" \u{3000}é", false), ("-", false), ("0", false), ("\u{200B}", false),
    ]

    @Test(arguments: texts)
    func blankIsOnlyWhitespaceAndTheBytesSayTheSame(text: String, blank: Bool) {
        #expect(ItemRenderer.isBlank(text) == blank)
        var copy = text
        #expect(copy.withUTF8 { ItemRenderer.isBlank(utf8: $0) } == blank)
    }

    @Test func illFormedBytesAreReadAsTheirRepair() {
        let bytes: [UInt8] = [0x20, 0xFF]
        #expect(bytes.withUnsafeBufferPointer { ItemRenderer.isBlank(utf8: $0) } == false)
    }

    static let definition = """
        rowserver: 1
        collections:
          teams:
            idPrefix: tea
            title: Teams
            fields:
              name: {type: text}
            row: {title: name, placeholder: {en: Unnamed team, de: Unbenanntes Team}}
          players:
            idPrefix: ply
            title: Players
            fields:
              givenName: {type: text}
              familyName: {type: text}
            row: {title: "{givenName} {familyName}"}
        """

    /// (collection, values, locale, title shown).
    static let titles: [(String, [String: FieldValue], RenderLocale, String)] = [
        ("teams", ["name": .text("Otters")], .enUS, "Otters"),
        ("teams", [:], .enUS, "Unnamed team"),
        ("teams", ["name": .text("")], .deDE, "Unbenanntes Team"),
        ("teams", ["name": .text(" \n")], .frFR, "Unnamed team"),
        ("players", ["givenName": .text("Ada"), "familyName": .text("Lovelace")], .enUS, "Ada Lovelace"),
        // The template drops the missing placeholder with its separator (REFERENCE.md, "Templates").
        ("players", ["givenName": .text("Ada")], .deDE, "Ada"),
        ("players", [:], .enUS, "Untitled"),
        ("players", [:], .enGB, "Untitled"),
        ("players", [:], .deDE, "Ohne Titel"),
        ("players", ["familyName": .text("")], .frFR, "Sans titre"),
        ("players", [:], .jaJP, "名称未設定"),
    ]

    @Test(arguments: titles)
    func aBlankTitleShowsThePlaceholderAndTheBareTitleStaysBlank(
        collection name: String, values: [String: FieldValue], locale: RenderLocale, shown: String
    ) throws {
        let catalog = try DefinitionLoader.load(text: Self.definition, file: "untitled.yaml")
        let collection = try #require(catalog.collection(named: name))
        let renderer = ItemRenderer(collection: collection, catalog: catalog)
        let item = Item(id: EntityID(kind: collection.kind, timestampMilliseconds: 1, randomBits: 1), in: collection, values)
        let context = RenderContext(locale: locale)
        #expect(renderer.title(of: item, in: context) == shown)
        let bare = renderer.bareTitle(of: item, in: context)
        #expect(ItemRenderer.isBlank(bare) == (shown != bare))
    }
}
