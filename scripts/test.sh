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
scripts/setup.sh
swift build --build-tests
swift test --skip-build
python3 -m pytest -q tests-python
scripts/fuzz.sh smoke
scripts/schemathesis.sh
scripts/browser-test.sh
python3 Benchmarks/bench.py --smoke --binary "$(swift build --show-bin-path)/rowserver"
scripts/sanitize.sh thread
scripts/sanitized-load.sh thread 15
scripts/soak.sh 0.5 --binary "$(swift build --show-bin-path)/rowserver" --products 10000
