#!/usr/bin/env bash
# Runs every test of rowserver: the Swift test suites (unit tests and live servers on
# ephemeral ports). Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --build-tests
swift test --skip-build
