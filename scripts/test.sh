#!/usr/bin/env bash
# Runs every test suite of rowserver; installs what is missing first. This is what CI runs.
#   1. the Swift suites: unit tests and live servers on ephemeral ports over real SQLite files
#   2. the Python suites: openapi.yaml against its generator and the router; the hostile corpus
#   3. schemathesis against a live server (every check and phase, fixed seed)
#   4. the explorer in headless Chromium (Selenium)
#   5. a smoke of the benchmark suite (two 2 s scenarios on 10,000 products), so it cannot rot
#   6. the Swift suites again under ThreadSanitizer (separate build folder)
#   7. a 15 s mixed load with hostile requests against that ThreadSanitizer build
#   8. a 30 s soak of the debug build (10 s windows: 5xx, descriptors, exit status)
set -euo pipefail
cd "$(dirname "$0")/.."
# Runs one stage and says how long it took (CI must stay under 30 minutes).
stage() {
  local started=$SECONDS
  "$@"
  echo "test.sh: ${1##*/} ${2:-} took $((SECONDS - started)) s (total $SECONDS s)" >&2
}
stage scripts/setup.sh
stage swift build --build-tests
stage swift test --skip-build
stage python3 -m pytest -q tests-python
stage scripts/fuzz.sh smoke
stage scripts/schemathesis.sh
stage scripts/browser-test.sh
stage python3 Benchmarks/bench.py --smoke --binary "$(swift build --show-bin-path)/rowserver"
stage scripts/sanitize.sh thread
stage scripts/sanitized-load.sh thread 15
stage scripts/soak.sh 0.5 --binary "$(swift build --show-bin-path)/rowserver" --products 10000
