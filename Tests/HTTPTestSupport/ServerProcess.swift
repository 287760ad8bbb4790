import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The built `rowserver` binary running as a child process on a port it picked (port 0).
public final class ServerProcess: @unchecked Sendable {
    public let process: ChildProcess
    public let port: Int
    /// What it printed on starting to listen: "rowserver 0.1.0 listening on http://127.0.0.1:40123"
    /// (https:// when it serves TLS).
    public let listeningLine: String
    /// The process's own folder: its database lives here unless the arguments name another.
    public let directory: URL
    private let output: Pipe

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The `rowserver` executable next to the test bundle (`.build/<config>/rowserver`).
    public static var binaryURL: URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("rowserver")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/rowserver")
    }

    /// Starts `rowserver serve --port 0 --db <own folder>/test.sqlite <arguments>` and waits for
    /// its "listening on" line. Each process gets its own database: tests run in parallel.
    public init(arguments: [String] = [], environment: [String: String] = [:]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rowserver-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        process = ChildProcess()
        process.executableURL = Self.binaryURL
        // `notice`: the few lifecycle lines (a signal, what was in flight, how it stopped) land in
        // the test log; the access log's lines do not, unless a test asks for them.
        process.arguments =
            ["serve", "--port", "0", "--log-level", "notice", "--db", directory.appendingPathComponent("test.sqlite").path]
            + (arguments.contains("--access-log") ? [] : ["--access-log", "off"]) + arguments
        var env = ProcessInfo.processInfo.environment
        // Tests send far more than a client may: rate limits (on by default) stay off unless a
        // test turns them on, by this variable or by flag.
        if env["ROWSERVER_RATE_LIMIT"] == nil { env["ROWSERVER_RATE_LIMIT"] = "off" }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        output = Pipe()
        process.standardOutput = output
        try process.run()
        let handle = output.fileHandleForReading
        var line = [UInt8]()
        let deadline = Date().addingTimeInterval(30 * RawHTTPClient.slowdown)
        while Date() < deadline {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty { break }
            if byte[0] == UInt8(ascii: "\n") { break }
            line.append(byte[0])
        }
        var text = String(decoding: line, as: UTF8.self)
        // Anything printed before the "listening on" line is skipped.
        while !text.contains("listening on"), Date() < deadline {
            var next = [UInt8]()
            while true {
                let byte = handle.readData(ofLength: 1)
                if byte.isEmpty || byte[0] == UInt8(ascii: "\n") { break }
                next.append(byte[0])
            }
            if next.isEmpty { break }
            text = String(decoding: next, as: UTF8.self)
        }
        guard let portText = text.split(separator: ":").last, let port = Int(portText) else {
            process.terminate()
            throw Failure(description: "rowserver did not report its port; first line: '\(text)'")
        }
        self.port = port
        listeningLine = text
    }

    public func signal(_ signal: Int32) {
        process.signal(signal)
    }

    /// Waits for the process to exit and returns its status, or nil after `timeout` seconds.
    public func waitForExit(timeout: Double = 15) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout * RawHTTPClient.slowdown)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    deinit {
        if process.isRunning {
            process.signal(SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
