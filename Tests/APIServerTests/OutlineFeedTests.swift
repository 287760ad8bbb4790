import Foundation
import HTTPTestSupport
import Testing

/// What a move or a delete in an outline tells the feeds of the lists it changes: the node leaves
/// its old parent's children and enters its new parent's, each parent's row carries its new count,
/// its subtree goes with it; a cascade deletes the subtree, a restricting parent answers 409.
@Suite("Outline moves and deletes")
struct OutlineFeedTests {
    let outline: OutlineServer
    var server: CatalogTestServer { outline.server }

    init() async throws {
        outline = try OutlineServer()
    }

    @Test func movingANodeMovesItsSubtreeAndTellsBothParentsFeeds() async throws {
        let chain = try await outline.chain(6, named: "A")
        let target = try await outline.folder("B")
        let lists = [
            "old": "/v1/folders/\(chain[1])/children", "new": "/v1/folders/\(target)/children", "roots": "/v1/folders/roots",
            "grandparent": "/v1/folders/\(chain[0])/children", "all": "/v1/folders",
        ]
        var feeds: [String: String] = [:]
        for (name, list) in lists { feeds[name] = try await outline.feedFromNow(list) }

        let moved = try await outline.move(chain[2], under: target)
        #expect(moved.status == 200, "\(moved.text)")

        func changes(_ name: String) async throws -> [(id: String, op: String, row: [String: Any]?)] {
            try await outline.changes(try #require(feeds[name]))
        }
        let old = try await changes("old")
        #expect(old.map(\.id) == [chain[2]] && old.map(\.op) == ["delete"], "the node left its old parent's children: \(old)")
        let new = try await changes("new")
        #expect(new.map(\.id) == [chain[2]] && new.map(\.op) == ["upsert"], "it entered its new parent's: \(new)")
        #expect(new.first?.row?["childCount"] as? Int == 1, "with its own child")
        let roots = try await changes("roots")
        #expect(roots.map(\.id) == [target] && roots.first?.row?["childCount"] as? Int == 1, "the new parent's row counts it: \(roots)")
        let grandparent = try await changes("grandparent")
        #expect(grandparent.map(\.id) == [chain[1]] && grandparent.first?.row?["childCount"] as? Int == 0, "the old parent's too")
        let all = try await changes("all")
        #expect(Set(all.map(\.id)) == [chain[1], chain[2], target] && all.allSatisfy { $0.op == "upsert" }, "\(all)")

        // The subtree came along: the deepest node's ancestors now start at the new parent.
        let detail = try #require(try await server.get("/v1/folders/\(chain[5])").json)
        #expect((detail["ancestors"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [target] + chain[2...4])
        #expect(try await outline.ids(lists["old"] ?? "").isEmpty)
        #expect(try await outline.ids(lists["new"] ?? "") == [chain[2]])
    }

    @Test func aRootMovedUnderANodeLeavesTheRootsAndOneMovedOutReturns() async throws {
        let (first, second) = (try await outline.folder("First"), try await outline.folder("Second"))
        let feed = try await outline.feedFromNow("/v1/folders/roots")
        #expect(try await outline.move(second, under: first).status == 200)
        let moved = try await outline.changes(feed)
        #expect(moved.map(\.id) == [second, first] && moved.map(\.op) == ["delete", "upsert"], "\(moved)")
        let again = try await outline.feedFromNow("/v1/folders/roots")
        #expect(try await outline.move(second, under: nil).status == 200)
        let back = try await outline.changes(again)
        #expect(Set(back.map(\.id)) == [first, second] && back.allSatisfy { $0.op == "upsert" }, "\(back)")
        #expect(try await outline.ids("/v1/folders/roots") == [first, second])
    }

    @Test func deletingANodeCascadesToItsSubtree() async throws {
        let root = try await outline.folder("Root")
        let chain = try await outline.chain(5, named: "Sub", under: root)
        let sibling = try await outline.folder("Sibling", under: chain[1])
        let feeds = (roots: try await outline.feedFromNow("/v1/folders/roots"), all: try await outline.feedFromNow("/v1/folders"))
        #expect(try await server.send("DELETE", "/v1/folders/\(chain[0])").status == 204)
        for id in chain + [sibling] { #expect(try await server.get("/v1/folders/\(id)").status == 404, "\(id)") }
        #expect(try await outline.ids("/v1/folders") == [root])
        let roots = try await outline.changes(feeds.roots)
        #expect(roots.map(\.id) == [root] && roots.first?.row?["childCount"] as? Int == 0, "\(roots)")
        let all = try await outline.changes(feeds.all)
        #expect(Set(all.filter { $0.op == "delete" }.map(\.id)) == Set(chain + [sibling]), "\(all)")
        #expect(all.filter { $0.op == "upsert" }.map(\.id) == [root])
    }

    @Test func deletingANodeWithChildrenOfARestrictingOutlineIs409() async throws {
        let head = try await server.create("units", #"{"name":"Board"}"#)
        let unit = try await server.create("units", #"{"name":"Sales","reportsTo":"\#(head)"}"#)
        let refused = try await server.send("DELETE", "/v1/units/\(head)")
        #expect(refused.status == 409, "\(refused.text)")
        #expect(refused.json?["code"] as? String == "CONFLICT")
        #expect(try await server.get("/v1/units/\(unit)").json?["parent"] as? [String: Any] != nil, "the embedded parent")
        #expect(try await server.send("DELETE", "/v1/units/\(unit)").status == 204)
        #expect(try await server.send("DELETE", "/v1/units/\(head)").status == 204)
    }
}

/// `onDelete: setNull` on an outline's parent: deleting a node makes its children roots, each
/// with its subtree, and the roots' feed says they arrived.
@Suite("An outline whose parent sets null")
struct OutlineSetNullTests {
    static let definition = """
        rowserver: 1
        collections:
          topics:
            idPrefix: top
            title: Topics
            fields:
              name: {type: text, required: true}
              parentID: {type: reference, to: topics, onDelete: setNull}
            row: {title: name}
            sort: [name]
            tree: {parent: parentID}
        """

    @Test func deletingANodeMakesItsChildrenRoots() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("outline-set-null-\(UUID().uuidString).yaml")
        try Self.definition.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let server = try CatalogTestServer(definition: file.path)
        let root = try await server.create("topics", #"{"name":"Root"}"#)
        let a = try await server.create("topics", #"{"name":"A","parentID":"\#(root)"}"#)
        let b = try await server.create("topics", #"{"name":"B","parentID":"\#(root)"}"#)
        let c = try await server.create("topics", #"{"name":"C","parentID":"\#(a)"}"#)
        let page = try #require(try await server.get("/v1/topics/roots").json)
        let feed = try #require((page["links"] as? [String: Any])?["changes"] as? String)
        let start = try #require(try await server.get(feed).json?["links"] as? [String: Any])
        let resume = try #require(start["next"] as? String)

        #expect(try await server.send("DELETE", "/v1/topics/\(root)").status == 204)
        let roots = try #require(try await server.get("/v1/topics/roots").json?["rows"] as? [[String: Any]])
        #expect(roots.compactMap { $0["id"] as? String } == [a, b])
        #expect(roots.compactMap { $0["childCount"] as? Int } == [1, 0])
        let detail = try #require(try await server.get("/v1/topics/\(c)").json)
        #expect((detail["ancestors"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [a])
        let (changes, _) = try await server.readFeed(resume)
        let last = Dictionary(changes.map { ($0["id"] as? String ?? "", $0["op"] as? String ?? "") }, uniquingKeysWith: { _, later in later })
        #expect(last == [root: "delete", a: "upsert", b: "upsert"], "\(changes)")
    }
}
