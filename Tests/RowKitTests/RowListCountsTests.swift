import Foundation
import RowKit
import Testing

/// A counted list's numbers: its total and its sections' counts come with its pages, and a
/// refresh takes them from the feed, so a screen that only refreshes shows what a fresh load shows.
@Suite("RowList counts")
struct RowListCountsTests {
    @Test func aRefreshTakesTheTotalAndSectionCountsFromTheFeed() async throws {
        let server = try RowKitTestServer()
        let list = RowList(client: server.client, link: "/v1/people?group=department&count=exact&limit=60")
        try await list.load()
        let before = await list.snapshot
        let total = try #require(before.total)
        #expect(total.exact && total.value > 60)
        let firstSection = try #require(before.sections.first)
        #expect(before.sectionCounts[firstSection.id] == firstSection.count)
        #expect(firstSection.count.map { $0.value >= firstSection.rows.count } == true)

        // Another app moves one person into another department and deletes another.
        let other = server.secondClient()
        let moved = try #require(firstSection.rows.first)
        let target = try #require(before.sections.last)
        #expect(target.id != firstSection.id, "the first page shows two sections")
        let targetDepartment = try #require((try await other.detail(target.rows[0].detail)).json["departmentID"]?.string)
        _ = try await other.update(try await other.detail(moved.detail), patch: ["departmentID": .string(targetDepartment)])
        let deleted = try #require(before.sections.last?.rows.last)
        try await other.delete(try await other.detail(deleted.detail))

        try await list.refresh()
        let after = await list.snapshot
        #expect(after.total == Total(value: total.value - 1, exact: true))
        #expect(after.sectionCounts[firstSection.id]?.value == (firstSection.count?.value ?? 0) - 1)

        // What a fresh load of every page says.
        let fresh = RowList(client: server.client, link: "/v1/people?group=department&count=exact&limit=60")
        try await fresh.load()
        while try await fresh.loadMore() {}
        let loaded = await fresh.snapshot
        #expect(after.total == loaded.total)
        #expect(after.sectionCounts == loaded.sectionCounts)
        #expect(loaded.sectionCounts.values.reduce(0) { $0 + $1.value } == loaded.total?.value)
    }

    @Test func anUncountedListHasNoTotal() async throws {
        let server = try RowKitTestServer()
        let list = RowList(client: server.client, link: "/v1/people?limit=5")
        try await list.load()
        let snapshot = await list.snapshot
        #expect(snapshot.total == nil && snapshot.sectionCounts.isEmpty)
        #expect(snapshot.rows.count == 5)
    }

    @Test func theLetterIndexOpensTheListAtEachLetter() async throws {
        let server = try RowKitTestServer()
        let page = try await server.client.page("/v1/people?limit=10")
        guard case .modified(let first, _) = page else { throw RowKitError.unexpectedResponse(status: 304, detail: "first page") }
        let index = try await server.client.letters(try #require(first.links.index))
        #expect(index.letters.count > 5)
        #expect(index.letters.reduce(0) { $0 + $1.count.value } == 200)
        let letter = try #require(index.letters.dropFirst(3).first)
        let list = RowList(client: server.client, link: letter.link)
        try await list.load()
        let rows = await list.snapshot.rows
        #expect(
            rows.first?.title.split(separator: " ").last?.uppercased().hasPrefix(letter.letter) == true,
            "\(letter.letter): \(rows.first?.title ?? "")")
    }
}
