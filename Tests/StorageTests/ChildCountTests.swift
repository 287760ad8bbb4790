import Definitions
import Domain
import Foundation
import Testing

@testable import Storage

/// An outline row's number of children is stored with the row and kept by every path that
/// writes rows: what a page reads equals counting each node's children, after a definition
/// that makes a collection an outline and after an import.
@Suite("Stored child counts")
struct ChildCountTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    static func catalog(outline: Bool) throws -> Catalog {
        try DefinitionLoader.load(
            text: """
                rowserver: 1
                collections:
                  nodes:
                    idPrefix: nod
                    title: Nodes
                    fields:
                      name: {type: text, required: true, label: Name}
                      parentID: {type: reference, to: nodes, onDelete: cascade, label: Parent}
                    row: {title: name}
                    sort: [name]
                \(outline ? "    tree: {parent: parentID}" : "")
                """, file: "nodes.yaml")
    }

    /// Every node's stored count as a page of the whole list reads it, by name, and the count
    /// of rows naming each node as parent.
    func counts(_ store: CatalogStore, _ catalog: Catalog) throws -> (stored: [String: Int], counted: [String: Int]) {
        let nodes = try CatalogFixtures.collection(catalog, "nodes")
        let page = try store.page(CatalogQuery(collection: nodes, limit: 100))
        let names = Dictionary(uniqueKeysWithValues: page.items.map { ($0.item.id, $0.item.value(of: "name", in: nodes).text ?? "") })
        var stored: [String: Int] = [:]
        var counted: [String: Int] = [:]
        for entry in page.items {
            let name = names[entry.item.id] ?? ""
            stored[name] = page.childCounts[entry.item.id]
            counted[name] = counted[name] ?? 0
            if let parent = entry.item.value(of: "parentID", in: nodes).reference, let parentName = names[parent] {
                counted[parentName, default: 0] += 1
            }
        }
        return (stored, counted)
    }

    func write(_ lines: [String]) throws -> String {
        let path = directory.path("nodes-\(UUID().uuidString).jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Root (3 children: A, B, C), A (1 child: A1), the rest leaves, as JSON Lines with ids.
    func treeLines(kind: EntityKind) -> [String] {
        let root = EntityID.generate(kind: kind)
        let a = EntityID.generate(kind: kind)
        return [
            #"{"id":"\#(root)","name":"Root"}"#,
            #"{"id":"\#(a)","name":"A","parentID":"\#(root)"}"#,
            #"{"name":"B","parentID":"\#(root)"}"#,
            #"{"name":"C","parentID":"\#(root)"}"#,
            #"{"name":"A1","parentID":"\#(a)"}"#,
        ]
    }

    static let expected = ["Root": 3, "A": 1, "A1": 0, "B": 0, "C": 0]

    @Test func anImportCountsTheChildrenItAdds() throws {
        let catalog = try Self.catalog(outline: true)
        let store = try directory.catalogStore(catalog: catalog)
        let nodes = try CatalogFixtures.collection(catalog, "nodes")
        #expect(try CatalogImporter(collection: nodes, catalog: catalog).run(path: write(treeLines(kind: nodes.kind)), into: store) == 5)
        let (stored, counted) = try counts(store, catalog)
        #expect(stored == Self.expected)
        #expect(counted == Self.expected)
    }

    @Test func aCollectionThatBecomesAnOutlineCountsTheChildrenItHas() throws {
        let path = directory.path("nodes-\(UUID().uuidString).sqlite")
        let flat = try Self.catalog(outline: false)
        let before = try CatalogStore(path: path, catalog: flat)
        let nodes = try CatalogFixtures.collection(flat, "nodes")
        #expect(try CatalogImporter(collection: nodes, catalog: flat).run(path: write(treeLines(kind: nodes.kind)), into: before) == 5)
        try before.close()
        let outline = try Self.catalog(outline: true)
        let after = try CatalogStore(path: path, catalog: outline)
        let (stored, counted) = try counts(after, outline)
        #expect(stored == Self.expected)
        #expect(counted == Self.expected)
    }

    @Test func childrenWrittenWhileTheCollectionWasNoOutlineAreCountedWhenItIsOneAgain() async throws {
        let path = directory.path("nodes-\(UUID().uuidString).sqlite")
        let outline = try Self.catalog(outline: true)
        let first = try CatalogStore(path: path, catalog: outline)
        let nodes = try CatalogFixtures.collection(outline, "nodes")
        #expect(try CatalogImporter(collection: nodes, catalog: outline).run(path: write(treeLines(kind: nodes.kind)), into: first) == 5)
        let a = try #require(
            try first.page(CatalogQuery(collection: nodes, limit: 100)).items.first { $0.item.value(of: "name", in: nodes).text == "A" })
        try first.close()
        let flat = try Self.catalog(outline: false)
        let between = try CatalogStore(path: path, catalog: flat)
        let flatNodes = try CatalogFixtures.collection(flat, "nodes")
        let child = Item(id: EntityID.generate(kind: flatNodes.kind), in: flatNodes, ["name": .text("A2"), "parentID": .reference(a.item.id)])
        _ = try await between.insert(child, into: "nodes")
        try between.close()
        let again = try CatalogStore(path: path, catalog: outline)
        let (stored, counted) = try counts(again, outline)
        var expected = Self.expected
        expected["A"] = 2
        expected["A2"] = 0
        #expect(stored == expected)
        #expect(counted == expected)
    }
}
