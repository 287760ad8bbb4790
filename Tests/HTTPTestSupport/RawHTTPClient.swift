import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking HTTP/1.1 client over a raw TCP socket, for tests.
///
/// It sends exactly the bytes it is given (no header fixing, no retries), so tests can send
/// malformed and hostile requests, and it parses responses strictly enough to catch a server
/// that answers twice or frames a body wrongly. Every read has a timeout: a test never hangs.
/// Used by one thread at a time (tests hand it from one blocking closure to the next).
public final class RawHTTPClient: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    private let fd: Int32
    private var buffer: [UInt8] = []
    public private(set) var isClosedByPeer = false

    /// Seconds a read may wait: 30, or ROWSERVER_TEST_TIMEOUT (sanitized builds run ~10× slower).
    /// Generous because a write waits for fsync, which the whole suite in parallel on a busy
    /// 2-core machine once stretched past 10 s; tests that expect a read to time out pass
    /// their own, shorter timeout.
    public static var defaultTimeout: Double {
        ProcessInfo.processInfo.environment["ROWSERVER_TEST_TIMEOUT"].flatMap(Double.init) ?? 30
    }

    /// How much slower than normal this build runs (ROWSERVER_TEST_SLOWDOWN, default 1): tests
    /// that must wait for the server to get somewhere scale their pauses by it.
    public static var slowdown: Double {
        ProcessInfo.processInfo.environment["ROWSERVER_TEST_SLOWDOWN"].flatMap(Double.init) ?? 1
    }

    /// Connects at once. `fd` is stored only once connected: Swift runs `deinit` when a class's
    /// init throws after every stored property is set, and a `deinit` closing a descriptor that
    /// the failure path already closed would close whatever socket got that number in between
    /// (in tests, often one the in-process server had just accepted: libmicrohttpd then aborts
    /// with "Failed to remove FD from epoll set").
    /// Connects to `host:port`; from the loopback address `source` (127.0.0.2) when given, as
    /// another client on the same machine.
    public init(port: Int, host: String = "127.0.0.1", source: String? = nil, timeout: Double = RawHTTPClient.defaultTimeout) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(fd)
                throw Failure(description: "bind to \(source) failed: errno \(errno)")
            }
        }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "connect to \(host):\(port) failed: errno \(code)")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Closes the socket now (an abort, from the server's point of view).
    public func abort() {
        var lingerOff = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &lingerOff, socklen_t(MemoryLayout<linger>.size))
        shutdown(fd, Int32(SHUT_RDWR))
    }

    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // A signal to the test process (a child tool exiting) interrupts a blocked call: try again.
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Sends a request with `Host` and (when there is a body) `Content-Length` added.
    public func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> HTTPResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PATCH" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try send(Array(head.utf8) + body)
        return try readResponse(isHEAD: method == "HEAD")
    }

    /// Reads one response; `isHEAD` responses carry no body whatever their Content-Length says.
    public func readResponse(isHEAD: Bool = false) throws -> HTTPResponse {
        var response: HTTPResponse
        repeat {
            let headEnd = try readUntil(Array("\r\n\r\n".utf8))
            let headText = String(decoding: buffer[..<headEnd], as: UTF8.self)
            buffer.removeFirst(headEnd + 4)
            response = try HTTPResponse(head: headText)
        } while response.status == 100
        if isHEAD || response.status == 204 || response.status == 304 { return response }
        return try readBody(of: response)
    }

    /// Reads the body of a response whose head was read (`readHead`), by its framing.
    public func readBody(of head: HTTPResponse) throws -> HTTPResponse {
        var response = head
        if let encoding = response.header("Transfer-Encoding"), encoding.lowercased().contains("chunked") {
            response.body = try readChunked()
        } else if let length = response.header("Content-Length").flatMap(Int.init) {
            try fill(length)
            response.body = Array(buffer[..<length])
            buffer.removeFirst(length)
        } else {
            response.body = try readToEnd()
        }
        return response
    }

    /// Reads one response head only: the interim `100 Continue` a server sends before the body.
    public func readHead() throws -> HTTPResponse {
        let headEnd = try readUntil(Array("\r\n\r\n".utf8))
        let headText = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        return try HTTPResponse(head: headText)
    }

    /// Everything until the server closes the connection (or the timeout).
    public func readToEnd() throws -> [UInt8] {
        while try receive() > 0 {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// True when the server closed the connection (reads return EOF within `timeout`).
    public func waitForClose() -> Bool {
        while true {
            do {
                if try receive() == 0 { return true }
            } catch {
                return false
            }
        }
    }

    private func readChunked() throws -> [UInt8] {
        var body: [UInt8] = []
        while let chunk = try readChunk() { body += chunk }
        return body
    }

    /// The next chunk of a chunked body whose head was read (`readHead`); nil after the last.
    public func readChunk() throws -> [UInt8]? {
        let lineEnd = try readUntil(Array("\r\n".utf8))
        let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
        buffer.removeFirst(lineEnd + 2)
        guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
            throw Failure(description: "bad chunk size '\(sizeText)'")
        }
        if size == 0 {
            _ = try readUntil(Array("\r\n".utf8))
            buffer.removeFirst(2)
            return nil
        }
        try fill(size + 2)
        defer { buffer.removeFirst(size + 2) }
        return Array(buffer[..<size])
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        var searchFrom = 0
        while true {
            if buffer.count >= marker.count {
                for i in searchFrom...(buffer.count - marker.count) where buffer[i..<(i + marker.count)].elementsEqual(marker) {
                    return i
                }
                searchFrom = max(0, buffer.count - marker.count + 1)
            }
            guard try receive() > 0 else { throw Failure(description: "connection closed before a complete response") }
        }
    }

    private func fill(_ count: Int) throws {
        while buffer.count < count {
            guard try receive() > 0 else { throw Failure(description: "connection closed mid-body") }
        }
    }

    @discardableResult
    private func receive() throws -> Int {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var n = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
        while n < 0 && errno == EINTR { n = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) } }
        if n < 0 { throw Failure(description: "recv failed or timed out: errno \(errno)") }
        if n == 0 { isClosedByPeer = true }
        buffer += chunk[..<n]
        return n
    }
}
