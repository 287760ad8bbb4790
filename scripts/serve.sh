#!/usr/bin/env bash
# Builds rowserver in release mode and serves on its embedded defaults
# (http://127.0.0.1:8080). Extra arguments go to `rowserver serve` (try --help).
# Writes need an API key, made on the database it serves (./rowserver.sqlite here by default),
# before it starts or while it runs; send it as Authorization: Bearer <secret>:
#   .build/release/rowserver keys create --name me --scope write     # prints the secret, once
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product rowserver
exec .build/release/rowserver serve "$@"
