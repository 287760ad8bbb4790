#!/usr/bin/env bash
# Issue #7 suite 3, full form: slowloris, slow bodies, idle connections and mid-request aborts
# (ATTACKERS connections from 127.0.0.2-17, default 1500) against a release build with its
# default limits, while wrk -t1 -c32 measures GET /v1/products?limit=50 for SECONDS (default
# 60), after a baseline run of the same length. Fails under 80 % of the baseline's requests/s,
# over 3x its p99, on any error for normal clients, or on an attacking connection that outlives
# its deadline. Run it on an otherwise quiet machine.
#   scripts/slow-clients.sh [SECONDS] [ATTACKERS]      ROWSERVER_BIN=path skips the build
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if [[ -z ${ROWSERVER_BIN:-} ]]; then
    swift build -c release --product rowserver
    ROWSERVER_BIN="$(swift build -c release --show-bin-path)/rowserver"
fi
exec python3 tests-python/slow_clients.py --binary "$ROWSERVER_BIN" --seconds "${1:-60}" --attackers "${2:-1500}" \
    --json "${REPORT:-/tmp/rowserver-slow-clients.json}"
