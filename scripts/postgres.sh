#!/usr/bin/env bash
# A throwaway PostgreSQL server for the PostgreSQL store's tests, in a folder of its own.
#   eval "$(scripts/postgres.sh start)"   starts one; prints ROWSERVER_TEST_POSTGRES (its URL) and
#                                          ROWSERVER_TEST_POSTGRES_DIR (its folder), nothing else
#   scripts/postgres.sh stop FOLDER        stops it and removes the folder; nothing to do is no error
#   scripts/postgres.sh pause|resume FOLDER stops it as a crash would, keeping the folder; starts it again
# The server listens on 127.0.0.1 only, on a free port, with its socket in the folder, and trusts
# every local connection (user postgres, database rowserver). Settings are those of a real
# deployment where they change what tests see (fsync, synchronous_commit), and room for many
# connections. Installs PostgreSQL (Debian's postgresql package) when no initdb is found.
set -euo pipefail

# Marks a folder this script made: `stop` removes nothing else.
marker=.rowserver-postgres

usage() {
  echo "usage: $0 start | $0 stop FOLDER | $0 pause FOLDER | $0 resume FOLDER" >&2
  exit 2
}

# The newest installed PostgreSQL's programs, e.g. /usr/lib/postgresql/15/bin.
find_bin() {
  local initdb
  initdb=$(ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1)
  [[ -n $initdb ]] && dirname "$initdb"
}

install_postgres() {
  echo "postgres.sh: installing postgresql" >&2
  local sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
}

# Runs a command as the server's owner: PostgreSQL refuses to run as root, so as root it runs as
# the postgres user (which Debian's package creates); otherwise as the current user. From the
# folder, which the postgres user can enter (root's working folder may be closed to it).
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then
    (cd "$folder" && runuser -u postgres -- "$@")
  else
    (cd "$folder" && "$@")
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start() {
  local bin
  bin=$(find_bin) || true
  if [[ -z $bin ]]; then
    install_postgres
    bin=$(find_bin) || { echo "postgres.sh: no initdb under /usr/lib/postgresql/*/bin after installing postgresql" >&2; exit 1; }
  fi
  # In /tmp, not $TMPDIR: the postgres user must reach it, and the socket's path must stay under
  # the 107 bytes a Unix socket address holds.
  folder=$(mktemp -d /tmp/rowserver-postgres.XXXXXX)
  touch "$folder/$marker"
  [[ $(id -u) -ne 0 ]] || chown -R postgres: "$folder"
  trap 'failed' EXIT
  # --no-sync: the cluster is thrown away after the tests, so initdb need not wait for the disk.
  as_owner "$bin/initdb" -D "$folder/data" -U postgres --auth=trust --encoding=UTF8 --locale=C --no-sync >"$folder/initdb.log" 2>&1
  # A port that was free a moment ago can be taken before the server binds it: try another then.
  local attempt
  for attempt in 1 2 3; do
    port=$(free_port)
    cat >>"$folder/data/postgresql.conf" <<EOF
# scripts/postgres.sh (a later line wins over an earlier one)
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$folder'
fsync = on
synchronous_commit = on
max_connections = 1000
shared_buffers = 128MB
EOF
    if as_owner "$bin/pg_ctl" -D "$folder/data" -l "$folder/postgres.log" -w -t 30 start >/dev/null; then
      break
    fi
    [[ $attempt -lt 3 ]] && grep -q "could not bind" "$folder/postgres.log" 2>/dev/null || return 1
    echo "postgres.sh: port $port was taken; trying another" >&2
  done
  as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres rowserver
  trap - EXIT
  echo "ROWSERVER_TEST_POSTGRES=postgres://postgres@127.0.0.1:$port/rowserver"
  echo "ROWSERVER_TEST_POSTGRES_DIR=$folder"
}

# On a failed start: says why, and leaves no server or folder behind.
failed() {
  echo "postgres.sh: could not start PostgreSQL in $folder" >&2
  tail -n 20 "$folder/initdb.log" "$folder/postgres.log" >&2 2>/dev/null || true
  stop "$folder" || true
}

stop() {
  folder=${1:-}
  [[ -n $folder ]] || usage
  [[ -d $folder ]] || return 0
  [[ -f $folder/$marker ]] || { echo "postgres.sh: $folder was not made by postgres.sh start; leaving it" >&2; exit 1; }
  if [[ -f $folder/data/postmaster.pid ]]; then
    local bin
    bin=$(find_bin) || true
    # fast: ends the open connections rather than wait for them; -w: returns once it is down.
    # A shutdown checkpoint can outlast the wait on a busy machine (the tests' many databases):
    # then immediate, so that no server is left running on a folder about to be removed.
    if [[ -n $bin ]]; then
      as_owner "$bin/pg_ctl" -D "$folder/data" -m fast -w -t 30 stop >/dev/null 2>&1 ||
        as_owner "$bin/pg_ctl" -D "$folder/data" -m immediate -w -t 30 stop >/dev/null || true
    fi
  fi
  rm -rf -- "$folder"
}

# Stops the server and keeps its folder (a fault test's outage); `resume` starts it again on the
# same port. `immediate`: no shutdown checkpoint, as in a crash (the next start recovers from WAL).
pause() {
  folder=${1:-}
  [[ -f $folder/$marker ]] || { echo "postgres.sh: $folder was not made by postgres.sh start" >&2; exit 1; }
  as_owner "$(find_bin)/pg_ctl" -D "$folder/data" -m immediate -w -t 30 stop >/dev/null
}

resume() {
  folder=${1:-}
  [[ -f $folder/$marker ]] || { echo "postgres.sh: $folder was not made by postgres.sh start" >&2; exit 1; }
  as_owner "$(find_bin)/pg_ctl" -D "$folder/data" -l "$folder/postgres.log" -w -t 30 start >/dev/null
}

case ${1:-} in
  start) [[ $# -eq 1 ]] || usage; start ;;
  stop) [[ $# -eq 2 ]] || usage; stop "$2" ;;
  pause) [[ $# -eq 2 ]] || usage; pause "$2" ;;
  resume) [[ $# -eq 2 ]] || usage; resume "$2" ;;
  *) usage ;;
esac
