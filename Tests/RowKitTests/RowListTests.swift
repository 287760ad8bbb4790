import Foundation
import RowKit
import Testing

/// `RowList` against a live server: paging, sections across pages, the change feed, 304s and
/// expired tokens.
@Suite("RowList over a live server")
struct RowListTests {
    @Test func fullWalkEqualsTheStoreOrderWithNoRepeats() async throws {
        let server = try RowKitTestServer()
        let list = RowList(client: server.client, link: "/v1/people?limit=7")
        try await list.load()
        var pages = 1
        while try await list.loadMore() { pages += 1 }
        let snapshot = await list.snapshot
        let ids = snapshot.rows.map(\.id)
        #expect(pages > 2)
        #expect(!snapshot.hasMore)
        #expect(Set(ids).count == ids.count)
        #expect(ids == (try server.storeOrder("people")))
    }

    @Test func sectionsContinuingAcrossPagesAreJoined() async throws {
        let server = try RowKitTestServer()
        let paged = RowList(client: server.client, link: "/v1/people?group=department&limit=3")
        try await paged.load()
        while try await paged.loadMore() {}
        let whole = RowList(client: server.client, link: "/v1/people?group=department&limit=200")
        try await whole.load()
        let sections = await paged.snapshot.sections
        #expect(sections.count > 1)
        #expect(Set(sections.map(\.id)).count == sections.count)
        #expect(sections == (await whole.snapshot.sections))
    }

    @Test func renamedMovedAndDeletedRowsShowAfterOneRefresh() async throws {
        let server = try RowKitTestServer()
        let people = try await server.client.index().collection("people")
        let list = try RowList(client: server.client, collection: people, view: .sections)
        try await list.load()
        let before = await list.snapshot.sections
        let first = try #require(before.first?.rows.first)
        let moved = try #require(before.first?.rows.dropFirst().first)
        let deleted = try #require(before.last?.rows.last)
        let target = try #require(before.last)
        // Another app changes three people.
        let other = server.secondClient()
        let renamed = try await other.update(try await other.detail(first.detail), patch: ["familyName": "Zzyzx"])
        let targetDepartment = try #require((try await other.detail(target.rows[0].detail)).json["departmentID"]?.string)
        _ = try await other.update(try await other.detail(moved.detail), patch: ["departmentID": .string(targetDepartment)])
        try await other.delete(try await other.detail(deleted.detail))

        try await list.refresh()
        let after = await list.snapshot
        let rows = after.rows
        #expect(!rows.contains { $0.id == deleted.id })
        let renamedRow = try #require(rows.first { $0.id == first.id })
        #expect(renamedRow.title.contains("Zzyzx"))
        #expect(renamed.json["familyName"]?.string == "Zzyzx")
        #expect(after.sections.first { $0.id == target.id }?.rows.contains { $0.id == moved.id } == true)
        // The refreshed list is what a fresh load shows: the server's order, not a local guess.
        let fresh = try RowList(client: server.client, collection: people, view: .sections)
        try await fresh.load()
        #expect(after == (await fresh.snapshot))
    }

    @Test func aRowCreatedElsewhereStandsWhereTheServerOrdersIt() async throws {
        let server = try RowKitTestServer()
        let products = try await server.client.index().collection("products")
        let list = try RowList(client: server.client, collection: products)
        try await list.load()
        try await list.loadMore()
        let shown = await list.snapshot.rows.count
        // Products are in name order: a name before every other comes first.
        let created = try await server.secondClient().create(
            in: products.links.list, ["name": "!!! First of all", "price": ["minorUnits": 100, "currency": "USD"]])
        try await list.refresh()
        let rows = await list.snapshot.rows
        #expect(rows.first?.id == created.id)
        // The window is still the first two pages: the old last row is now on the third.
        #expect(rows.count == shown)
        #expect(Set(rows.map(\.id)).count == rows.count)
        let fresh = try RowList(client: server.client, collection: products)
        try await fresh.load()
        try await fresh.loadMore()
        #expect(Array(rows.prefix(50)) == (await fresh.snapshot.rows.prefix(50)).map { $0 })
    }

    @Test func aSearchListsOnlyMatchingRows() async throws {
        let server = try RowKitTestServer()
        let people = try await server.client.index().collection("people")
        let all = try RowList(client: server.client, collection: people)
        try await all.load()
        let someone = try #require(await all.snapshot.rows.first)
        let word = String(someone.title.split(separator: " ").last ?? "")
        let found = all.searching(word)
        try await found.load()
        let rows = await found.snapshot.rows
        #expect(rows.contains { $0.id == someone.id })
        #expect(
            rows.allSatisfy { ($0.title + " " + ($0.subtitle ?? "")).range(of: word, options: [.caseInsensitive, .diacriticInsensitive]) != nil })
        #expect(found.link.contains("q="))
    }

    @Test func refreshWithNothingChangedKeepsTheSnapshotOnA304() async throws {
        let server = try RowKitTestServer()
        let products = try await server.client.index().collection("products")
        let list = try RowList(client: server.client, collection: products)
        try await list.load()
        let before = await list.snapshot
        let revalidationsBefore = try await notModifiedCount(server)
        try await list.refresh()
        #expect(await list.snapshot == before)
        #expect(try await notModifiedCount(server) == revalidationsBefore + 1)
    }

    @Test func anExpiredChangeTokenReloadsTheList() async throws {
        // The server keeps one change: three writes expire the list's token. The new names sort first.
        let server = try RowKitTestServer(changeRetention: 1)
        let products = try await server.client.index().collection("products")
        let list = try RowList(client: server.client, collection: products, view: .table)
        try await list.load()
        let rows = await list.snapshot.rows
        let token = try await server.client.changes(products.links.changes).links.next
        for row in rows.prefix(3) {
            let detail = try await server.client.detail(row.detail)
            _ = try await server.client.update(detail, patch: ["name": .string("!!! Renamed \(row.id)")])
        }
        let expired = await failure { () async throws(RowKitError) -> Void in _ = try await server.client.changes(token) }
        #expect(expired?.problem?.code == .changesExpired)
        try await list.refresh()
        let table = try #require(await list.snapshot.table)
        for row in rows.prefix(3) {
            #expect(table.rows.first { $0.id == row.id }?.compact.title.hasPrefix("!!! Renamed") == true)
        }
        let fresh = try RowList(client: server.client, collection: products, view: .table)
        try await fresh.load()
        #expect(await list.snapshot == (await fresh.snapshot))
    }

    @Test func snapshotsStreamPublishesTheNewestState() async throws {
        let server = try RowKitTestServer()
        let list = RowList(client: server.client, link: "/v1/departments?limit=2")
        let stream = await list.snapshots()
        try await list.load()
        let more = try await list.loadMore()
        #expect(more)
        let current = await list.snapshot
        var iterator = stream.makeAsyncIterator()
        // The stream keeps the newest snapshot for a slow reader: the one after both pages.
        let newest = await iterator.next()
        #expect(newest == current)
        #expect(current.rows.count > 2)
        // A new subscriber starts with the current state.
        var late = await list.snapshots().makeAsyncIterator()
        let first = await late.next()
        #expect(first == current)
    }

    /// The server's count of 3xx answers to list routes.
    private func notModifiedCount(_ server: RowKitTestServer) async throws -> Int {
        let metrics = try await server.client.send(RowClient.Request(method: "GET", link: "/metrics"))
        let text = String(decoding: metrics.body, as: UTF8.self)
        for line in text.split(separator: "\n")
        where line.hasPrefix("http_requests_total{") && line.contains(#"route="/v1/:collection""#) && line.contains(#"status="3xx""#) {
            return Int(line.split(separator: " ").last ?? "") ?? 0
        }
        return 0
    }
}
