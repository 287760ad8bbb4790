// CMicroHTTPD: libmicrohttpd 0.9.75 for Swift.
//
// Swift cannot call C-variadic functions, and libmicrohttpd's start and info calls are
// variadic. Each CMicroHTTPD_* function below is a fixed-argument wrapper of one such call.
// They can go when libmicrohttpd grows non-variadic equivalents (its 2.x API has them).
// Only the HTTPServer module imports this module.
#ifndef CMICROHTTPD_H
#define CMICROHTTPD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// The raw request target (path and query, before libmicrohttpd percent-decodes the path),
/// delivered once per request before any header is parsed. Its return value becomes the
/// request's context pointer (`*req_cls` in the access handler and completion callback).
typedef void *(*CMicroHTTPD_URILogCallback)(void *cls, const char *uri, struct MHD_Connection *connection);

/// Everything `MHD_start_daemon` needs, as one struct, so Swift can fill it field by field.
struct CMicroHTTPD_DaemonConfig {
    /// `MHD_FLAG` bits (`MHD_USE_EPOLL_INTERNAL_THREAD | ...`).
    unsigned int flags;
    unsigned int thread_pool_size;
    unsigned int connection_limit;
    /// Seconds of inactivity before a connection is closed; 0 = never (libmicrohttpd's default).
    unsigned int connection_timeout;
    /// 0 = no per-IP limit.
    unsigned int per_ip_connection_limit;
    /// Bytes per connection for the request line, headers and buffers; 0 = library default.
    size_t connection_memory_limit;

    MHD_AccessHandlerCallback access_handler;
    void *access_handler_cls;
    MHD_RequestCompletedCallback request_completed;
    void *request_completed_cls;
    CMicroHTTPD_URILogCallback uri_log;
    void *uri_log_cls;
    /// Called when a connection opens and just before its socket is closed: the only moments
    /// that bracket the socket's life (the request callbacks miss a client that never sends a
    /// complete request line).
    MHD_NotifyConnectionCallback notify_connection;
    void *notify_connection_cls;
    /// The server's certificate chain and private key, PEM text (not paths). Both set: HTTPS
    /// (`MHD_USE_TLS` is added to `flags`); both NULL: plain HTTP. libmicrohttpd reads them only
    /// inside `CMicroHTTPD_start_daemon` (GnuTLS copies them into its credentials), so they need
    /// not outlive the call.
    const char *https_mem_cert;
    const char *https_mem_key;
};

/// Why: `MHD_start_daemon` is variadic. Options are passed through `MHD_OPTION_ARRAY`.
/// Returns NULL when the daemon cannot start (port in use, bad options).
struct MHD_Daemon *CMicroHTTPD_start_daemon(const struct CMicroHTTPD_DaemonConfig *config);

/// Why: libmicrohttpd 0.9.75 reports a certificate or key that GnuTLS refuses only as a NULL
/// daemon, the same as a port in use. This loads the pair the way libmicrohttpd does
/// (`gnutls_certificate_set_x509_key_mem`), so the refusal can be told apart and named.
/// Returns 0 when the pair loads; otherwise -1, with GnuTLS's reason copied into `message`.
/// It can go with libmicrohttpd 2.x, whose start reports why it failed.
int CMicroHTTPD_tls_check_key_pair(const char *cert_pem, const char *key_pem, char *message, size_t size);

/// Why: Swift's Glibc module leaves out `accept4` (a GNU extension). Accepts a connection for
/// `MHD_add_connection`, non-blocking and close-on-exec from the start (no `fcntl` calls after);
/// -1 with `errno` as `accept4` sets it. It can go when Glibc's module map exposes `accept4`.
int CMicroHTTPD_accept(int listen_fd, struct sockaddr *address, socklen_t *length);

/// Why: `MHD_get_daemon_info` is variadic. Open connections right now (all pool threads).
unsigned int CMicroHTTPD_daemon_current_connections(struct MHD_Daemon *daemon);

/// Why: `MHD_get_connection_info` is variadic. The connection's socket, or -1 when unknown.
/// Valid from the connection's start notification until its close notification, which
/// libmicrohttpd sends before it closes the socket.
int CMicroHTTPD_connection_fd(struct MHD_Connection *connection);

/// Why: `MHD_get_connection_info` is variadic. What the application stored in the
/// connection's `socket_context` at its start notification, or NULL.
void *CMicroHTTPD_connection_socket_context(struct MHD_Connection *connection);

/// Why: `MHD_get_connection_info` is variadic. Copies the client's address into `bytes` as 16
/// bytes in network order (IPv4 as IPv4-mapped IPv6, ::ffff:a.b.c.d); returns 0 on success,
/// -1 when unknown. Cheaper than the text form on the path of every request.
int CMicroHTTPD_connection_client_ip(struct MHD_Connection *connection, uint8_t bytes[16]);

/// Why: `MHD_CONTENT_READER_END_OF_STREAM`, `MHD_CONTENT_READER_END_WITH_ERROR` and
/// `MHD_SIZE_UNKNOWN` are cast macros, which Swift does not import. A streamed response's
/// reader (`ResponseStream`) answers with them. They can go with libmicrohttpd 2.x's enums.
extern const ssize_t CMicroHTTPD_CONTENT_READER_END_OF_STREAM;
extern const ssize_t CMicroHTTPD_CONTENT_READER_END_WITH_ERROR;
extern const uint64_t CMicroHTTPD_SIZE_UNKNOWN;

#endif
