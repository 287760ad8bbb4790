import Foundation
import HTTPTestSupport
import Testing

/// A server of `examples/outline.yaml` (folders, whose parent cascades; an org chart of units,
/// whose parent restricts) and the reads the outline suites share.
struct OutlineServer {
    let server: CatalogTestServer

    init() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../examples/outline.yaml").standardized.path
        server = try CatalogTestServer(definition: path)
    }

    /// A folder under `parent` (nil: a root); its id.
    func folder(_ name: String, under parent: String? = nil, color: String = "gray") async throws -> String {
        let parentJSON = parent.map { #","parentID":"\#($0)""# } ?? ""
        return try await server.create("folders", #"{"name":"\#(name)","color":"\#(color)"\#(parentJSON)}"#)
    }

    /// A chain of `depth` folders, each under the one before: the ids, root first.
    func chain(_ depth: Int, named prefix: String, under parent: String? = nil) async throws -> [String] {
        var ids: [String] = []
        for level in 0..<depth { ids.append(try await folder("\(prefix)\(level)", under: ids.last ?? parent)) }
        return ids
    }

    /// Moves `id` under `parent` (nil: to the roots).
    func move(_ id: String, under parent: String?) async throws -> HTTPResponse {
        try await server.send("PATCH", "/v1/folders/\(id)", json: #"{"parentID":\#(parent.map { "\"\($0)\"" } ?? "null")}"#)
    }

    /// A list's rows (one page of at most 100), failing on anything but a 200.
    func rows(_ list: String) async throws -> [[String: Any]] {
        let answer = try await server.get(list + (list.contains("?") ? "&" : "?") + "limit=100")
        let rows = try #require(answer.json?["rows"] as? [[String: Any]], "\(list): \(answer.status) \(answer.text)")
        return rows
    }

    func ids(_ list: String) async throws -> [String] {
        try await rows(list).compactMap { $0["id"] as? String }
    }

    /// The feed link of a list, from now.
    func feedFromNow(_ list: String) async throws -> String {
        let page = try #require(try await server.get(list).json, "\(list)")
        let feed = try #require((page["links"] as? [String: Any])?["changes"] as? String)
        let start = try #require(try await server.get(feed).json, "\(feed)")
        return try #require((start["links"] as? [String: Any])?["next"] as? String)
    }

    /// Every change after `link`, following `more`: each item's `op`, by id.
    func changes(_ link: String) async throws -> [(id: String, op: String, row: [String: Any]?)] {
        try await read(link).changes.map { ($0["id"] as? String ?? "", $0["op"] as? String ?? "", $0["row"] as? [String: Any]) }
    }

    /// Every change after `link`, following `more`, and the link to resume from.
    func read(_ link: String) async throws -> (changes: [[String: Any]], resume: String) {
        try await server.readFeed(link)
    }
}
