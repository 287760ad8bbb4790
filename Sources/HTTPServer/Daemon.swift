import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#endif

/// Owns one `MHD_Daemon*` and the socket it is fed from (`Listener`): starts them, quiesces,
/// stops exactly once.
final class Daemon: @unchecked Sendable {
    // The pointer is written in init and in stop(), which Server calls once under its lock.
    private var handle: OpaquePointer?
    private let listener: Listener
    var port: Int { listener.port }
    /// True when it speaks HTTPS (a certificate and key were configured).
    let isTLS: Bool

    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts listening. `cls` is passed to every callback; it must outlive the daemon.
    init(configuration: ServerConfiguration, cls: UnsafeMutableRawPointer) throws {
        let tls = try Self.checkedTLS(configuration)
        let address = try SocketAddress(host: configuration.host, port: configuration.port)
        let listener: Listener
        do {
            listener = try Listener(address: address, backlog: configuration.listenBacklog)
        } catch {
            throw StartError(description: "cannot listen on \(configuration.host):\(configuration.port) (\(error))")
        }
        // Connections come from the listener (`MHD_add_connection`), not from a socket of the daemon's.
        let flags: UInt32 = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_NO_LISTEN_SOCKET.rawValue
        let handle = { () -> OpaquePointer? in
            var config = CMicroHTTPD_DaemonConfig()
            config.flags = flags
            config.thread_pool_size = UInt32(clamping: configuration.threads)
            // The listener keeps to `connectionLimit` (it waits before accepting); libmicrohttpd's own
            // limit, split evenly over its workers, is a safety net that lets one worker hold them
            // all. With it equal to the listener's, a connection that raced past the listener's
            // lagging count left the daemon's stop hung in 0.9.75, a worker waiting on a mutex
            // (ListenerTests.shutdownReturnsAfterConnectionsRacedTheLimit), so it must not be reached.
            let safetyNet = configuration.connectionLimit.multipliedReportingOverflow(by: max(1, configuration.threads) * 2)
            config.connection_limit = UInt32(clamping: safetyNet.overflow ? Int.max : safetyNet.partialValue)
            config.connection_timeout = UInt32(clamping: configuration.connectionTimeout)
            config.per_ip_connection_limit = UInt32(clamping: configuration.perIPConnectionLimit)
            config.connection_memory_limit = configuration.connectionMemoryLimit
            config.access_handler = accessHandlerCallback
            config.access_handler_cls = cls
            config.request_completed = requestCompletedCallback
            config.request_completed_cls = cls
            config.uri_log = uriLogCallback
            config.uri_log_cls = cls
            if configuration.requestTimeout > 0 {
                config.notify_connection = notifyConnectionCallback
                config.notify_connection_cls = cls
            }
            guard let tls else { return CMicroHTTPD_start_daemon(&config) }
            // libmicrohttpd reads the PEM text only during the start: GnuTLS copies it into the
            // daemon's credentials (0.9.75 and 1.0.1: `MHD_init_daemon_certificate`).
            return tls.certificate.withCString { certificate in
                tls.key.withCString { key in
                    config.https_mem_cert = certificate
                    config.https_mem_key = key
                    return CMicroHTTPD_start_daemon(&config)
                }
            }
        }()
        guard let handle else {
            throw StartError(description: "cannot start libmicrohttpd on \(configuration.host):\(configuration.port)")
        }
        self.handle = handle
        self.listener = listener
        self.isTLS = tls != nil
        listener.start(daemon: handle, connectionLimit: configuration.connectionLimit)
    }

    /// The certificate and key to serve HTTPS with, nil for plain HTTP, or why they cannot be
    /// used. Checked before the start because libmicrohttpd's start fails the same way (a NULL
    /// daemon) for a refused certificate as for a port in use.
    private static func checkedTLS(_ configuration: ServerConfiguration) throws -> (certificate: String, key: String)? {
        switch (configuration.tlsCertificate, configuration.tlsKey) {
        case (nil, nil):
            return nil
        case (nil, _?):
            throw StartError(description: "a TLS key without a certificate: HTTPS needs both")
        case (_?, nil):
            throw StartError(description: "a TLS certificate without a key: HTTPS needs both")
        case (let certificate?, let key?):
            guard MHD_is_feature_supported(.FEATURE_TLS) == .YES else {
                throw StartError(description: "this libmicrohttpd was built without TLS: terminate TLS at a proxy (nginx)")
            }
            var message = [CChar](repeating: 0, count: 256)
            guard CMicroHTTPD_tls_check_key_pair(certificate, key, &message, message.count) == 0 else {
                let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw StartError(description: "the TLS certificate and key were refused (GnuTLS: \(reason)); both must be PEM, the key unencrypted")
            }
            return (certificate, key)
        }
    }

    var currentConnections: Int {
        handle.map { Int(CMicroHTTPD_daemon_current_connections($0)) } ?? 0
    }

    /// Stops accepting new connections; open ones keep being served.
    func quiesce() {
        listener.stop()
    }

    /// Closes every connection and joins the pool threads.
    func stop() {
        guard let handle else { return }
        // First: no connection may be added to a stopped daemon.
        listener.stop()
        self.handle = nil
        MHD_stop_daemon(handle)
    }
}
