import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The server's listening socket and the thread that accepts on it, handing each connection to
/// libmicrohttpd (`MHD_add_connection`).
///
/// Why not libmicrohttpd's own accept: with a thread pool, every worker polls the one listening
/// socket and whichever wakes first takes the connection (up to ten in a row), so a burst of
/// connections can all land on one worker, leaving the others idle. An added
/// connection goes to the worker its descriptor number picks (descriptor modulo pool size,
/// libmicrohttpd 0.9.75 `MHD_add_connection`), and a burst gets consecutive descriptors: the
/// workers take turns. The per-IP limit is still libmicrohttpd's (it checks it when a connection is
/// added, and closes one past it); the global limit is this thread's: at it, it waits before
/// accepting, so clients wait in the backlog as they did when libmicrohttpd accepted.
/// One more thread, and per connection one `poll` more than before; nothing per request.
final class Listener: @unchecked Sendable {
    // `descriptor` is written in init and by `stop()`, which `Daemon` calls under its owner's
    // lock; the accept thread reads only its own copy.
    private var descriptor: Int32
    let port: Int
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private var started = false

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Binds and listens; accepts nothing until `start`.
    init(address: SocketAddress, backlog: Int) throws {
        let family = address.isIPv6 ? AF_INET6 : AF_INET
        let socket = Glibc.socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "cannot open a socket: \(String(cString: strerror(errno)))") }
        var on: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        // As libmicrohttpd did for an IPv6 address: that address only, no IPv4-mapped clients.
        if address.isIPv6 { setsockopt(socket, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size)) }
        // Non-blocking: the accept thread waits in `poll`, which also wakes it to stop.
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        let bound = address.withSockaddr { pointer, length in bind(socket, pointer, length) }
        guard bound == 0, listen(socket, Int32(clamping: backlog > 0 ? backlog : Int(SOMAXCONN))) == 0 else {
            // The system's reason: "Address already in use", "Permission denied" (a port below 1024)…
            let reason = String(cString: strerror(errno))
            close(socket)
            throw Failure(description: reason)
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        descriptor = socket
        port = named == 0 ? Self.port(of: storage) : 0
    }

    private static func port(of storage: sockaddr_storage) -> Int {
        var storage = storage
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }

    /// Starts the accept thread, which hands connections to `daemon` until `stop()`.
    /// `connectionLimit`: the daemon's global limit (0: none), waited out before accepting.
    func start(daemon: OpaquePointer, connectionLimit: Int) {
        started = true
        let handle = DaemonHandle(pointer: daemon)
        let socket = descriptor
        let thread = Thread { [self] in
            acceptLoop(socket: socket, daemon: handle, connectionLimit: connectionLimit)
            finished.signal()
        }
        thread.name = "rowserver.accept"
        thread.start()
    }

    private func acceptLoop(socket: Int32, daemon: DaemonHandle, connectionLimit: Int) {
        while !stopping.load(ordering: .acquiring) {
            // A timeout, so a stop is seen even if the shutdown below woke nothing.
            var waiting = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 1_000) > 0 else { continue }
            // Checked when a connection is waiting, not before the wait: the count may have grown
            // meanwhile. It lags the connections just handed over (libmicrohttpd counts them when
            // its worker takes them), so a burst can pass the limit by a few; they are served.
            if connectionLimit > 0 && Int(CMicroHTTPD_daemon_current_connections(daemon.pointer)) >= connectionLimit {
                usleep(5_000)
                continue
            }
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    CMicroHTTPD_accept(socket, $0, &length)
                }
            }
            guard client >= 0 else {
                switch errno {
                case EINTR, ECONNABORTED, EPROTO, EAGAIN: continue
                // Out of descriptors or memory: the connection waits in the backlog meanwhile.
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    usleep(10_000)
                    continue
                // `stop()` shut the socket down (EINVAL); anything else is retried, never the end of accepting.
                default:
                    if stopping.load(ordering: .acquiring) { return }
                    usleep(10_000)
                    continue
                }
            }
            // libmicrohttpd closes the socket itself when it refuses it (a limit, no memory).
            _ = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(daemon.pointer, client, $0, length) }
            }
        }
    }

    /// Stops accepting and waits for the accept thread to end; then no connection reaches the
    /// daemon, which may be stopped. Connections still in the backlog are reset. Safe to call twice.
    func stop() {
        guard descriptor >= 0 else { return }
        stopping.store(true, ordering: .releasing)
        // Wakes the thread's `poll` at once (the socket reads as hung up).
        shutdown(descriptor, Int32(SHUT_RDWR))
        if started { finished.wait() }
        close(descriptor)
        descriptor = -1
    }

    deinit { stop() }
}

/// The daemon's pointer, handed to the accept thread. libmicrohttpd's `MHD_add_connection` is
/// safe to call from a thread of the application's while the daemon's own threads run.
private struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
