import Foundation

/// Runs blocking socket work on its own thread, so tests never block Swift's cooperative
/// pool (2 threads on this machine) that the server's async handlers need.
public func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do { continuation.resume(returning: try work()) } catch { continuation.resume(throwing: error) }
        }
        thread.start()
    }
}

/// A GET on a fresh connection, off the cooperative pool.
public func fetch(port: Int, _ target: String, headers: [(String, String)] = []) async throws -> HTTPResponse {
    try await fetch(port: port, "GET", target, headers: headers)
}

/// One request on a fresh connection, off the cooperative pool.
public func fetch(
    port: Int, _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = [], source: String? = nil
) async throws -> HTTPResponse {
    try await onThread {
        let client = try RawHTTPClient(port: port, source: source)
        return try client.request(method, target, headers: headers, body: body)
    }
}

/// Sends raw bytes on a fresh connection and reads one response.
public func exchange(port: Int, raw: String, isHEAD: Bool = false) async throws -> HTTPResponse {
    try await onThread {
        let client = try RawHTTPClient(port: port)
        try client.send(raw)
        return try client.readResponse(isHEAD: isHEAD)
    }
}

/// Polls `condition` every 10 ms until it holds or `timeout` seconds pass.
public func eventually(timeout: Double = 5, _ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout * RawHTTPClient.slowdown)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
