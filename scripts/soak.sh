#!/usr/bin/env bash
# The soak: the mixed workload at ~60 % of its peak rate, watching RSS, descriptors, the WAL,
# 5xx and p99 drift (tests-python/soak.py says how and what passes).
#   scripts/soak.sh [MINUTES] [soak.py options]      # default 30 minutes, ~35 with set-up
#   scripts/soak.sh 0.5 --binary "$(swift build --show-bin-path)/rowserver" --products 10000   # CI
# Without --binary it builds the release binary in its own folder, .build-soak.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=30
if [[ $# -gt 0 && $1 != -* ]]; then minutes=$1; shift; fi
scripts/setup.sh
if [[ " $* " != *" --binary"* ]]; then
  swift build -c release --product rowserver --scratch-path .build-soak
  set -- --binary "$(swift build -c release --scratch-path .build-soak --show-bin-path)/rowserver" "$@"
fi
exec python3 tests-python/soak.py --minutes "$minutes" "$@"
