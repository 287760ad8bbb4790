import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A command-line tool (`curl`, `openssl`) run to its end, for tests that need a real TLS peer:
/// no TLS client or certificate maker is written here, so the server meets the ones people use.
public enum ExternalTool {
    public struct Result: Sendable {
        public var status: Int32
        public var output: String
        public var errorOutput: String
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `name`, found on PATH. Blocks: call it from `onThread`.
    public static func run(_ name: String, _ arguments: [String], timeout: Double = 60) throws -> Result {
        guard let executable = find(name) else {
            throw Failure(description: "\(name) is not installed (scripts/setup.sh installs it)")
        }
        return try run(executable, arguments, timeout: timeout)
    }

    /// Runs `executable` and waits for it; its output goes through files, so a chatty tool
    /// never blocks on a full pipe. Past `timeout` seconds (scaled by the build's slowdown) it
    /// is terminated: a test never hangs on a tool, or on a server that should not have started.
    /// Blocks: call it from `onThread`.
    public static func run(_ executable: URL, _ arguments: [String], timeout: Double = 60) throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outputURL = directory.appendingPathComponent("stdout")
        let errorURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        let errors = try FileHandle(forWritingTo: errorURL)
        defer {
            try? output.close()
            try? errors.close()
        }
        let process = ChildProcess()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let deadline = Date().addingTimeInterval(timeout * RawHTTPClient.slowdown)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            output: (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "",
            errorOutput: (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "")
    }

    static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
