#include "CMicroHTTPD.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

struct MHD_Daemon *CMicroHTTPD_start_daemon(const struct CMicroHTTPD_DaemonConfig *config) {
    struct MHD_OptionItem options[16];
    size_t n = 0;
#define CMHD_OPT(o, v, p) do { options[n].option = (o); options[n].value = (intptr_t)(v); options[n].ptr_value = (void *)(p); n++; } while (0)
    if (config->thread_pool_size > 1)
        CMHD_OPT(MHD_OPTION_THREAD_POOL_SIZE, config->thread_pool_size, NULL);
    if (config->connection_limit > 0)
        CMHD_OPT(MHD_OPTION_CONNECTION_LIMIT, config->connection_limit, NULL);
    CMHD_OPT(MHD_OPTION_CONNECTION_TIMEOUT, config->connection_timeout, NULL);
    if (config->per_ip_connection_limit > 0)
        CMHD_OPT(MHD_OPTION_PER_IP_CONNECTION_LIMIT, config->per_ip_connection_limit, NULL);
    if (config->connection_memory_limit > 0)
        CMHD_OPT(MHD_OPTION_CONNECTION_MEMORY_LIMIT, config->connection_memory_limit, NULL);
    if (config->listen_backlog > 0)
        CMHD_OPT(MHD_OPTION_LISTEN_BACKLOG_SIZE, config->listen_backlog, NULL);
    if (config->bind_address != NULL)
        CMHD_OPT(MHD_OPTION_SOCK_ADDR, 0, config->bind_address);
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
    return MHD_start_daemon(config->flags, config->port, NULL, NULL,
                            config->access_handler, config->access_handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

uint16_t CMicroHTTPD_daemon_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

unsigned int CMicroHTTPD_daemon_current_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

int CMicroHTTPD_connection_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL || size == 0) return -1;
    const struct sockaddr *addr = info->client_addr;
    const void *src = NULL;
    if (addr->sa_family == AF_INET) src = &((const struct sockaddr_in *)addr)->sin_addr;
    else if (addr->sa_family == AF_INET6) src = &((const struct sockaddr_in6 *)addr)->sin6_addr;
    if (src == NULL) return -1;
    return inet_ntop(addr->sa_family, src, buffer, (socklen_t)size) == NULL ? -1 : 0;
}

int CMicroHTTPD_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}

void *CMicroHTTPD_connection_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}
