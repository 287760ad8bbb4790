import Foundation
import HTTPTestSupport

/// What a client that keeps a list from its feed holds: the rows in order, and where its feed goes on.
struct FeedClient {
    var rows: [[String: Any]]
    var feed: String

    var ids: [String] { rows.compactMap { $0["id"] as? String } }

    /// Applies one read of the feed: every changed row leaves, then each upsert goes in after the
    /// row it names. Those name the list as it is after all of them, so an upsert whose `after`
    /// is placed later in the same read waits for it.
    mutating func apply(_ changes: [[String: Any]], resume: String) throws {
        let changed = Set(changes.compactMap { $0["id"] as? String })
        rows.removeAll { changed.contains($0["id"] as? String ?? "") }
        var waiting = changes.filter { $0["op"] as? String == "upsert" }
        while !waiting.isEmpty {
            let placeable = waiting.firstIndex { change in
                guard let after = change["after"] as? String else { return true }
                return ids.contains(after)
            }
            guard let index = placeable, let row = waiting[index]["row"] as? [String: Any] else {
                throw RawHTTPClient.Failure(description: "upserts that cannot be placed: \(waiting)")
            }
            let after = waiting[index]["after"] as? String
            rows.insert(row, at: after.flatMap { after in ids.firstIndex(of: after).map { $0 + 1 } } ?? 0)
            waiting.remove(at: index)
        }
        feed = resume
    }

    func sameRows(as fresh: [[String: Any]]) -> Bool {
        rows.count == fresh.count && zip(rows, fresh).allSatisfy { NSDictionary(dictionary: $0).isEqual(to: $1) }
    }
}

extension CatalogTestServer {
    /// Every change after `link` (a feed link with `since`), following `more`; and the link to resume from.
    func readFeed(_ link: String) async throws -> (changes: [[String: Any]], resume: String) {
        var link = link
        var changes: [[String: Any]] = []
        while true {
            let answer = try await get(link)
            guard answer.status == 200, let json = answer.json, let page = json["changes"] as? [[String: Any]],
                let next = (json["links"] as? [String: Any])?["next"] as? String
            else { throw RawHTTPClient.Failure(description: "\(link) answered \(answer.status): \(answer.text)") }
            changes += page
            link = next
            if json["more"] as? Bool != true { return (changes, link) }
        }
    }
}
