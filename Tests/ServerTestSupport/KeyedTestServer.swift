import HTTPTestSupport

/// A test server whose database holds a key with the write scope (`writeKey`).
public protocol KeyedTestServer {
    var port: Int { get }
    var writeKey: String { get }
}

extension KeyedTestServer {
    /// `Authorization: Bearer <writeKey>`.
    public var authorization: (String, String) { ("Authorization", "Bearer " + writeKey) }

    /// One request with the write key, on a fresh connection.
    public func write(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) async throws -> HTTPResponse {
        try await fetch(port: port, method, target, headers: [authorization] + headers, body: body)
    }
}
