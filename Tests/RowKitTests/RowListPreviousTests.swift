import Foundation
import RowKit
import Testing

/// A list opened past its first row (around a row, at a letter) pages both ways, and its feed
/// places rows within the shown window only.
@Suite("RowList paging back")
struct RowListPreviousTests {
    @Test func aListOpenedAroundARowPagesBackToTheFirstRowAndOnToTheLast() async throws {
        let server = try RowKitTestServer()
        let order = try server.storeOrder("products")
        let middle = order[order.count / 2]
        let list = RowList(client: server.client, link: "/v1/products?limit=50&around=\(middle)")
        try await list.load()
        let opened = await list.snapshot
        #expect(opened.hasPrevious)
        #expect(opened.rows.contains { $0.id == middle })
        var pages = 0
        while try await list.loadPrevious() { pages += 1 }
        #expect(pages > 1)
        let back = await list.snapshot
        #expect(!back.hasPrevious)
        #expect(back.rows.map(\.id) == Array(order.prefix(back.rows.count)), "the pages before, in order, with no repeats")
        while try await list.loadMore() {}
        #expect(await list.snapshot.rows.map(\.id) == order)
        // A list opened at its first page has nothing before it.
        let first = RowList(client: server.client, link: "/v1/products?limit=50")
        try await first.load()
        #expect(try await first.loadPrevious() == false)
    }

    @Test func aWindowPastTheFirstRowTakesOnlyItsOwnRowsFromTheFeed() async throws {
        let server = try RowKitTestServer()
        let order = try server.storeOrder("products")
        let middle = order[order.count / 2]
        let list = RowList(client: server.client, link: "/v1/products?limit=10&around=\(middle)")
        try await list.load()
        let before = await list.snapshot.rows
        let other = server.secondClient()
        // A row that sorts first in the whole list, one renamed in place, one that leaves the window.
        let created = try await other.create(in: "/v1/products", ["name": "!!! New first", "price": ["minorUnits": 100, "currency": "USD"]])
        let renamed = try await other.update(try await other.detail(before[3].detail), patch: ["name": .string(before[3].title + " b")])
        try await other.delete(try await other.detail(before[6].detail))
        try await list.refresh()
        let rows = await list.snapshot.rows
        #expect(!rows.contains { $0.id == created.id }, "a row before the window is not shown")
        #expect(!rows.contains { $0.id == before[6].id })
        #expect(rows.first { $0.id == before[3].id }?.title == renamed.json["name"]?.string)
        // What the window holds is a stretch of the list as the server orders it now.
        let now = try server.storeOrder("products")
        let ids = rows.map(\.id)
        let start = try #require(now.firstIndex(of: ids[0]))
        #expect(Array(now[start..<(start + ids.count)]) == ids)
    }
}
