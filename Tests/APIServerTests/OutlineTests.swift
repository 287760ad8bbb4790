import Foundation
import HTTPTestSupport
import Testing

/// An outline (`tree: {parent: parentID}` in `examples/outline.yaml`) six levels deep: rows with
/// their children's count and link, one level at a time with every list feature, ancestors root
/// first, and no write that makes a cycle. On SQLite, and on PostgreSQL with ROWSERVER_TEST_STORE=postgres.
@Suite("Outlines")
struct OutlineTests {
    let outline: OutlineServer
    var server: CatalogTestServer { outline.server }

    init() async throws {
        outline = try OutlineServer()
    }

    @Test func aTreeSixLevelsDeepHasItsChildrenCountsLevelsAndAncestors() async throws {
        let chain = try await outline.chain(6, named: "Level ")
        let leaves = [try await outline.folder("Leaf a", under: chain[2]), try await outline.folder("Leaf b", under: chain[2])]
        let other = try await outline.folder("Other root")

        // The collection's own list holds every node, each with its count and its children's link.
        let all = try await outline.rows("/v1/folders")
        #expect(all.count == 9)
        let counts = Dictionary(uniqueKeysWithValues: all.map { ($0["id"] as? String ?? "", $0["childCount"] as? Int ?? -1) })
        #expect(chain.map { counts[$0] } == [1, 1, 3, 1, 1, 0])
        #expect(leaves.map { counts[$0] } == [0, 0])
        for row in all {
            let id = try #require(row["id"] as? String)
            #expect(row["children"] as? String == "/v1/folders/\(id)/children")
            #expect(row["detail"] as? String == "/v1/folders/\(id)")
        }

        // One level at a time: the roots, then each node's children (by name).
        #expect(try await outline.ids("/v1/folders/roots") == [chain[0], other])
        for level in 0..<5 {
            let expected = level == 2 ? [leaves[0], leaves[1], chain[3]] : [chain[level + 1]]
            #expect(try await outline.ids("/v1/folders/\(chain[level])/children") == expected, "level \(level)")
        }
        #expect(try await outline.ids("/v1/folders/\(chain[5])/children").isEmpty)
        let leafList = try #require(try await server.get("/v1/folders/\(chain[5])/children").json)
        #expect((leafList["empty"] as? [String: Any])?["title"] as? String == "No Folders")

        // The deepest node's ancestors, root first, each with its title and detail.
        let detail = try #require(try await server.get("/v1/folders/\(chain[5])").json)
        let ancestors = try #require(detail["ancestors"] as? [[String: Any]])
        #expect(ancestors.map { $0["id"] as? String } == chain.prefix(5).map { $0 })
        #expect(ancestors.map { $0["title"] as? String } == (0..<5).map { "Level \($0)" })
        #expect(ancestors.first?["detail"] as? String == "/v1/folders/\(chain[0])")
        #expect((detail["links"] as? [String: Any])?["children"] as? String == "/v1/folders/\(chain[5])/children")
        #expect((try #require(try await server.get("/v1/folders/\(chain[0])").json)["ancestors"] as? [Any])?.isEmpty == true)

        // The index and every page link the roots.
        let index = try #require(try await server.get("/v1").json?["collections"] as? [[String: Any]])
        #expect(index.compactMap { ($0["links"] as? [String: Any])?["roots"] as? String } == ["/v1/folders/roots", "/v1/units/roots"])
        let page = try #require(try await server.get("/v1/folders/\(chain[0])/children").json)
        #expect((page["links"] as? [String: Any])?["roots"] as? String == "/v1/folders/roots")
        #expect((page["links"] as? [String: Any])?["changes"] as? String == "/v1/folders/\(chain[0])/children/changes")
    }

    @Test func aLevelIsAWholeList() async throws {
        let root = try await outline.folder("Root")
        var children: [String] = []
        for (index, color) in ["red", "blue", "red", "green", "blue"].enumerated() {
            children.append(try await outline.folder("Child \(index)", under: root, color: color))
        }
        _ = try await outline.folder("Grandchild", under: children[0], color: "red")
        let list = "/v1/folders/\(root)/children"
        #expect(try await outline.ids(list + "?sort=-name") == children.reversed())
        #expect(try await outline.ids(list + "?color=red") == [children[0], children[2]], "a filter keeps the grandchild out: one level")
        #expect(try await outline.ids(list + "?q=child%203") == [children[3]])
        let sections = try #require(try await server.get(list + "?group=color").json?["sections"] as? [[String: Any]])
        #expect(sections.map { $0["id"] as? String } == ["blue", "green", "red"])
        let table = try #require(try await server.get(list + "?view=table").json?["rows"] as? [[String: Any]])
        #expect(table.first?["childCount"] as? Int == 1)
        #expect(table.first?["cells"] != nil)

        // Paging both ways, around a row, a selection by id.
        let first = try #require(try await server.get(list + "?limit=2").json)
        let next = try #require((first["links"] as? [String: Any])?["next"] as? String)
        #expect(next.hasPrefix(list + "?limit=2&cursor="))
        let second = try #require(try await server.get(next).json)
        #expect((second["rows"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == Array(children[2...3]))
        let links = try #require(second["links"] as? [String: Any])
        #expect(links["first"] as? String == list + "?limit=2")
        let prev = try #require(links["prev"] as? String)
        let back = try #require(try await server.get(prev).json)
        #expect((back["rows"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == Array(children[0...1]))
        let around = try #require(try await server.get(list + "?limit=2&around=\(children[4])").json)
        #expect((around["rows"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [children[3], children[4]])
        #expect(try await server.get(list + "?around=\(root)").status == 404, "the node itself is not among its children")
        let selection = try #require(try await server.get(list + "?ids=\(children[1]),\(root)").json)
        #expect((selection["rows"] as? [[String: Any]])?.compactMap { $0["childCount"] as? Int } == [0])
        #expect(selection["missing"] as? [String] == [root])

        // Tags and 304s, and a write under the node changes the tag.
        let tagged = try await server.get(list)
        let tag = try #require(tagged.header("ETag"))
        #expect(try await server.send("GET", list, headers: [("If-None-Match", tag)]).status == 304)
        _ = try await outline.folder("Child 5", under: root)
        #expect(try await server.send("GET", list, headers: [("If-None-Match", tag)]).status == 200)

        // A node that does not exist has no children's list; a collection that is no outline has no roots.
        #expect(try await server.get("/v1/folders/fld_06h157w8pshwp0kz/children").status == 404)
        #expect(try await server.get("/v1/folders/fld_06h157w8pshwp0kz/children/changes").status == 404)
        #expect(try await server.get(list + "?parentID=\(root)").status == 400)
    }

    @Test func aWriteThatMakesACycleIs422AndWritesNothing() async throws {
        let chain = try await outline.chain(6, named: "Node ")
        let before = try await server.get("/v1/folders/\(chain[0])")
        let cases: [(String, String?, String)] = [
            (chain[0], chain[0], "itself"),
            (chain[0], chain[5], "its deepest descendant"),
            (chain[2], chain[3], "its child"),
        ]
        for (node, parent, what) in cases {
            let answer = try await outline.move(node, under: parent)
            #expect(answer.status == 422, "\(what): \(answer.text)")
            #expect(answer.json?["code"] as? String == "TREE_CYCLE", "\(what)")
            #expect((answer.json?["errors"] as? [[String: Any]])?.first?["pointer"] as? String == "/parentID", "\(what)")
        }
        let after = try await server.get("/v1/folders/\(chain[0])")
        #expect(after.header("ETag") == before.header("ETag"), "nothing was written")
        #expect(try await outline.ids("/v1/folders/roots") == [chain[0]])
        // A create under a node is never a cycle; a move to another branch or to the roots is none either.
        let side = try await outline.folder("Side", under: chain[1])
        #expect(try await outline.move(side, under: chain[5]).status == 200)
        #expect(try await outline.move(chain[3], under: nil).status == 200)
        #expect(try await outline.ids("/v1/folders/roots") == [chain[0], chain[3]])
    }
}
