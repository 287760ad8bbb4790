import Domain
import Testing

@testable import Definitions

/// A field without a `label` is labelled by its name read as words.
@Suite("Labels made from field names")
struct FieldNameWordsTests {
    static let labels: [(String, String)] = [
        ("name", "Name"),
        ("unitPrice", "Unit price"),
        ("shortDescription", "Short description"),
        ("emailURL", "Email URL"),
        ("emailURLPath", "Email URL path"),
        ("assigneeID", "Assignee ID"),
        ("userId", "User ID"),
        ("urlPath", "URL path"),
        ("skuCode", "SKU code"),
        ("address2", "Address 2"),
        ("line2Total", "Line 2 total"),
        ("code2fa", "Code 2fa"),
        ("createdAt", "Created at"),
        ("x", "X"),
        ("pageX", "Page x"),
        ("ids", "IDs"),
    ]

    @Test(arguments: labels)
    func aNameReadsAsWordsInSentenceCase(name: String, label: String) {
        #expect(FieldNameWords.label(for: name) == label)
    }

    @Test func aFieldWithoutLabelAndItsColumnTakeTheNamesWordsAndAGivenLabelWins() throws {
        let catalog = try DefinitionLoader.load(
            text: BadDefinition.notes(
                fields: "      name: {type: text}\n      unitPrice: {type: integer}\n      emailURL: {type: email, label: {en: Mail, de: Post}}",
                extra: "    table: {columns: [name, unitPrice, emailURL, {field: unitPrice, id: price2, title: Price}]}"),
            file: "labels.yaml")
        let notes = try #require(catalog.collection(named: "notes"))
        #expect(notes.fields.map { $0.label[.enUS] } == ["Name", "Unit price", "Mail"])
        #expect(notes.fields.map { $0.label[.deDE] } == ["Name", "Unit price", "Post"])
        let renderer = ItemRenderer(collection: notes, catalog: catalog)
        #expect(renderer.tableColumns(in: RenderContext(locale: .enUS)).map(\.title) == ["Name", "Unit price", "Mail", "Price"])
        #expect(renderer.tableColumns(in: RenderContext(locale: .deDE)).map(\.title) == ["Name", "Unit price", "Post", "Price"])
    }
}
