import Definitions
import Domain
import Foundation
import Testing

@testable import Storage

/// A visited page selects only the stored slots its rows read (`CatalogQuery.reads`): the rest
/// come back as NULL at the same places, and the page (its rows, order and end) is the same.
@Suite("Pages that read only what their rows show")
struct PageReadsTests {
    @Test func unreadSlotsAreNullAndTheReadOnesAndThePageAreUnchanged() throws {
        let catalog = try DefinitionLoader.demo()
        let directory = try TemporaryDirectory()
        let store = try directory.catalogStore(catalog: catalog, seed: true)
        let products = try CatalogFixtures.collection(catalog, "products")
        let reads = try #require(ItemRenderer(collection: products, catalog: catalog).rowPlan.slots)
        let slot = { (name: String) in products.fields.first { $0.name == name }?.slot }
        let (name, long) = (try #require(slot("name")), try #require(slot("longDescription")))
        #expect(reads.contains(name) && !reads.contains(long), "the demo's product row shows its name, not its long description")

        var narrow = CatalogQuery(collection: products, limit: 20)
        narrow.reads = reads
        let wide = CatalogQuery(collection: products, limit: 20)
        var seen: [[String?]] = [[], []]
        var ends: [PageEnd] = []
        for (index, query) in [narrow, wide].enumerated() {
            ends.append(
                try store.visitPage(query, restart: {}) { row in
                    let text = { (slot: Int) in row.text(slot: slot).map { String(decoding: $0, as: UTF8.self) } }
                    seen[index].append(row.id.rawValue)
                    seen[index].append(text(name))
                    seen[index].append(text(long))
                })
        }
        #expect(ends[0] == ends[1])
        #expect(seen[0].count == 60)
        for row in 0..<20 {
            #expect(seen[0][row * 3] == seen[1][row * 3], "the same rows in the same order")
            #expect(seen[0][row * 3 + 1] == seen[1][row * 3 + 1], "a read slot holds its value")
            #expect(seen[0][row * 3 + 2] == nil, "an unread slot is NULL")
            #expect(seen[1][row * 3 + 2] != nil, "every slot is read without `reads`")
        }
    }

    /// Table-driven: whatever the slots, the list has every column at its place.
    @Test(arguments: [nil, [], [0], [0, 2], [3]] as [[Int]?])
    func aNarrowedSelectListKeepsEveryColumnsPlace(_ reads: [Int]?) throws {
        let catalog = try DefinitionLoader.demo()
        let table = CatalogTable(try CatalogFixtures.collection(catalog, "products"))
        let columns = table.selectList(reading: reads).components(separatedBy: ", ")
        let all = table.selectList.components(separatedBy: ", ")
        #expect(columns.count == all.count)
        for (slot, first) in table.slotColumns.enumerated() {
            let width = table.valueColumns[slot].count
            for offset in 0..<width {
                #expect(columns[first + offset] == (reads.map { $0.contains(slot) } ?? true ? all[first + offset] : "NULL"))
            }
        }
        #expect(columns.prefix(2) == all.prefix(2), "id and version")
        #expect(columns.suffix(2) == all.suffix(2), "the search keys")
        // The order keys' and sections' columns: read again after the row's (the page's order).
        for index in (2 + table.valueColumns.joined().count)..<(all.count - 2) {
            #expect(columns[index] == (reads == nil ? all[index] : "NULL"))
        }
        // Without a search, the rows carry no search keys.
        let unsearched = table.selectList(reading: reads, searchKeys: false).components(separatedBy: ", ")
        #expect(unsearched.suffix(2) == (reads == nil ? all.suffix(2) : ["NULL", "NULL"]))
        #expect(unsearched.dropLast(2) == columns.dropLast(2))
    }

    /// A joined item's list has every column at the place an item is decoded from, on its alias.
    @Test func aJoinedItemsSelectListKeepsEveryColumnsPlace() throws {
        let catalog = try DefinitionLoader.demo()
        let table = CatalogTable(try CatalogFixtures.collection(catalog, "departments"))
        let columns = table.itemSelectList(on: "r").components(separatedBy: ", ")
        let all = table.selectList.components(separatedBy: ", ")
        #expect(columns.count == all.count)
        let decoded = 2 + table.valueColumns.joined().count
        #expect(columns.prefix(decoded) == all.prefix(decoded).map { "r." + $0.dropFirst(2) }[...])
        #expect(columns.dropFirst(decoded).allSatisfy { $0 == "NULL" })
    }
}
