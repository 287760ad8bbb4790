import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program run by the tests (the `rowserver` binary, curl, openssl, python3), started with
/// `posix_spawn`: the subset of Foundation's `Process` the tests use, under the same names.
///
/// Why not `Process`: on Linux its `run()` lists /proc/self/fd to close every descriptor in the
/// child, and copies each directory entry at its full struct size; the last entry of a full
/// buffer can then be read past the end of its allocation. With a few thousand descriptors open
/// (many live servers at once in the suite) it crashed the test process in 2 of 5 full runs.
/// Here glibc closes them in the child (`posix_spawn_file_actions_addclosefrom_np`).
public final class ChildProcess: @unchecked Sendable {
    public var executableURL: URL?
    public var arguments: [String] = []
    /// nil: the test process's own environment.
    public var environment: [String: String]?
    /// A `Pipe` or a `FileHandle`; nil inherits the test process's own.
    public var standardInput: Any?
    public var standardOutput: Any?
    public var standardError: Any?

    private let lock = NSLock()
    private var pid: pid_t = 0
    private var exitStatus: Int32?

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public init() {}

    public var processIdentifier: Int32 { lock.withLock { pid } }

    public func run() throws {
        guard let path = executableURL?.path else { throw Failure(description: "no executable") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentEnds: [FileHandle] = []
        for (target, stream) in [(Int32(0), standardInput), (1, standardOutput), (2, standardError)] {
            switch stream {
            case let pipe as Pipe:
                let childEnd = target == 0 ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                posix_spawn_file_actions_adddup2(&actions, childEnd.fileDescriptor, target)
                parentEnds.append(childEnd)
            case let handle as FileHandle:
                posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target)
            default:
                break
            }
        }
        guard Self.addCloseFrom(&actions, 3) == 0 else { throw Failure(description: "posix_spawn_file_actions_addclosefrom_np failed") }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + variables { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, nil, argv, variables)
        guard result == 0 else { throw Failure(description: "posix_spawn \(path) failed: errno \(result)") }
        // The child holds its ends now; the parent's copies would keep a pipe from ever ending.
        for end in parentEnds { try? end.close() }
        lock.withLock { pid = child }
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34), which Swift's Glibc module does
    /// not declare: looked up once by name.
    private static let addCloseFrom: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            return { _, _ in -1 }
        }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Reaps the child if it has exited; its raw wait status once it has.
    private func poll() -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let exitStatus { return exitStatus }
        guard pid > 0 else { return nil }
        var status: Int32 = 0
        var result: pid_t
        repeat {
            result = waitpid(pid, &status, WNOHANG)
        } while result < 0 && errno == EINTR
        // ECHILD: reaped elsewhere, so gone; its status is lost (reported as exit code 255).
        if result < 0, errno == ECHILD { status = 0xFF00 } else if result != pid { return nil }
        exitStatus = status
        return status
    }

    public var isRunning: Bool { processIdentifier > 0 && poll() == nil }

    /// Polls rather than blocks in `waitpid`, so that the lock stays free for `signal(_:)`.
    public func waitUntilExit() {
        while poll() == nil, processIdentifier > 0 { usleep(2_000) }
    }

    /// The exit code, or the signal that ended it (as Foundation's `Process` reports it).
    public var terminationStatus: Int32 {
        guard let status = poll() else { return -1 }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : signal
    }

    public func terminate() {
        signal(SIGTERM)
    }

    /// Sends `number` to the child unless it has been reaped: a reaped child's pid is free for
    /// the system to give to another process (pid_max is 32,768 on these machines), such as a
    /// PostgreSQL backend of the same test run. An exited child not yet reaped keeps its pid, so
    /// one poll first (which also learns of a child reaped elsewhere) leaves no gap.
    public func signal(_ number: Int32) {
        guard poll() == nil else { return }
        lock.withLock {
            if pid > 0, exitStatus == nil { _ = kill(pid, number) }
        }
    }
}
