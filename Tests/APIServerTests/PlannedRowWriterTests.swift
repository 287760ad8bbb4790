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
                let links = { (after: [SortValue]?, _: [SortValue]?) -> PageLinks in
                    guard let after else { return PageLinks() }
                    let next = Cursor.seal(after: after, shape: shape, signer: signer)
                    return PageLinks(next: next, nextLink: CatalogLinks.list(shape, limit: parameters.limit, cursor: next))
                }
                for locale in RenderLocale.allCases {
                    let renderer = CatalogPageRenderer(shape: shape, context: RenderContext(locale: locale), parentItem: parent?.item)
                    guard renderer.writesFromStore else { continue }
                    let page = try store.page(query)
                    let pageLinks = links(page.nextAfter, page.firstAt)
                    let expected = try renderer.body(page: page, links: pageLinks)
                    let streamed = try renderer.streamedBody(query, store: store, links: links)
                    #expect(
                        String(decoding: streamed.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
                        "\(name) \(collection.name) \(view) \(locale)")
                    #expect(streamed.links.nextLink == pageLinks.nextLink)
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

    /// Rows, table cells and compact lines whose templates miss values, written from the row
    /// (`.template` parts) and through `ItemRenderer.text` (a template with a reference, read
    /// from the whole item): both drop a missing placeholder with its separator, alike.
    @Test func templatesDropAMissingPlaceholderAsTheItemPathDoes() throws {
        let text = """
            rowserver: 1
            collections:
              teams:
                idPrefix: tea
                title: Teams
                fields:
                  name: {type: text, required: true}
                row: {title: name}
              tasks:
                idPrefix: tsk
                title: Tasks
                fields:
                  name: {type: text, required: true}
                  team: {type: text}
                  priority: {type: integer}
                  status: {type: enum, values: [open, done]}
                  owner: {type: reference, to: teams}
                  line: {template: "{team} · {priority}"}
                  both: {template: "{status}: {team}"}
                row: {title: "{team} · {priority}", subtitle: "P{priority} ({status})", trailing: "{name} / {owner} / {team}"}
                table:
                  columns: [name, line, both]
                  compact: {title: "{status} · {team}", subtitle: line}
            """
        let catalog = try DefinitionLoader.load(text: text, file: "templates.yaml")
        let tasks = try #require(catalog.collection(named: "tasks"))
        let teams = try #require(catalog.collection(named: "teams"))
        let renderer = ItemRenderer(collection: tasks, catalog: catalog)
        let table = try #require(renderer.tableRowPlan)
        guard case .template = renderer.rowPlan.title, case .item = renderer.rowPlan.trailing else {
            Issue.record("the rows do not take both paths: \(renderer.rowPlan)")
            return
        }
        let team = Item(id: EntityID(kind: teams.kind, timestampMilliseconds: 1_767_225_600_000, randomBits: 1), values: [.text("Alpha")])
        let references = ReferencedItems([team])
        let context = RenderContext(locale: .deDE)
        let writer = PlannedRowWriter(renderer: renderer, context: context, references: references, detailBase: "/v1/tasks/")
        var seen: Set<String?> = []
        for mask in 0..<16 {
            let values: [FieldValue] = [
                .text("Fix"), mask & 1 != 0 ? .text("Ops") : .null, mask & 2 != 0 ? .integer(1_200) : .null,
                mask & 4 != 0 ? .text("open") : .null, mask & 8 != 0 ? .reference(team.id) : .null,
            ]
            let item = Item(id: EntityID(kind: tasks.kind, timestampMilliseconds: 1_767_225_600_000, randomBits: UInt32(mask)), values: values)
            var json = JSONWriter(capacity: 256)
            try writer.row(item, into: &json)
            let row = try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any])
            func text(_ spec: ValueSpec?) -> String? { spec.flatMap { renderer.text($0, of: item, references: references, in: context) } }
            // A title its template leaves blank shows the placeholder, on both paths.
            func title(_ spec: ValueSpec?) -> String {
                let shown = text(spec) ?? ""
                return ItemRenderer.isBlank(shown) ? renderer.untitled(in: context) : shown
            }
            #expect(row["title"] as? String == title(tasks.row.title), "mask \(mask)")
            #expect(row["subtitle"] as? String == text(tasks.row.subtitle), "mask \(mask)")
            #expect(row["trailing"] as? String == text(tasks.row.trailing), "mask \(mask)")
            seen.insert(row["title"] as? String)
            var tableJSON = JSONWriter(capacity: 256)
            try writer.tableRow(item, table: TableCells(plan: table), into: &tableJSON)
            let tableRow = try #require(try JSONSerialization.jsonObject(with: Data(tableJSON.bytes)) as? [String: Any])
            let cells = try #require(tableRow["cells"] as? [String: String])
            let compact = try #require(tableRow["compact"] as? [String: Any])
            let tableDefinition = try #require(tasks.table)
            #expect(cells["line"] == text(.field(5)) ?? "\u{2014}", "mask \(mask)")
            #expect(cells["both"] == text(.field(6)) ?? "\u{2014}", "mask \(mask)")
            #expect(compact["title"] as? String == title(tableDefinition.compactTitle), "mask \(mask)")
            #expect(compact["subtitle"] as? String == text(tableDefinition.compactSubtitle), "mask \(mask)")
        }
        #expect(seen == ["Ops · 1.200", "Ops", "1.200", "Ohne Titel"])
        let lone = Item(
            id: EntityID(kind: tasks.kind, timestampMilliseconds: 1_767_225_600_000, randomBits: 99),
            values: [.text("Fix"), .null, .integer(2), .null, .null])
        var json = JSONWriter(capacity: 256)
        try writer.row(lone, into: &json)
        #expect(String(decoding: json.bytes, as: UTF8.self).contains(#""title":"2","subtitle":"P2","trailing":"Fix","#))
    }
}
