#!/usr/bin/env bash
# Runs every test suite of rowserver; installs what is missing first. This is what CI runs.
#   1. the Swift suites: unit tests and live servers on ephemeral ports over real SQLite files, and
#      the PostgreSQL store's suites against a PostgreSQL server it starts (scripts/postgres.sh)
#   2. the Python suites: openapi.yaml against its generator and the router; the hostile corpus
#   3. schemathesis against a live server (every check and phase, fixed seed)
#   4. the explorer in headless Chromium (Selenium)
#   5. a smoke of the benchmark suite (two 2 s scenarios on 10,000 products), so it cannot rot,
#      and openapi.yaml through swift-openapi-generator (no skipped schema)
#   6. in the background, beside 1-5: a libFuzzer smoke (2 s per target) and the Swift suites under
#      ThreadSanitizer, each built in its own folder
#   7. a 30 s soak of the debug build (10 s windows: 5xx, descriptors, exit status), beside 6
#   8. a 10 s mixed load with hostile requests against that ThreadSanitizer build
# Stages 1-5 use one core for most of their time and the sanitizer builds two: run side by side
# they take ~5 minutes less than one after the other (CI must stay under 30 minutes). The
# background's output is printed when it is joined.
set -euo pipefail
cd "$(dirname "$0")/.."
# The PostgreSQL server is this script's own (started below, after the background's fork): one
# named by the caller's environment would reach the background's suites, and could be gone before
# they end.
unset ROWSERVER_TEST_POSTGRES ROWSERVER_TEST_POSTGRES_DIR ROWSERVER_TEST_STORE
# Runs one stage and says how long it took (CI must stay under 30 minutes).
# Returns the stage's status itself: `set -e` does not act inside a function called from an && list.
stage() {
  local started=$SECONDS status=0
  "$@" || status=$?
  echo "test.sh: ${1##*/} ${2:-} took $((SECONDS - started)) s (total $SECONDS s)$([[ $status == 0 ]] || echo ", FAILED ($status)")" >&2
  return "$status"
}
stage scripts/setup.sh
# Chromium and Selenium for stage 4 install while the build runs (on a fresh machine the download
# and unpacking took 80 s of the browser stage); the browser stage waits for them.
browser_install_log=$(mktemp)
scripts/browser-test.sh --install >"$browser_install_log" 2>&1 &
browser_install=$!
stage swift build --build-tests
background_log=$(mktemp)
# Its own process group, so that a failing foreground stage stops the background's builds too.
set -m
# Two seconds per fuzz target: the smoke is there so the targets cannot rot (its build is most of it).
{ FUZZ_SMOKE_SECONDS=2 stage scripts/fuzz.sh smoke && stage scripts/sanitize.sh thread; } >"$background_log" 2>&1 &
background=$!
set +m
trap 'kill -- -"$background" 2>/dev/null || true; rm -f "$background_log"; [[ -z ${ROWSERVER_TEST_POSTGRES_DIR:-} ]] || scripts/postgres.sh stop "$ROWSERVER_TEST_POSTGRES_DIR"' EXIT
# When a PostgreSQL suite fails, the server's own account: a crashed or killed server process
# (the CI run of 9aeb54a saw "the database system is in recovery mode" mid-suite, with no log to
# say why), and the machine's memory at that moment.
postgres_report() {
  local log=$ROWSERVER_TEST_POSTGRES_DIR/postgres.log
  echo "test.sh: PostgreSQL's log, its crashes and the last lines ($log):" >&2
  grep -E "terminated by signal|was terminated|PANIC|out of memory|all server processes|could not" "$log" 2>/dev/null | head -n 20 >&2 || true
  tail -n 20 "$log" >&2 2>/dev/null || true
  free -m >&2 2>/dev/null || true
  { dmesg 2>/dev/null | grep -iE "out of memory|oom|killed process" | tail -n 5 >&2; } || true
}
# A PostgreSQL server of its own (a temporary data folder, run as the postgres user) for the
# suites of the PostgreSQL store. A plain assignment: `set -e` stops here when it cannot start.
postgres_env=$(scripts/postgres.sh start)
eval "$postgres_env"
export ROWSERVER_TEST_POSTGRES
stage swift test --skip-build || { status=$?; postgres_report; exit "$status"; }
# The API suites again, each test server on a new PostgreSQL database: one conformance suite for
# both stores. A suite that gains nothing there (the executable's, SQLite files and processes, the
# parity and PostgreSQL suites that ran above, those with no store) skips itself: `.runsOnce` in
# Tests/APIServerTests/Trait+RunsOnce.swift says which and why.
postgres_suites() {
  ROWSERVER_TEST_STORE=postgres swift test --skip-build --filter APIServerTests
}
stage postgres_suites || { status=$?; postgres_report; exit "$status"; }
scripts/postgres.sh stop "$ROWSERVER_TEST_POSTGRES_DIR"
stage python3 -m pytest -q tests-python
stage scripts/schemathesis.sh
if ! wait "$browser_install"; then
  cat "$browser_install_log" >&2
  echo "test.sh: installing Chromium and Selenium failed" >&2
  exit 1
fi
stage scripts/browser-test.sh
stage python3 Benchmarks/bench.py --smoke --binary "$(swift build --show-bin-path)/rowserver"
stage scripts/openapi-generator.sh
# The soak judges errors, descriptors and the exit status (not speed), so it runs beside the
# background rather than after it: 46 s off CI's longest path.
stage scripts/soak.sh 0.5 --binary "$(swift build --show-bin-path)/rowserver" --products 10000
joined=$SECONDS
background_status=0
wait "$background" || background_status=$?
cat "$background_log"
echo "test.sh: waited $((SECONDS - joined)) s for the background stages (total $SECONDS s)" >&2
if [[ $background_status != 0 ]]; then
  echo "test.sh: the fuzz smoke or the ThreadSanitizer suites failed (exit $background_status)" >&2
  exit 1
fi
stage scripts/sanitized-load.sh thread 10
