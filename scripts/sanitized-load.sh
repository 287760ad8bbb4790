#!/usr/bin/env bash
# A mixed read/write load, with hostile requests alongside, against a sanitized rowserver:
#   scripts/sanitized-load.sh [address|thread] [SECONDS]     # default: address 60
# Builds the rowserver product with the sanitizer in the folder scripts/sanitize.sh uses
# (.build-asan, .build-tsan: after that script ran, this build only links, if anything), runs
# tests-python/sanitized_load.py, and fails on a sanitizer report, an exit status other than 0
# after SIGTERM, a 5xx, a socket error, or a hostile request answered otherwise than it should be.
# The mix writes with a key that the sanitized binary makes itself (`rowserver keys create`, run
# under the same sanitizer options: a report there fails the run too).
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-address}
seconds=${2:-60}
case $kind in
  thread) scratch=.build-tsan; export TSAN_OPTIONS=${TSAN_OPTIONS:-"halt_on_error=1 second_deadlock_stack=1"} ;;
  # Leak checking on: the server (and `generate`) exit without leaks, so one is a finding.
  address) scratch=.build-asan; export ASAN_OPTIONS=${ASAN_OPTIONS:-"halt_on_error=1 detect_leaks=1"} ;;
  *) echo "usage: $0 [address|thread] [SECONDS]" >&2; exit 2 ;;
esac
scripts/setup.sh
swift build --sanitize="$kind" --scratch-path "$scratch" --product rowserver
binary="$(swift build --sanitize="$kind" --scratch-path "$scratch" --show-bin-path)/rowserver"
exec python3 tests-python/sanitized_load.py --binary "$binary" --seconds "$seconds" --label "$kind"
