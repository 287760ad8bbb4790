#!/usr/bin/env bash
# Crash safety: 8 concurrent writers, SIGKILL at a random moment, restart, verify every
# acknowledged write and PRAGMA integrity_check, for CYCLES cycles (default 20).
#   scripts/crash-test.sh            CYCLES=100 scripts/crash-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
[[ -n ${ROWSERVER_BIN:-} ]] || swift build --product rowserver
exec python3 tests-python/crash_harness.py --cycles "${CYCLES:-20}"
