import Domain
import Foundation
import RowKit
import Storage
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

        let reads = try await listReads(server)
        try await list.refresh()
        // The feed placed every row: no page was read.
        #expect(try await listReads(server) == reads)
        let after = await list.snapshot
        let rows = after.rows
        #expect(!rows.contains { $0.id == deleted.id })
        let renamedRow = try #require(rows.first { $0.id == first.id })
        #expect(renamedRow.title.contains("Zzyzx"))
        #expect(renamed.json["familyName"]?.string == "Zzyzx")
        #expect(after.sections.first { $0.id == target.id }?.rows.contains { $0.id == moved.id } == true)
        // The refreshed rows are what a fresh load shows up to where the next page continues:
        // the server's order and sections, not a local guess.
        let fresh = try RowList(client: server.client, collection: people, view: .sections)
        try await fresh.load()
        while try await fresh.loadMore() {}
        let shown = Self.entries(after.sections)
        #expect(shown == Array(Self.entries(await fresh.snapshot.sections).prefix(shown.count)))
        #expect(after.hasMore)
    }

    /// Each row with its section, as one text, in order.
    static func entries(_ sections: [Section]) -> [String] {
        sections.flatMap { section in section.rows.map { "\(section.id)|\(section.header)|\(section.detail ?? "")|\($0.id)|\($0.title)" } }
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
        // The shown rows are the list up to where the next page continues: one more now.
        #expect(rows.count == shown + 1)
        #expect(rows.map(\.id) == Array(try server.storeOrder("products").prefix(shown + 1)))
    }

    @Test func rowsCreatedMovedAndDeletedElsewhereArePlacedWithoutReadingAPage() async throws {
        let server = try RowKitTestServer()
        let list = RowList(client: server.client, link: "/v1/products?limit=10")
        try await list.load()
        try await list.loadMore()
        let before = await list.snapshot.rows
        #expect(before.count == 20)
        let other = server.secondClient()
        let created = try await other.create(in: "/v1/products", ["name": "!!! New first", "price": ["minorUnits": 100, "currency": "USD"]])
        _ = try await other.update(try await other.detail(before[4].detail), patch: ["name": "Zzzz past the shown rows"])
        _ = try await other.update(try await other.detail(before[15].detail), patch: ["name": .string(before[2].title + " b")])
        try await other.delete(try await other.detail(before[7].detail))

        let reads = try await listReads(server)
        try await list.refresh()
        #expect(try await listReads(server) == reads, "the feed placed every row: no page read")
        let ids = await list.snapshot.rows.map(\.id)
        let order = try server.storeOrder("products")
        #expect(ids.first == created.id)
        #expect(!ids.contains(before[4].id) && !ids.contains(before[7].id))
        #expect(ids[(ids.firstIndex(of: before[2].id) ?? 0) + 1] == before[15].id)
        #expect(ids == Array(order.prefix(ids.count)))
        // Paging on from the same link brings the row that moved past the shown ones, once.
        while try await list.loadMore() {}
        let all = await list.snapshot.rows.map(\.id)
        #expect(all == order)
    }

    @Test func aRenamedDepartmentShowsInTheSectionHeadersAfterOneRefresh() async throws {
        let server = try RowKitTestServer()
        let people = try await server.client.index().collection("people")
        let list = try RowList(client: server.client, collection: people, view: .sections)
        try await list.load()
        let section = try #require(await list.snapshot.sections.first)
        let department = try #require(section.detail)
        // The feed of people has no entry for this: its references version says the rows show something that changed.
        _ = try await server.secondClient().update(try await server.secondClient().detail(department), patch: ["name": "Aaa renamed"])
        try await list.refresh()
        #expect(await list.snapshot.sections.first { $0.id == section.id }?.header == "Aaa renamed")
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

    @Test func refreshWithNothingChangedReadsNoPage() async throws {
        let server = try RowKitTestServer()
        let products = try await server.client.index().collection("products")
        let list = try RowList(client: server.client, collection: products)
        try await list.load()
        let before = await list.snapshot
        let reads = try await listReads(server)
        try await list.refresh()
        #expect(await list.snapshot == before)
        #expect(try await listReads(server) == reads)
    }

    /// A child list (a track's samples) has a feed of its own: a refresh reads it, not the list,
    /// and a sample deleted under the track leaves the snapshot in place.
    @Test func aChildListKeepsItselfCurrentFromItsOwnFeed() async throws {
        let server = try RowKitTestServer()
        let tracks = try await server.client.page("/v1/tracks?limit=1")
        guard case .modified(let page, _) = tracks, case .rows(let rows) = page.content, let track = rows.first else {
            Issue.record("no track")
            return
        }
        let samples = try #require(try await server.client.detail(track.detail).json["links"]?["samples"]?.string)
        let list = RowList(client: server.client, link: samples)
        try await list.load()
        let before = await list.snapshot
        #expect(before.rows.count > 1)
        let childReads = { () async throws -> Int in
            try await self.requestCount(server) { $0.contains(#"method="GET""#) && $0.contains(#"route="/v1/:collection/:id/:child""#) }
        }
        let reads = try await childReads()
        try await list.refresh()
        #expect(await list.snapshot == before)
        let gone = try #require(before.rows.first)
        try await server.store.delete(try #require(EntityID(parsing: gone.id)), from: "samples", ifVersion: nil)
        try await list.refresh()
        #expect(await list.snapshot.rows.map(\.id) == before.rows.dropFirst().map(\.id))
        #expect(try await childReads() == reads, "the refreshes read the feed only")
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

    /// The server's count of list pages read (GET on a top-level list, any status).
    private func listReads(_ server: RowKitTestServer) async throws -> Int {
        try await requestCount(server) { $0.contains(#"method="GET""#) && $0.contains(#"route="/v1/:collection""#) }
    }

    private func requestCount(_ server: RowKitTestServer, where matches: (Substring) -> Bool) async throws -> Int {
        let metrics = try await server.client.send(RowClient.Request(method: "GET", link: "/metrics"))
        let text = String(decoding: metrics.body, as: UTF8.self)
        return text.split(separator: "\n").filter { $0.hasPrefix("http_requests_total{") && matches($0) }
            .reduce(0) { $0 + (Int($1.split(separator: " ").last ?? "") ?? 0) }
    }
}
