#!/usr/bin/env bash
# rowserver as several instances on one PostgreSQL database, behind nginx on one port: the second
# way to run it (the first, ./scripts/serve.sh, is one process on a SQLite file).
#   ./scripts/cluster.sh                 builds in release mode, serves on http://127.0.0.1:8080 until Ctrl-C
#   PORT=9000 INSTANCES=3 ./scripts/cluster.sh
#   ROWSERVER_BIN=.build/debug/rowserver ./scripts/cluster.sh   (a binary already built)
#   PRODUCTS=100000 ./scripts/cluster.sh   the demo data with that many products (`rowserver generate`)
# PostgreSQL runs in a temporary folder as the postgres user (scripts/postgres.sh), filled with the
# demo data by the first instance; everything stops and the folders go on exit. It prints each
# instance's port and PID (kill -9 one to watch nginx move its traffic to the others), and the
# database's URL, for `rowserver keys create --database URL --name me --scope write`.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${PORT:-8080}
instances=${INSTANCES:-3}
scripts/setup.sh
bin=${ROWSERVER_BIN:-}
if [[ -z $bin ]]; then
  swift build -c release --product rowserver
  bin=$(swift build -c release --show-bin-path)/rowserver
fi
nginx=$(command -v nginx || echo /usr/sbin/nginx)

work=$(mktemp -d /tmp/rowserver-cluster.XXXXXX)
pids=()
postgres_dir=
cleanup() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  [[ -z $postgres_dir ]] || scripts/postgres.sh stop "$postgres_dir"
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

postgres_env=$(scripts/postgres.sh start)
url=$(sed -n 's/^ROWSERVER_TEST_POSTGRES=//p' <<<"$postgres_env")
postgres_dir=$(sed -n 's/^ROWSERVER_TEST_POSTGRES_DIR=//p' <<<"$postgres_env")

# Starts instance $1 on a free port (its PID joins `pids`, its port `ports`) once it listens.
ports=()
start_instance() {
  local log=$work/instance-$1.out
  "$bin" serve --database "$url" --port 0 --trusted-proxy 127.0.0.1 --per-ip-limit 0 --log-level notice \
    --access-log "$work/instance-$1.access" >"$log" 2>"$work/instance-$1.err" &
  pids+=($!)
  for _ in $(seq 600); do
    grep -q listening "$log" 2>/dev/null && break
    kill -0 "${pids[-1]}" 2>/dev/null || { cat "$work/instance-$1.err" >&2; exit 1; }
    sleep 0.1
  done
  ports+=("$(grep -o '[0-9]*$' "$log")")
}

# With PRODUCTS, `generate` makes the tables and the data; else the first instance makes them with
# the demo data, and the others find them.
if [[ -n ${PRODUCTS:-} ]]; then
  "$bin" generate --database "$url" --products "$PRODUCTS" >/dev/null
fi
for i in $(seq "$instances"); do start_instance "$i"; done

upstreams=$(for p in "${ports[@]}"; do echo "        server 127.0.0.1:$p max_fails=1 fail_timeout=2s;"; done)
cat >"$work/nginx.conf" <<EOF
daemon off;
master_process off;
pid $work/nginx.pid;
error_log $work/nginx.error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $work/body;
    proxy_temp_path $work/proxy;
    fastcgi_temp_path $work/fastcgi;
    uwsgi_temp_path $work/uwsgi;
    scgi_temp_path $work/scgi;
    upstream rowserver {
$upstreams
        keepalive 64;
    }
    server {
        listen 127.0.0.1:$port;
        location / {
            proxy_pass http://rowserver;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            # A dead instance's requests go to the next one, but a write is never sent twice.
            proxy_next_upstream error timeout;
            # A list's stream (text/event-stream) says X-Accel-Buffering: no itself, so nginx
            # passes each event at once; its heartbeat (every 15 s) keeps it inside this timeout.
            proxy_read_timeout 60s;
        }
    }
}
EOF
"$nginx" -c "$work/nginx.conf" -p "$work" >/dev/null 2>"$work/nginx.err" &
pids+=($!)
for _ in $(seq 50); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  kill -0 "${pids[-1]}" 2>/dev/null || { cat "$work/nginx.err" >&2; exit 1; }
  sleep 0.1
done

echo "rowserver cluster listening on http://127.0.0.1:$port (nginx)"
for i in $(seq "$instances"); do echo "  instance $i: http://127.0.0.1:${ports[$((i - 1))]} (pid ${pids[$((i - 1))]})"; done
echo "  nginx: pid ${pids[-1]}"
echo "  database: $url"
echo "  postgres folder: $postgres_dir"
echo "  logs: $work"
# Until Ctrl-C (or SIGTERM): then everything stops.
wait "${pids[-1]}"
