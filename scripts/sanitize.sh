#!/usr/bin/env bash
# Runs the Swift test suites under a sanitizer in their own build folder:
#   scripts/sanitize.sh thread     # ThreadSanitizer (.build-tsan)
#   scripts/sanitize.sh address    # AddressSanitizer (.build-asan)
# A report fails the run: the sanitizers halt on the first error.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-thread}
case $kind in
  thread) scratch=.build-tsan; export TSAN_OPTIONS=${TSAN_OPTIONS:-"halt_on_error=1 second_deadlock_stack=1"} ;;
  address) scratch=.build-asan; export ASAN_OPTIONS=${ASAN_OPTIONS:-"halt_on_error=1 detect_leaks=0"} ;;
  *) echo "usage: $0 thread|address" >&2; exit 2 ;;
esac
scripts/setup.sh
swift build --build-tests --sanitize="$kind" --scratch-path "$scratch"
swift test --skip-build --sanitize="$kind" --scratch-path "$scratch"
