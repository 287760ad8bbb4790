/// How the HTTP server listens and what it tolerates.
///
/// The defaults harden libmicrohttpd 0.9.75, which by itself has no connection timeout, no
/// connection limit beyond the file descriptor limit, and no body limit.
public struct ServerConfiguration: Sendable {
    /// Address to bind: an IPv4 or IPv6 literal, or "localhost".
    public var host: String = "127.0.0.1"
    /// 0 picks a free port; `Server.port` reports the one bound.
    public var port: Int = 8080
    /// Threads in libmicrohttpd's epoll pool; defaults to the number of cores.
    public var threads: Int = ServerConfiguration.coreCount
    /// Open connections at most, over all threads.
    public var connectionLimit: Int = 4_000
    /// Open connections per client IP at most; 0 = unlimited (needed behind a proxy, where
    /// every client has the proxy's address). Bounds what one address can hold open with slow
    /// or idle requests.
    public var perIPConnectionLimit: Int = 256
    /// Seconds a connection may be idle before it is closed. libmicrohttpd's timeout is
    /// idle-only: a client sending a byte now and then is never idle; `requestTimeout` bounds it.
    public var connectionTimeout: Int = 10
    /// Seconds a request may take from its start (the connection's opening, or the end of the
    /// previous response on a keep-alive connection) until it is complete, headers and body;
    /// a later one loses its connection. Handlers and sending the response are not counted.
    /// 0 turns the deadline off.
    public var requestTimeout: Double = 30
    /// Bytes per connection for the request line and headers: past it the library answers
    /// 414 (long URI) or 431 (large headers), its own HTML body rather than a problem. An open
    /// connection holds about this much once it served a request (libmicrohttpd zeroes what a
    /// request used), an idle stream too: 24.2 KiB of RSS with 32 KiB, 15.7 with 15 KiB. 32 KiB
    /// holds every URI the API documents (schemathesis sends cursors of thousands of 4-byte
    /// characters, percent-encoded); a server of many streams can take less (`--connection-memory`).
    public var connectionMemoryLimit: Int = 32 * 1024
    /// Request bodies above this many bytes are refused with 413.
    public var maxBodySize: Int = 1024 * 1024
    /// Pending connections the kernel queues before `accept`.
    public var listenBacklog: Int = 1024
    /// Origins allowed by CORS: exact origins, or "*" for any. Empty disables CORS headers.
    public var allowedOrigins: [String] = []
    /// Proxies (nginx in front) whose `X-Forwarded-For` names the client; empty: the socket's
    /// peer is the client.
    public var trustedProxies = TrustedProxies()
    /// Seconds that a graceful shutdown waits for in-flight requests.
    public var shutdownGracePeriod: Double = 10
    /// The certificate chain (the server's certificate first, then any intermediates), as PEM
    /// text, not a path: the server reads no files. Set with `tlsKey` to serve HTTPS (TLS 1.2
    /// and 1.3) through libmicrohttpd's GnuTLS; both nil serve plain HTTP, as behind a proxy
    /// that terminates TLS. One without the other fails the start.
    public var tlsCertificate: String? = nil
    /// The private key of `tlsCertificate`, unencrypted PEM text (PKCS#8, PKCS#1 or SEC1).
    public var tlsKey: String? = nil

    public init() {}

    public static var coreCount: Int {
        max(1, sysconfCoreCount())
    }
}

#if canImport(Glibc)
    import Glibc
    private func sysconfCoreCount() -> Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
#elseif canImport(Darwin)
    import Darwin
    private func sysconfCoreCount() -> Int { Int(sysconf(_SC_NPROCESSORS_ONLN)) }
#endif
