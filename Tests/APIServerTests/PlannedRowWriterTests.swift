import Definitions
import Domain
import Foundation
import HTTPServer
import Storage
import Testing

@testable import APIServer

/// Pages written by the collection's plan straight from the store's rows are the bytes the same
/// writer writes from the page's decoded items (sections headed from the items and their
/// references), for every list of the demo and of the tickets example (rows, sections, a
/// table, a search), in every locale, on a real SQLite file filled with generated items.
@Suite("Rows written from the store's rows", .runsOnce("a SQLite store of its own"))
struct PlannedRowWriterTests {
    static func definitionText(_ name: String) throws -> String {
        if name == "demo" { return DemoDefinition.text }
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../examples/\(name).yaml")
        return try String(contentsOf: file, encoding: .utf8)
    }

    /// The list views a page is compared in: rows, sections and a table (when declared), a search.
    static func views(of collection: CollectionDefinition) -> [[QueryItem]] {
        var views: [[QueryItem]] = [[QueryItem(name: "limit", value: "20")]]
        if let sections = collection.sections {
            views.append([QueryItem(name: "limit", value: "20"), QueryItem(name: "group", value: sections.name)])
        }
        if collection.table != nil { views.append([QueryItem(name: "limit", value: "20"), QueryItem(name: "view", value: "table")]) }
        if collection.isSearchable { views.append([QueryItem(name: "limit", value: "20"), QueryItem(name: "q", value: "a")]) }
        return views
    }

    @Test(arguments: ["demo", "tickets"])
    func pagesWrittenFromTheStoreAreTheItemPathsBytes(name: String) throws {
        let catalog = try DefinitionLoader.load(text: try Self.definitionText(name), file: "\(name).yaml")
        var made: [(CollectionDefinition, Item)] = []
        try SampleGenerator(catalog: catalog, seed: 7, defaultCount: 30, defaultChildCount: 4).generate { made.append(($0, $1)) }
        let compared = try Self.compareBothPaths(catalog, made, name: name)
        // The demo's lists read from the store (people's sections by department, the samples'
        // table with a column per channel of their track, too); the tickets' comments show their
        // author's name, a reference, so their pages are read whole.
        let least = name == "demo" ? 15 : 5
        #expect(compared.count >= least, "\(name): compared \(compared.sorted())")
    }

    /// Compares every list view of every collection of `catalog` over a store holding `made`,
    /// written from the store's rows and from the items, in every locale; answers the views that
    /// had rows.
    static func compareBothPaths(_ catalog: Catalog, _ made: [(CollectionDefinition, Item)], name: String) throws -> Set<String> {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rowserver-planned-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try CatalogStore(path: directory.appendingPathComponent("planned.sqlite").path, catalog: catalog)
        _ = try store.bulkLoad { loader in
            for (collection, item) in made { try loader.insert(item, into: collection.name) }
        }
        let served = ServedCatalog(store: store)
        let signer = TokenSigner(key: Array(repeating: 7, count: 32))
        var compared: Set<String> = []
        for collection in catalog.collections {
            let servedCollection = try #require(served.collection(collection.name))
            // A child list is compared under the parent of its first item, with that parent item.
            var parent: (id: EntityID, item: Item)?
            if let parentCollection = servedCollection.parent {
                let child = made.first { $0.0.name == collection.name }.map(\.1)
                let parentID = try #require(child.flatMap(servedCollection.parentID(of:)))
                parent = (parentID, try #require(try store.item(parentCollection.collection.name, id: parentID)).item)
            }
            for view in Self.views(of: collection) {
                let parameters = try ListParameters.parse(view, for: collection, catalog: catalog)
                let shape = CatalogShape(collection: servedCollection, parent: parent?.id, parameters: parameters)
                let query = CatalogQuery(
                    collection: collection, sort: parameters.sort, search: parameters.search, sections: parameters.sections, parent: parent?.id,
                    limit: parameters.limit,
                    references: servedCollection.referenceFields(parameters.view == .table ? .table : parameters.sections ? .sections : .rows))
                let seal = { (after: [SortValue]?) -> (next: String?, link: String?) in
                    guard let after else { return (nil, nil) }
                    let next = Cursor.seal(after: after, shape: shape, signer: signer)
                    return (next, CatalogLinks.list(shape, limit: parameters.limit, cursor: next))
                }
                for locale in RenderLocale.allCases {
                    let renderer = CatalogPageRenderer(shape: shape, context: RenderContext(locale: locale), parentItem: parent?.item)
                    guard renderer.writesFromStore else { continue }
                    let page = try store.page(query)
                    let (next, link) = seal(page.nextAfter)
                    let expected = try renderer.body(page: page, next: next, nextLink: link)
                    let streamed = try renderer.streamedBody(query, store: store, seal: seal)
                    #expect(
                        String(decoding: streamed.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
                        "\(name) \(collection.name) \(view) \(locale)")
                    #expect(streamed.nextLink == link)
                    if !page.items.isEmpty { compared.insert("\(collection.name) \(view.map(\.name))") }
                }
            }
        }
        return compared
    }

    /// Titles made blank every way a row reads them: a stored text (with a declared
    /// placeholder), a template of two texts, a compact title, a preview read from the whole item,
    /// and sections headed by a team whose name is blank. No row shows a reference, so every
    /// page is also written from the store's rows.
    static let untitled = """
        rowserver: 1
        collections:
          teams:
            idPrefix: tea
            title: Teams
            fields:
              name: {type: text}
            row: {title: name, placeholder: {en: Unnamed team, de: Unbenanntes Team}}
            sort: [name]
          players:
            idPrefix: ply
            title: Players
            fields:
              givenName: {type: text}
              familyName: {type: text}
              nickname: {type: text}
              teamID: {type: reference, to: teams, required: true}
              score: {type: integer}
            row: {title: "{givenName} {familyName}", subtitle: nickname, trailing: score}
            sort: [nickname]
            sections: {by: teamID, name: team}
            table: {columns: [nickname, score], compact: {title: nickname, subtitle: givenName}}
          notes:
            idPrefix: nte
            title: Notes
            fields:
              body: {type: longText}
            row: {title: {field: body, preview: 12}}
        """

    /// Sample items with every third title blank: null, "", or whitespace.
    static func untitledItems(_ catalog: Catalog) throws -> [(CollectionDefinition, Item)] {
        var made: [(CollectionDefinition, Item)] = []
        try SampleGenerator(catalog: catalog, seed: 3, defaultCount: 24).generate { made.append(($0, $1)) }
        let blanks: [FieldValue] = [.null, .text(""), .text(" \u{3000}\n")]
        return made.enumerated().map { index, pair in
            guard index % 3 == 0 else { return pair }
            var item = pair.1
            for name in ["name", "givenName", "familyName", "nickname", "body"] {
                if let slot = pair.0.field(named: name)?.slot { item.values[slot] = blanks[(index / 3) % blanks.count] }
            }
            return (pair.0, item)
        }
    }

    @Test func blankTitlesShowTheirPlaceholderAlikeOnBothPaths() throws {
        let catalog = try DefinitionLoader.load(text: Self.untitled, file: "untitled.yaml")
        let compared = try Self.compareBothPaths(catalog, try Self.untitledItems(catalog), name: "untitled")
        #expect(compared.count >= 8, "compared \(compared.sorted())")
    }

    /// What each part of the demo's rows is read from: stored texts, formatted values and a
    /// person's full name (a template of two stored texts) straight from the row; the articles'
    /// and documents' previews from the whole item.
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
        let people = try plan("people")
        guard case .template(let pieces) = people.title, pieces.count == 3, pieces[1] == .literal(" ") else {
            Issue.record("people's title is \(people.title)")
            return
        }
        #expect(!people.needsItem)
        #expect(try plan("articles").needsItem)
    }
}
