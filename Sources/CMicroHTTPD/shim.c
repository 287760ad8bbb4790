// accept4 is a GNU extension of <sys/socket.h>.
#define _GNU_SOURCE
#include "CMicroHTTPD.h"

#include <arpa/inet.h>
#include <gnutls/gnutls.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

// TLS 1.2 and 1.3 only. libmicrohttpd 0.9.75's default is GnuTLS's "NORMAL", which still
// accepts TLS 1.0 and 1.1 (deprecated by RFC 8996: no client worth serving needs them). An
// allow-list rather than "-VERS-TLS1.0:-VERS-TLS1.1": a later GnuTLS cannot add a version
// here unseen. Not "@SYSTEM:...": GnuTLS refuses it when the machine has no system policy file
// (Debian ships none), and a refused priority string stops the daemon's start.
static const char *const CMHD_TLS_PRIORITIES = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2";

// Room for every option below at once, MHD_OPTION_END included.
#define CMHD_OPTION_CAPACITY 24

struct MHD_Daemon *CMicroHTTPD_start_daemon(const struct CMicroHTTPD_DaemonConfig *config) {
    struct MHD_OptionItem options[CMHD_OPTION_CAPACITY];
    size_t n = 0;
    // A full array refuses to start rather than writing past its end.
#define CMHD_OPT(o, v, p) do { if (n == CMHD_OPTION_CAPACITY) return NULL; options[n].option = (o); options[n].value = (intptr_t)(v); options[n].ptr_value = (void *)(p); n++; } while (0)
    unsigned int flags = config->flags;
    if (config->https_mem_cert != NULL && config->https_mem_key != NULL) {
        flags |= MHD_USE_TLS;
        CMHD_OPT(MHD_OPTION_HTTPS_MEM_CERT, 0, config->https_mem_cert);
        CMHD_OPT(MHD_OPTION_HTTPS_MEM_KEY, 0, config->https_mem_key);
        CMHD_OPT(MHD_OPTION_HTTPS_PRIORITIES, 0, CMHD_TLS_PRIORITIES);
    }
    if (config->thread_pool_size > 1)
        CMHD_OPT(MHD_OPTION_THREAD_POOL_SIZE, config->thread_pool_size, NULL);
    if (config->connection_limit > 0)
        CMHD_OPT(MHD_OPTION_CONNECTION_LIMIT, config->connection_limit, NULL);
    CMHD_OPT(MHD_OPTION_CONNECTION_TIMEOUT, config->connection_timeout, NULL);
    if (config->per_ip_connection_limit > 0)
        CMHD_OPT(MHD_OPTION_PER_IP_CONNECTION_LIMIT, config->per_ip_connection_limit, NULL);
    if (config->connection_memory_limit > 0)
        CMHD_OPT(MHD_OPTION_CONNECTION_MEMORY_LIMIT, config->connection_memory_limit, NULL);
    if (config->request_completed != NULL)
        CMHD_OPT(MHD_OPTION_NOTIFY_COMPLETED, config->request_completed, config->request_completed_cls);
    if (config->uri_log != NULL)
        CMHD_OPT(MHD_OPTION_URI_LOG_CALLBACK, config->uri_log, config->uri_log_cls);
    if (config->notify_connection != NULL)
        CMHD_OPT(MHD_OPTION_NOTIFY_CONNECTION, config->notify_connection, config->notify_connection_cls);
    // The process ignores SIGPIPE itself (HTTPServer does at start), so the library need not.
    CMHD_OPT(MHD_OPTION_SIGPIPE_HANDLED_BY_APP, 1, NULL);
    CMHD_OPT(MHD_OPTION_END, 0, NULL);
#undef CMHD_OPT
    return MHD_start_daemon(flags, 0, NULL, NULL,
                            config->access_handler, config->access_handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

int CMicroHTTPD_tls_check_key_pair(const char *cert_pem, const char *key_pem, char *message, size_t size) {
    gnutls_certificate_credentials_t credentials = NULL;
    int result = gnutls_certificate_allocate_credentials(&credentials);
    if (result == GNUTLS_E_SUCCESS) {
        size_t cert_length = strlen(cert_pem), key_length = strlen(key_pem);
        if (cert_length > UINT_MAX || key_length > UINT_MAX) {
            result = GNUTLS_E_INVALID_REQUEST;
        } else {
            gnutls_datum_t cert = {(unsigned char *)cert_pem, (unsigned int)cert_length};
            gnutls_datum_t key = {(unsigned char *)key_pem, (unsigned int)key_length};
            result = gnutls_certificate_set_x509_key_mem(credentials, &cert, &key, GNUTLS_X509_FMT_PEM);
        }
        gnutls_certificate_free_credentials(credentials);
    }
    if (result >= 0) return 0;
    if (message != NULL && size > 0) snprintf(message, size, "%s", gnutls_strerror(result));
    return -1;
}

unsigned int CMicroHTTPD_daemon_current_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

int CMicroHTTPD_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}

void *CMicroHTTPD_connection_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

int CMicroHTTPD_connection_client_ip(struct MHD_Connection *connection, uint8_t bytes[16]) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return -1;
    const struct sockaddr *addr = info->client_addr;
    if (addr->sa_family == AF_INET) {
        memset(bytes, 0, 10);
        bytes[10] = 0xFF;
        bytes[11] = 0xFF;
        memcpy(bytes + 12, &((const struct sockaddr_in *)addr)->sin_addr, 4);
        return 0;
    }
    if (addr->sa_family == AF_INET6) {
        memcpy(bytes, &((const struct sockaddr_in6 *)addr)->sin6_addr, 16);
        return 0;
    }
    return -1;
}

int CMicroHTTPD_accept(int listen_fd, struct sockaddr *address, socklen_t *length) {
    return accept4(listen_fd, address, length, SOCK_CLOEXEC | SOCK_NONBLOCK);
}

const ssize_t CMicroHTTPD_CONTENT_READER_END_OF_STREAM = MHD_CONTENT_READER_END_OF_STREAM;
const ssize_t CMicroHTTPD_CONTENT_READER_END_WITH_ERROR = MHD_CONTENT_READER_END_WITH_ERROR;
const uint64_t CMicroHTTPD_SIZE_UNKNOWN = MHD_SIZE_UNKNOWN;
