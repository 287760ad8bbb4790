#!/usr/bin/env bash
# Issue #7 suite 2, long form: the hostile-input corpus over raw sockets once for its answers,
# then ROUNDS more times (default 20) for the memory check; prints the cases, the rounds and
# how RSS moved. Fails on any case answered otherwise than documented, a 5xx, a dead server,
# a hidden request reaching a handler, or RSS growing by 10 MiB or more.
#   scripts/hostile.sh [ROUNDS]          ROWSERVER_BIN=path runs that binary (default: the debug build)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
[[ -n ${ROWSERVER_BIN:-} ]] || swift build --product rowserver
HOSTILE_ROUNDS=${1:-20} exec python3 -m pytest -q -s tests-python/test_hostile.py
