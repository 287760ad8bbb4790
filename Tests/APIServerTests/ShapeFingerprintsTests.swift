import Definitions
import Domain
import HTTPServer
import Testing

@testable import APIServer

/// A list's fingerprint and links are made once (`ListShapes`) and are, for every list, the
/// ones made afresh: the pinned digest of its canonical text and `CatalogLinks`' links.
@Suite("Shape fingerprints and list links")
struct ShapeFingerprintsTests {
    /// Pinned: cursors already given out must still open, so the digest never changes.
    @Test(
        arguments: [
            ("", [0xE3, 0xB0, 0xC4, 0x42, 0x98, 0xFC, 0x1C, 0x14]),
            ("abc", [0xBA, 0x78, 0x16, 0xBF, 0x8F, 0x01, 0xCF, 0xEA]),
        ] as [(String, [UInt8])])
    func theDigestIsTheFirstEightBytesOfSHA256(text: String, expected: [UInt8]) {
        #expect(ShapeFingerprints.digest(text) == expected)
    }

    /// Query variants of any collection: its views, each sort both ways, a search that needs
    /// percent-encoding, a limit other than the default.
    static func variants(of collection: CollectionDefinition) -> [[QueryItem]] {
        var variants = PlannedRowWriterTests.views(of: collection)
        for sort in collection.sorts { variants += [[QueryItem(name: "sort", value: sort.name)], [QueryItem(name: "sort", value: "-" + sort.name)]] }
        if collection.isSearchable { variants.append([QueryItem(name: "q", value: "café & co/?=%"), QueryItem(name: "limit", value: "7")]) }
        return variants
    }

    @Test func keptFactsAreTheOnesMadeAfreshForEveryListAndParent() throws {
        let catalog = try DefinitionLoader.demo()
        var checked = 0
        for definition in catalog.collections {
            let collection = ServedCollection(definition, catalog: catalog)
            // A child list under two parents: the parent is part of its links and fingerprint.
            let parents: [EntityID?] =
                collection.parent.map { owner in
                    [
                        EntityID(kind: owner.collection.kind, timestampMilliseconds: 1, randomBits: 2),
                        EntityID(kind: owner.collection.kind, timestampMilliseconds: 3, randomBits: 4),
                    ]
                } ?? [nil]
            var keys = Set<ListShapes.Key>()
            for round in 0..<2 {
                for parent in parents {
                    for items in Self.variants(of: definition) {
                        var parameters = try ListParameters.parse(items, for: definition, catalog: catalog)
                        // The request's cursor is not part of the list: any page's shape shares the facts.
                        parameters.cursor = round == 0 ? nil : "c\(checked)"
                        let shape = CatalogShape(collection: collection, parent: parent, parameters: parameters)
                        let facts = shape.facts
                        keys.insert(ListShapes.Key(parent: parent, parameters: parameters))
                        #expect(facts.fingerprint == ShapeFingerprints.digest(shape.canonical), "\(definition.name) \(items)")
                        #expect(facts.changes == CatalogLinks.changes(shape))
                        #expect(facts.detailBase == CatalogLinks.list(collection, parent: parent) + "/")
                        for cursor in [nil, "AbC-_09", "a b%/é"] as [String?] {
                            #expect(facts.link(cursor: cursor) == CatalogLinks.list(shape, limit: parameters.limit, cursor: cursor), "\(items)")
                        }
                        checked += 1
                    }
                }
            }
            // One kept per list, whatever the cursor: the second round found them all.
            #expect(collection.listShapes.count == keys.count, "\(definition.name)")
        }
        #expect(checked > 40)
    }

    @Test func theMemoStaysBoundedAndRightPastItsLimit() throws {
        let catalog = try DefinitionLoader.demo()
        let definition = try #require(catalog.collections.first { $0.isSearchable })
        let collection = ServedCollection(definition, catalog: catalog)
        for index in 0..<(ListShapes.limit + 300) {
            let parameters = try ListParameters.parse([QueryItem(name: "q", value: "term \(index)")], for: definition, catalog: catalog)
            let shape = CatalogShape(collection: collection, parent: nil, parameters: parameters)
            #expect(shape.facts.fingerprint == ShapeFingerprints.digest(shape.canonical))
            #expect(shape.facts.link(cursor: nil) == CatalogLinks.list(shape, limit: parameters.limit))
        }
        #expect(collection.listShapes.count <= ListShapes.limit)
    }
}
