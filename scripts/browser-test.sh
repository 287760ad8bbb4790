#!/usr/bin/env bash
# The explorer's browser tests: headless Chromium (Debian's chromium and chromium-driver),
# driven by Selenium from pytest, against a real rowserver on a fresh demo database.
# Installs what is missing, builds rowserver, starts it on a free port, runs
# tests-browser/, stops it. Screenshots land in .build/screenshots/ (git-ignored).
# Extra arguments go to pytest (e.g. -k search).
#   ROWSERVER_SCRATCH=.build-x   build (and keep screenshots) in another folder
#   ROWSERVER_BIN=path           test this binary, built elsewhere: nothing is built
#   scripts/browser-test.sh --install   only install what is missing (test.sh does it during its build)
set -euo pipefail
cd "$(dirname "$0")/.."

sudo=""
if [[ $EUID -ne 0 ]]; then sudo="sudo"; fi
missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v chromedriver >/dev/null || missing+=(chromium-driver)
if ((${#missing[@]})); then
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
python3 -c 'import selenium, pytest' 2>/dev/null || python3 -m pip install -q selenium pytest
[[ ${1:-} == --install ]] && exit 0

# The main build folder by default: after the Swift suites this build is a no-op.
scratch=${ROWSERVER_SCRATCH:-.build}
if [[ -n "${ROWSERVER_BIN:-}" ]]; then
    binary="$(realpath "$ROWSERVER_BIN")"
else
    swift build --product rowserver --scratch-path "$scratch"
    binary="$(swift build --product rowserver --scratch-path "$scratch" --show-bin-path)/rowserver"
fi

work="$(mktemp -d)"
"$binary" serve --port 0 --db "$work/explorer.sqlite" --log-level warning >"$work/stdout" 2>"$work/server.log" &
server=$!
# A second server for a definition that is not the demo: examples/tickets.yaml on an empty database.
"$binary" serve --collections examples/tickets.yaml --port 0 --db "$work/tickets.sqlite" --log-level warning \
    >"$work/tickets.stdout" 2>"$work/tickets.log" &
tickets=$!
# A third for outlines: examples/outline.yaml (folders and an org chart), empty too.
"$binary" serve --collections examples/outline.yaml --port 0 --db "$work/outline.sqlite" --log-level warning \
    >"$work/outline.stdout" 2>"$work/outline.log" &
outline=$!
stop() {
    kill "$server" "$tickets" "$outline" 2>/dev/null || true
    wait "$server" "$tickets" "$outline" 2>/dev/null || true
    rm -rf "$work"
}
trap stop EXIT

# rowserver prints "… listening on http://127.0.0.1:PORT" once the demo data is in.
line=""
for _ in $(seq 1 1200); do
    line="$(grep -m 1 'listening on http://' "$work/stdout" || true)"
    [[ -n "$line" ]] && break
    if ! kill -0 "$server" 2>/dev/null; then
        echo "rowserver did not start:" >&2
        cat "$work/server.log" >&2
        exit 1
    fi
    sleep 0.1
done
if [[ "$line" != *"listening on http://"* ]]; then
    echo "rowserver did not say where it listens: '$line'" >&2
    exit 1
fi
export ROWSERVER_URL="${line##* }"
for _ in $(seq 1 600); do grep -q 'listening on http://' "$work/tickets.stdout" && break; sleep 0.1; done
tickets_line="$(grep -m 1 'listening on http://' "$work/tickets.stdout" || true)"
[[ -n "$tickets_line" ]] || { echo "the tickets server did not start:" >&2; cat "$work/tickets.log" >&2; exit 1; }
export ROWSERVER_TICKETS_URL="${tickets_line##* }"
for _ in $(seq 1 600); do grep -q 'listening on http://' "$work/outline.stdout" && break; sleep 0.1; done
outline_line="$(grep -m 1 'listening on http://' "$work/outline.stdout" || true)"
[[ -n "$outline_line" ]] || { echo "the outline server did not start:" >&2; cat "$work/outline.log" >&2; exit 1; }
export ROWSERVER_OUTLINE_URL="${outline_line##* }"
# The tests make API keys as a user does, with `rowserver keys create` on each server's file.
export ROWSERVER_BIN="$binary" ROWSERVER_DB="$work/explorer.sqlite"
export ROWSERVER_TICKETS_DB="$work/tickets.sqlite" ROWSERVER_TICKETS_COLLECTIONS="$PWD/examples/tickets.yaml"
export ROWSERVER_OUTLINE_DB="$work/outline.sqlite" ROWSERVER_OUTLINE_COLLECTIONS="$PWD/examples/outline.yaml"
export ROWSERVER_SCREENSHOTS="${ROWSERVER_SCREENSHOTS:-$PWD/$scratch/screenshots}"
# Selenium must use the driver installed above and never fetch one.
export SE_OFFLINE=true
echo "rowserver at $ROWSERVER_URL; screenshots in $ROWSERVER_SCREENSHOTS"
python3 -m pytest tests-browser -q -p no:cacheprovider "$@"
