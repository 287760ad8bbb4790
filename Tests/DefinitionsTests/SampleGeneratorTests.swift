import Domain
import Foundation
import Testing

@testable import Definitions

/// Sample items for any definition: within every rule, references made first, deterministic.
@Suite("Sample items of any definition")
struct SampleGeneratorTests {
    static func tickets() throws -> Catalog {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../examples/tickets.yaml")
        return try DefinitionLoader.load(path: url.standardized.path)
    }

    func items(_ generator: SampleGenerator) throws -> [(collection: CollectionDefinition, item: Item)] {
        var items: [(CollectionDefinition, Item)] = []
        try generator.generate { items.append(($0, $1)) }
        return items
    }

    @Test(arguments: ["demo", "tickets"])
    func everySampleKeepsTheRulesOfItsDefinition(name: String) throws {
        let catalog = name == "demo" ? try DefinitionLoader.demo() : try Self.tickets()
        var seen = Set<EntityID>()
        for (collection, item) in try items(SampleGenerator(catalog: catalog, seed: 7, defaultCount: 40)) {
            let outcome = ItemDocument.decode(
                ItemDocument.writable(item, in: collection), in: collection, catalog: catalog, mode: .replace(item), server: true)
            #expect(outcome.problems.isEmpty, "\(collection.name): \(outcome.problems)")
            #expect(item.id.kind == collection.kind)
            for reference in outcome.references {
                #expect(seen.contains(reference.id), "\(collection.name) names \(reference.id) before it was made")
            }
            seen.insert(item.id)
        }
    }

    @Test func anOutlinesSamplesFormATreeOfParentsMadeFirst() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../examples/outline.yaml")
        let catalog = try DefinitionLoader.load(path: url.standardized.path)
        let folders = try #require(catalog.collection(named: "folders"))
        let slot = try #require(folders.treeSlot)
        var seen = Set<EntityID>()
        var children = 0
        for (collection, item) in try items(SampleGenerator(catalog: catalog, seed: 3, counts: ["folders": 200])) where collection === folders {
            if let parent = item[slot: slot].reference {
                #expect(seen.contains(parent), "a parent is made before its children")
                children += 1
            }
            seen.insert(item.id)
        }
        #expect(children > 100, "most nodes have a parent: \(children) of 200")
        #expect(children < 200, "some are roots")
    }

    @Test func countsApplyPerCollectionAndPerParentItem() throws {
        let catalog = try DefinitionLoader.demo()
        let made = try items(SampleGenerator(catalog: catalog, counts: ["tracks": 3, "samples": 4, "products": 0], defaultCount: 2))
        let byCollection = Dictionary(grouping: made, by: \.collection.name).mapValues(\.count)
        #expect(byCollection["tracks"] == 3)
        #expect(byCollection["samples"] == 12, "4 per track")
        #expect(byCollection["products"] == nil)
        #expect(byCollection["people"] == 2)
        let order = made.map(\.collection.name)
        #expect(order.firstIndex(of: "departments")! < order.firstIndex(of: "people")!)
        #expect(order.firstIndex(of: "tracks")! < order.firstIndex(of: "samples")!)
    }

    @Test func theSameSeedMakesTheSameItems() throws {
        let catalog = try Self.tickets()
        let first = try items(SampleGenerator(catalog: catalog, seed: 3, defaultCount: 10)).map(\.item)
        let again = try items(SampleGenerator(catalog: catalog, seed: 3, defaultCount: 10)).map(\.item)
        let other = try items(SampleGenerator(catalog: catalog, seed: 4, defaultCount: 10)).map(\.item)
        #expect(first == again)
        #expect(first != other)
    }

    @Test func aCycleOfRequiredReferencesIsReportedBeforeAnythingIsMade() throws {
        let catalog = try DefinitionLoader.load(
            text: """
                rowserver: 1
                collections:
                  hens:
                    idPrefix: hen
                    title: Hens
                    fields:
                      name: {type: text, required: true, label: Name}
                      egg: {type: reference, to: eggs, required: true, label: Egg}
                    row: {title: name}
                  eggs:
                    idPrefix: egg
                    title: Eggs
                    fields:
                      name: {type: text, required: true, label: Name}
                      hen: {type: reference, to: hens, required: true, label: Hen}
                    row: {title: name}
                """, file: "cycle.yaml")
        var made = 0
        #expect(throws: SampleGenerator.Failure.referenceCycle(["hens", "eggs"])) {
            try SampleGenerator(catalog: catalog).generate { _, _ in made += 1 }
        }
        #expect(made == 0)
    }
}
