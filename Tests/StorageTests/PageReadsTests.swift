import Definitions
import Domain
import Foundation
import Testing

@testable import Storage

/// A visited page selects only the stored slots its rows read (`CatalogQuery.reads`): the rest
/// read as absent, and the page (its rows, order and end) is the same.
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
            #expect(seen[0][row * 3 + 2] == nil, "an unread slot is absent")
            #expect(seen[1][row * 3 + 2] != nil, "every slot is read without `reads`")
        }
    }

    /// Table-driven: whatever the slots, the list selects those slots' columns where the layout
    /// says, the search keys only when asked, and nothing in the place of the others.
    @Test(arguments: [nil, [], [0], [0, 2], [3]] as [[Int]?], [true, false])
    func aNarrowedSelectListHoldsItsSlotsWhereItsLayoutSays(_ reads: [Int]?, searchKeys: Bool) throws {
        let catalog = try DefinitionLoader.demo()
        let table = CatalogTable(try CatalogFixtures.collection(catalog, "products"))
        let layout = RowLayout(table, reading: reads, searchKeys: searchKeys)
        let columns = layout.selectList(table).components(separatedBy: ", ")
        let all = table.selectList.components(separatedBy: ", ")
        #expect(columns.count == layout.count)
        #expect(!columns.contains("NULL"))
        #expect(columns.prefix(2) == all.prefix(2), "id and version")
        for (slot, first) in table.slotColumns.enumerated() {
            let read = reads.map { $0.contains(slot) } ?? true
            #expect((layout.slotColumns[slot] != nil) == read)
            guard let position = layout.slotColumns[slot] else { continue }
            for offset in 0..<table.valueColumns[slot].count {
                #expect(columns[position + offset] == all[first + offset])
            }
        }
        let search = try #require(reads == nil || searchKeys ? layout.searchKeys : -1)
        if search >= 0 {
            #expect(columns[search] == "t.\"title_key\"" && columns[search + 1] == "t.\"subtitle_key\"")
        } else {
            #expect(layout.searchKeys == nil)
        }
        #expect(layout.isWhole == (reads == nil))
        if reads == nil { #expect(columns == all, "a whole item's row is the table's") }
    }

    /// A joined item's list has the columns an item is decoded from, at their places, on its alias.
    @Test func aJoinedItemsSelectListKeepsEveryDecodedColumnsPlace() throws {
        let catalog = try DefinitionLoader.demo()
        let table = CatalogTable(try CatalogFixtures.collection(catalog, "departments"))
        let columns = table.itemSelectList(on: "r").components(separatedBy: ", ")
        let all = table.selectList.components(separatedBy: ", ")
        let decoded = 2 + table.valueColumns.joined().count
        #expect(columns == all.prefix(decoded).map { "r." + $0.dropFirst(2) })
    }
}
