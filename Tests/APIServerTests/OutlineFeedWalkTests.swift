import Domain
import Foundation
import HTTPTestSupport
import Testing

/// Random creates, moves (some refused as cycles) and cascading deletes in an outline; after each
/// burst, a client that read only a level's feed and applied it by id and `after` holds exactly
/// the rows a fresh read of that level gives, counts included: the roots, one node's children,
/// and the collection's whole list; and each row's count is its number of children.
@Suite("An outline's feeds under random moves")
struct OutlineFeedWalkTests {
    let outline: OutlineServer

    init() async throws {
        outline = try OutlineServer()
    }

    @Test(arguments: [UInt64(1), 2])
    func aClientReadingOnlyALevelsFeedKeepsTheLevelAFreshReadGives(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let watched = try await outline.folder("Watched")
        var nodes = [watched, try await outline.folder("Second"), try await outline.folder("Third")]
        let lists = ["/v1/folders/roots", "/v1/folders/\(watched)/children", "/v1/folders"]
        var clients: [FeedClient] = []
        for list in lists { clients.append(FeedClient(rows: try await outline.rows(list), feed: try await outline.feedFromNow(list))) }
        for burst in 0..<4 {
            for step in 0..<10 {
                let node = nodes[random.next(below: nodes.count)]
                switch random.next(below: 6) {
                case 0, 1, 2:
                    nodes.append(try await outline.folder("Node \(burst).\(step)", under: random.next(below: 4) == 0 ? nil : node))
                case 3, 4:
                    // The watched node stays a root: under another, a cascade could take it.
                    guard node != watched else { continue }
                    let parent = random.next(below: 5) == 0 ? nil : nodes[random.next(below: nodes.count)]
                    let answer = try await outline.move(node, under: parent)
                    #expect(answer.status == 200 || answer.json?["code"] as? String == "TREE_CYCLE", "\(answer.text)")
                default:
                    guard node != watched else { continue }
                    let answer = try await outline.server.send("DELETE", "/v1/folders/\(node)")
                    #expect(answer.status == 204 || answer.status == 404, "\(answer.text)")
                }
                // A cascade takes a subtree with it: what is left is what the whole list holds.
                nodes = try await outline.ids("/v1/folders")
            }
            // Each row's childCount (stored, kept by the writes) is its children list's length.
            for row in try await outline.rows("/v1/folders") {
                let id = try #require(row["id"] as? String)
                let children = try await outline.ids("/v1/folders/\(id)/children")
                #expect(row["childCount"] as? Int == children.count, "seed \(seed), burst \(burst): \(id)")
            }
            for index in lists.indices {
                let (changes, resume) = try await outline.read(clients[index].feed)
                try clients[index].apply(changes, resume: resume)
                let fresh = try await outline.rows(lists[index])
                #expect(clients[index].ids == fresh.compactMap { $0["id"] as? String }, "seed \(seed), burst \(burst): \(lists[index])")
                #expect(clients[index].sameRows(as: fresh), "seed \(seed), burst \(burst): \(lists[index]) rows")
            }
        }
    }
}
