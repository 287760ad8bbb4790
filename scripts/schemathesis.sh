#!/usr/bin/env bash
# Contract fuzzing: schemathesis from the served /openapi.yaml against a live rowserver, every
# check, the examples, coverage, fuzzing and stateful phases, once for the demo definition and
# once for examples/tickets.yaml. Fails on any failure (and so on any 5xx).
#   scripts/schemathesis.sh                 # CI form: fixed seed, SCHEMATHESIS_EXAMPLES (default 40: CI's 30 minutes also hold the PostgreSQL suites) per operation
#   SEED=random EXAMPLES=1000 scripts/schemathesis.sh    # a longer run with a random seed
#   DEFINITIONS=examples/tickets.yaml scripts/schemathesis.sh   # one definition only ("demo" for the demo)
# One worker: with two, schemathesis once died of a CPython error (AST recursion depth
# mismatch) in its own threads, which would fail CI for no fault of the server.
# Every write needs an API key: each server's database gets a write key (`rowserver keys create`)
# before it starts, and schemathesis sends it on every request; the run fails when no write
# succeeded, as the server's access log tells.
set -euo pipefail
# Schemathesis sends far more than a client may: rate limits off, unless asked for.
export ROWSERVER_RATE_LIMIT="${ROWSERVER_RATE_LIMIT:-off}"
cd "$(dirname "$0")/.."
bin=${ROWSERVER_BIN:-.build/debug/rowserver}
[[ -x $bin ]] || swift build --product rowserver
work=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && { kill -TERM $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; }; rm -rf "$work"' EXIT
seed=${SEED:-1}
seed_args=(--seed "$seed")
[[ $seed == random ]] && seed_args=()
status=0
for definition in ${DEFINITIONS:-demo examples/tickets.yaml}; do
  name=$(basename "$definition" .yaml)
  args=()
  [[ $definition == demo ]] || args=(--collections "$definition")
  key=$("$bin" keys create "${args[@]}" --db "$work/$name.sqlite" --name schemathesis --scope write)
  "$bin" serve "${args[@]}" --port 0 --db "$work/$name.sqlite" --log-level warning --access-log "$work/$name.access" \
    > "$work/$name.out" 2> "$work/$name.err" &
  pid=$!
  for _ in $(seq 100); do grep -q listening "$work/$name.out" 2>/dev/null && break; sleep 0.1; done
  port=$(grep -o '[0-9]*$' "$work/$name.out")
  echo "== schemathesis: $definition"
  schemathesis --config-file tests-python/schemathesis.toml run "http://127.0.0.1:$port/openapi.yaml" \
    --checks all --max-examples "${EXAMPLES:-${SCHEMATHESIS_EXAMPLES:-40}}" --workers "${WORKERS:-1}" \
    --phases examples,coverage,fuzzing,stateful "${seed_args[@]}" --report junit --report-dir "$work/report-$name" \
    --header "Authorization: Bearer $key" | tee "$work/schemathesis-$name.txt" || status=1
  kill -0 $pid 2>/dev/null || { echo "rowserver died during the $definition run" >&2; cat "$work/$name.err" >&2; exit 1; }
  kill -TERM $pid
  wait $pid || true
  pid=
  # The writes in the access log (complete after SIGTERM): with the key, some must succeed. The
  # refused ones are schemathesis's own probes of the document's bearer scheme (ignored_auth:
  # the same request without a key and with a bad one must get 401 or 403).
  writes=$(grep -cE '"method":"(POST|PATCH|DELETE)"' "$work/$name.access" || true)
  succeeded=$(grep -cE '"method":"(POST|PATCH|DELETE)".*"status":2' "$work/$name.access" || true)
  refused=$(grep -cE '"method":"(POST|PATCH|DELETE)".*"status":40[13]' "$work/$name.access" || true)
  echo "== $definition: $writes writes, $succeeded succeeded (2xx), $refused refused for the key (401/403)"
  [[ $succeeded -gt 0 ]] || { echo "no write succeeded: the key did not get them past authentication" >&2; status=1; }
done
exit "$status"
