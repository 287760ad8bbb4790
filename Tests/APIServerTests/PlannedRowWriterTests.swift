import Definitions
import Domain
import Foundation
import HTTPServer
import Storage
import Testing

@testable import APIServer

/// Rows written by the collection's plan straight from the store's rows are the bytes the item
/// path writes (`ItemRenderer.row` of the decoded item through `RowWriter.row`), for every
/// collection of the demo and of the tickets example, in every locale, on a real SQLite file
/// filled with generated items.
@Suite("Rows written from the store's rows")
struct PlannedRowWriterTests {
    static func definitionText(_ name: String) throws -> String {
        if name == "demo" { return DemoDefinition.text }
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../examples/\(name).yaml")
        return try String(contentsOf: file, encoding: .utf8)
    }

    @Test(arguments: ["demo", "tickets"])
    func plannedRowsAreTheItemPathsBytes(name: String) throws {
        let catalog = try DefinitionLoader.load(text: try Self.definitionText(name), file: "\(name).yaml")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rowserver-planned-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try CatalogStore(path: directory.appendingPathComponent("planned.sqlite").path, catalog: catalog)
        var made: [(CollectionDefinition, Item)] = []
        try SampleGenerator(catalog: catalog, seed: 7, defaultCount: 30, defaultChildCount: 4).generate { made.append(($0, $1)) }
        _ = try store.bulkLoad { loader in
            for (collection, item) in made { try loader.insert(item, into: collection.name) }
        }
        let served = ServedCatalog(store: store)
        var compared = 0
        for collection in catalog.collections {
            let servedCollection = try #require(served.collection(collection.name))
            guard servedCollection.referenceFields(.rows).isEmpty else { continue }
            // A child list is compared under the parent of its first item, with that parent item.
            var parent: (id: EntityID, item: Item)?
            if let parentCollection = servedCollection.parent {
                let child = made.first { $0.0.name == collection.name }.map(\.1)
                let parentID = try #require(child.flatMap(servedCollection.parentID(of:)))
                parent = (parentID, try #require(try store.item(parentCollection.collection.name, id: parentID)).item)
            }
            for locale in RenderLocale.allCases {
                let context = RenderContext(locale: locale)
                let query = CatalogQuery(
                    collection: collection, parent: parent?.id, limit: 20,
                    references: [])
                var references = ReferencedItems()
                if let parent { references.insert(parent.item) }
                let detailBase = "/v1/\(collection.name)/"
                var expected = JSONWriter()
                expected.beginArray()
                for entry in try store.page(query).items {
                    RowWriter.row(
                        servedCollection.renderer.row(entry.item, references: references, in: context), detailBase: detailBase, into: &expected)
                }
                expected.endArray()
                let writer = PlannedRowWriter(renderer: servedCollection.renderer, context: context, references: references, detailBase: detailBase)
                var planned = JSONWriter()
                planned.beginArray()
                let end = try store.visitPage(query, restart: {}, visit: { row throws(StoreError) in try writer.row(row, into: &planned) })
                planned.endArray()
                #expect(end.count > 0, "\(name) \(collection.name): no rows to compare")
                #expect(
                    String(decoding: planned.bytes, as: UTF8.self) == String(decoding: expected.bytes, as: UTF8.self),
                    "\(name) \(collection.name) \(locale)")
            }
            compared += 1
        }
        // The demo's rows all read from the store (departments' sections aside, a list of rows
        // by itself); the tickets' comments show their author's name, a reference.
        #expect(compared >= (name == "demo" ? 6 : 2), "\(name): \(compared) collections compared")
    }

    /// What each part of the demo's rows is read from: stored texts and formatted values straight
    /// from the row; the articles' and documents' previews and a person's full name (a template)
    /// from the whole item.
    @Test func demoRowPlansReadWhatTheyCanFromTheRow() throws {
        let catalog = try DefinitionLoader.load(text: DemoDefinition.text, file: "demo.yaml")
        func plan(_ name: String) throws -> RowPlan {
            let collection = try #require(catalog.collection(named: name))
            return ItemRenderer(collection: collection, catalog: catalog).rowPlan
        }
        let products = try plan("products")
        #expect(products.title == .text(slot: 0))
        #expect(products.subtitle == .text(slot: 1))
        guard case .formatted(_, .money) = products.trailing else {
            Issue.record("products' trailing is \(products.trailing)")
            return
        }
        #expect(products.image == .absent)
        #expect(!products.needsItem)
        #expect(try plan("departments").image == .constant("building.2"))
        #expect(try plan("people").needsItem)
        #expect(try plan("articles").needsItem)
    }
}
