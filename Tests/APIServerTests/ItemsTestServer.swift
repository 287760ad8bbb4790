import HTTPTestSupport
import ServerTestSupport
import Storage

/// The application on an ephemeral port over an empty store of the demo definition
/// (`LiveStoreApplication`), with helpers for the item routes.
final class ItemsTestServer: KeyedTestServer, Sendable {
    let live: LiveStoreApplication
    var opened: TestStore { live.opened }
    var store: any ItemStore { live.store }
    var keys: KeyStore { live.keys }
    /// A key with the write scope: every write needs one.
    var writeKey: String { live.writeKey }
    var port: Int { live.port }

    init() throws {
        live = try LiveStoreApplication(seedDemoData: false)
    }

    /// One request with a JSON body (`application/json` unless `contentType` says otherwise).
    func send(
        _ method: String, _ target: String, json: String? = nil, contentType: String? = "application/json",
        headers: [(String, String)] = []
    ) async throws -> HTTPResponse {
        var all = headers
        if json != nil, let contentType { all.append(("Content-Type", contentType)) }
        if method != "GET" && method != "HEAD" { all.insert(authorization, at: 0) }
        return try await fetch(port: port, method, target, headers: all, body: Array((json ?? "").utf8))
    }

    /// Creates an item and returns its detail path (the `Location`), failing when it is not 201.
    func create(_ collection: String, _ json: String) async throws -> String {
        let response = try await send("POST", "/v1/\(collection)", json: json)
        guard response.status == 201, let location = response.header("Location") else {
            throw RawHTTPClient.Failure(description: "POST /v1/\(collection) answered \(response.status): \(response.text)")
        }
        return location
    }
}

extension HTTPResponse {
    /// The problem document's `code`.
    var problemCode: String? { json?["code"] as? String }

    /// The pointers of a 422's `errors`.
    var problemPointers: [String] {
        ((json?["errors"] as? [[String: Any]]) ?? []).compactMap { $0["pointer"] as? String }
    }
}
