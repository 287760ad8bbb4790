#!/usr/bin/env bash
# Installs what a fresh Debian machine with the Swift toolchain lacks to build and test
# rowserver. Idempotent: does nothing when everything is there.
set -euo pipefail

need=()
dpkg -s libmicrohttpd-dev >/dev/null 2>&1 || need+=(libmicrohttpd-dev)  # brings libgnutls28-dev: HTTPS (CMicroHTTPD)
dpkg -s libsqlite3-dev >/dev/null 2>&1 || need+=(libsqlite3-dev)
dpkg -s zlib1g-dev >/dev/null 2>&1 || need+=(zlib1g-dev)        # gzip responses (CZlib)
dpkg -s libpq-dev >/dev/null 2>&1 || need+=(libpq-dev)          # PostgreSQL's C client (CLibPQ)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || need+=(postgresql)  # the test server (scripts/postgres.sh); brings pg_trgm
command -v curl >/dev/null 2>&1 || need+=(curl)
command -v openssl >/dev/null 2>&1 || need+=(openssl)      # the TLS tests' certificates (curl is their client)
command -v wrk >/dev/null 2>&1 || need+=(wrk)              # the benchmark suite and its CI smoke
command -v gcc >/dev/null 2>&1 || need+=(gcc)              # the C ceiling of the benchmarks
[[ -x /usr/sbin/nginx ]] || command -v nginx >/dev/null 2>&1 || need+=(nginx)  # the trusted-proxy test, in front
python3 -c 'import ensurepip' >/dev/null 2>&1 || command -v pip3 >/dev/null 2>&1 || need+=(python3-pip)

if ((${#need[@]})); then
  echo "setup: installing ${need[*]}" >&2
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

command -v swift >/dev/null 2>&1 || { echo "setup: the Swift toolchain (swift) is not on PATH" >&2; exit 1; }

# The Python suites: spec checks, the hostile corpus, schemathesis.
if ! python3 -c 'import pytest, yaml, openapi_spec_validator, schemathesis' >/dev/null 2>&1; then
  echo "setup: installing the Python test tools" >&2
  python3 -m pip install --quiet --disable-pip-version-check -r "$(dirname "$0")/../tests-python/requirements.txt"
fi
