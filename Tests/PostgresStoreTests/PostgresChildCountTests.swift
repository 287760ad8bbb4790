import Definitions
import Domain
import Foundation
import Testing

@testable import Storage

/// An outline's stored child counts on PostgreSQL (`ChildCountTests` on SQLite): a load counts the
/// children it adds, and a database whose collection becomes an outline again after writes made
/// while it was none counts them when it opens.
@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.missingReason))
struct PostgresChildCountTests {
    static func catalog(tree: Bool) throws -> Catalog {
        try DefinitionLoader.load(
            text: """
                rowserver: 1
                collections:
                  parts:
                    idPrefix: prt
                    title: Parts
                    fields:
                      label: {type: text, required: true, label: Label}
                      within: {type: reference, to: parts, onDelete: cascade, label: Within}
                    row: {title: label}
                    sort: [label]
                \(tree ? "    tree: {parent: within}" : "")
                """, file: "parts.yaml")
    }

    /// Each part's stored number of children, by label, as a page reads them.
    static func stored(_ store: PostgresStore, _ catalog: Catalog) throws -> [String: Int] {
        let parts = try #require(catalog.collection(named: "parts"))
        let page = try store.page(CatalogQuery(collection: parts, limit: 100))
        var counts: [String: Int] = [:]
        for entry in page.items { counts[entry.item.value(of: "label", in: parts).text ?? ""] = page.childCounts[entry.item.id] ?? -1 }
        return counts
    }

    @Test func aLoadAndAReturnToBeingAnOutlineCountEveryNodesChildren() async throws {
        let outline = try Self.catalog(tree: true)
        let parts = try #require(outline.collection(named: "parts"))
        let url = try PostgresTestServer.freshDatabase()
        let engine = EntityID.generate(kind: parts.kind)
        let piston = EntityID.generate(kind: parts.kind)
        func part(_ label: String, _ id: EntityID = EntityID.generate(kind: parts.kind), within: EntityID?) -> Item {
            Item(id: id, in: parts, ["label": .text(label), "within": within.map { .reference($0) } ?? .null])
        }
        let store = try PostgresStore(url: url, catalog: outline, options: .init())
        try store.bulkLoad { loader in
            for item in [
                part("Engine", engine, within: nil), part("Piston", piston, within: engine), part("Valve", within: engine),
                part("Ring", within: piston),
            ] {
                try loader.insert(item, into: "parts")
            }
        }
        #expect(try Self.stored(store, outline) == ["Engine": 2, "Piston": 1, "Valve": 0, "Ring": 0])
        store.close()

        let flat = try Self.catalog(tree: false)
        let between = try PostgresStore(url: url, catalog: flat, options: .init())
        let flatParts = try #require(flat.collection(named: "parts"))
        let pin = Item(id: EntityID.generate(kind: flatParts.kind), in: flatParts, ["label": .text("Pin"), "within": .reference(piston)])
        _ = try await between.insert(pin, into: "parts")
        between.close()

        let again = try PostgresStore(url: url, catalog: outline, options: .init())
        defer { again.close() }
        #expect(try Self.stored(again, outline) == ["Engine": 2, "Piston": 2, "Valve": 0, "Ring": 0, "Pin": 0])
    }
}
