#!/usr/bin/env bash
# Builds rowserver in release mode and serves on its embedded defaults
# (http://127.0.0.1:8080). Extra arguments go to `rowserver serve` (try --help).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product rowserver
exec .build/release/rowserver serve "$@"
