/*
 * ceiling-bytes: the libmicrohttpd ceiling for one given body, in the encoding it was sent in.
 *
 * ../shared/bench/ceiling precomputes identity bodies only. Issue #16 judges a cached gzip page
 * against "the ceiling serving the same compressed bytes": this server reads a body from a file
 * (the bench saves rowserver's own gzip page 1) and answers every GET of /v1/products with it,
 * a prebuilt MHD_Response with the headers a compressed answer carries (Content-Type,
 * Content-Encoding, Vary). /health answers {"status":"ok"} so the bench can tell it is up.
 * libmicrohttpd is set up like the shared ceiling: internal polling thread + epoll, a thread
 * pool of one thread per online core, keep-alive, the response queued on the handler's second
 * call (0.9.75 closes the connection when a response is queued on the first).
 *
 * Usage: ceiling-bytes --body FILE [--encoding gzip] [--host 127.0.0.1] [--port 8085] [--threads N]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct MHD_Response *body_response, *health_response, *not_found_response;

static struct MHD_Response *json_response(void *bytes, size_t count, enum MHD_ResponseMemoryMode mode) {
  struct MHD_Response *response = MHD_create_response_from_buffer(count, bytes, mode);
  if (!response) { fprintf(stderr, "MHD_create_response_from_buffer failed\n"); exit(1); }
  MHD_add_response_header(response, "Content-Type", "application/json; charset=utf-8");
  return response;
}

static void *read_file(const char *path, size_t *count) {
  FILE *file = fopen(path, "rb");
  if (!file) { perror(path); exit(1); }
  size_t capacity = 1 << 16, used = 0;
  char *bytes = malloc(capacity);
  size_t got;
  while (bytes && (got = fread(bytes + used, 1, capacity - used, file)) > 0) {
    used += got;
    if (used == capacity) bytes = realloc(bytes, capacity *= 2);
  }
  if (!bytes) { perror("malloc"); exit(1); }
  fclose(file);
  *count = used;
  return bytes;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                               const char *version, const char *upload_data, size_t *upload_data_size, void **state) {
  (void)cls; (void)version; (void)upload_data; (void)upload_data_size;
  static int first_call;
  if (*state == NULL) { *state = &first_call; return MHD_YES; }
  if (strcmp(method, "GET") == 0 && strcmp(url, "/v1/products") == 0)
    return MHD_queue_response(connection, MHD_HTTP_OK, body_response);
  if (strcmp(method, "GET") == 0 && strcmp(url, "/health") == 0)
    return MHD_queue_response(connection, MHD_HTTP_OK, health_response);
  return MHD_queue_response(connection, MHD_HTTP_NOT_FOUND, not_found_response);
}

int main(int argc, char **argv) {
  const char *host = "127.0.0.1", *body_path = NULL, *encoding = NULL;
  int port = 8085;
  long threads = sysconf(_SC_NPROCESSORS_ONLN);
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--host") && i + 1 < argc) host = argv[++i];
    else if (!strcmp(argv[i], "--port") && i + 1 < argc) port = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--body") && i + 1 < argc) body_path = argv[++i];
    else if (!strcmp(argv[i], "--encoding") && i + 1 < argc) encoding = argv[++i];
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atol(argv[++i]);
    else { fprintf(stderr, "unknown argument %s\n", argv[i]); return 2; }
  }
  if (!body_path) { fprintf(stderr, "usage: ceiling-bytes --body FILE [--encoding gzip] [--port N]\n"); return 2; }
  size_t count;
  void *body = read_file(body_path, &count);
  body_response = json_response(body, count, MHD_RESPMEM_MUST_FREE);
  if (encoding) {
    MHD_add_response_header(body_response, "Content-Encoding", encoding);
    MHD_add_response_header(body_response, "Vary", "Accept-Encoding");
  }
  static char health[] = "{\"status\":\"ok\"}", missing[] = "{\"error\":\"not found\"}";
  health_response = json_response(health, strlen(health), MHD_RESPMEM_PERSISTENT);
  not_found_response = json_response(missing, strlen(missing), MHD_RESPMEM_PERSISTENT);

  struct sockaddr_in address = {0};
  address.sin_family = AF_INET;
  address.sin_port = htons((uint16_t)port);
  if (inet_pton(AF_INET, host, &address.sin_addr) != 1) { fprintf(stderr, "bad host %s\n", host); return 1; }
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, NULL);
  struct MHD_Daemon *daemon = MHD_start_daemon(
      MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, (uint16_t)port, NULL, NULL, &handler, NULL,
      MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address, MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)threads,
      MHD_OPTION_CONNECTION_LIMIT, (unsigned int)4096, MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned int)1024, MHD_OPTION_END);
  if (!daemon) { fprintf(stderr, "MHD_start_daemon failed\n"); return 1; }
  fprintf(stderr, "ceiling-bytes: %zu bytes%s%s, %ld threads, listening on %s:%d\n", count, encoding ? ", " : "",
          encoding ? encoding : "", threads, host, port);
  int signal_number;
  sigwait(&stop, &signal_number);
  MHD_stop_daemon(daemon);
  return 0;
}
