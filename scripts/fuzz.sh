#!/usr/bin/env bash
# libFuzzer on rowserver's parsers (Fuzz/README.md says what each target checks):
#   scripts/fuzz.sh [TARGET|all] [SECONDS]   fuzz each target for SECONDS (default 600), one after another
#   scripts/fuzz.sh smoke                    every target for a few seconds from the committed seeds (CI)
#   scripts/fuzz.sh replay TARGET FILE...    run inputs (a crash file, a corpus entry) through one target
# Targets: request-target router list-options tokens json merge-patch item-decoder.
# The fuzz targets exist in Package.swift only when ROWSERVER_FUZZ is set; they are built with
# -sanitize=fuzzer,address in their own folder, .build-fuzz. Seeds are read from Fuzz/corpus/<target>;
# what a run discovers goes to .build-fuzz/corpus/<target>, crashes to .build-fuzz/crashes/<target>.
# A crash or a broken invariant fails the run (exit status 1). FUZZ_SKIP_BUILD=1 uses the binaries
# as they are (to run two targets at once without two builds on one folder). Long runs build
# release (speed of execution); smoke builds debug (FUZZ_CONFIG), which compiles in a third of
# the time, and a few seconds per target need coverage, not speed. Smoke also leaves
# AddressSanitizer out (FUZZ_SANITIZE, default fuzzer,address; smoke: fuzzer): its 35 s of fuzzing
# are there so the targets cannot rot and obvious crashes show, and the sanitizer's instrumentation
# of every module cost CI minutes; the long runs keep it.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(request-target router list-options tokens json merge-patch item-decoder)
scratch=.build-fuzz
config=${FUZZ_CONFIG:-release}
sanitize=${FUZZ_SANITIZE:-fuzzer,address}
if [[ ${1:-} == smoke ]]; then
  config=${FUZZ_CONFIG:-debug}
  sanitize=${FUZZ_SANITIZE:-fuzzer}
fi
# A folder per set of sanitizers: objects built with and without AddressSanitizer do not link.
[[ $sanitize == fuzzer,address ]] || scratch=$scratch-${sanitize//,/-}
# libFuzzer and ASan report crashes themselves; the Swift runtime's backtracer would only interfere.
export SWIFT_BACKTRACE=enable=no

product() { # request-target -> FuzzRequestTarget
  local name=$1 out=Fuzz part
  [[ $name == json ]] && { echo FuzzJSON; return; }
  IFS=- read -ra parts <<<"$name"
  for part in "${parts[@]}"; do out+=${part^}; done
  echo "$out"
}

build() {
  [[ -n ${FUZZ_SKIP_BUILD:-} ]] && return 0
  local target log
  log=$(mktemp)
  for target in "$@"; do
    if ! ROWSERVER_FUZZ=1 swift build -c "$config" --scratch-path "$scratch" -Xswiftc -sanitize="$sanitize" -Xswiftc -enable-testing \
      --product "$(product "$target")" >"$log" 2>&1; then
      grep -v "__asan_extra_spill_area" "$log" >&2
      echo "fuzz.sh: building $target failed" >&2
      rm -f "$log"
      exit 1
    fi
  done
  rm -f "$log"
}

# fuzz TARGET SECONDS CORPUS: prints one summary line; returns 1 when libFuzzer found a crash.
fuzz() {
  local target=$1 seconds=$2 corpus=$3 log status=0
  mkdir -p "$corpus" "$scratch/crashes/$target"
  log=$(mktemp)
  "$scratch/$config/$(product "$target")" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$scratch/crashes/$target/" "$corpus" "Fuzz/corpus/$target" >"$log" 2>&1 || status=$?
  local runs rate
  runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log")
  rate=$(awk '/stat::average_exec_per_sec/ {print $2}' "$log")
  printf '%-15s %5ss %12s runs %8s exec/s %6s corpus files %s\n' "$target" "$seconds" "${runs:-?}" "${rate:-?}" \
    "$(find "$corpus" -type f | wc -l)" "$([[ $status == 0 ]] && echo "no crash" || echo "CRASH (exit $status)")"
  if [[ $status != 0 ]]; then
    grep -E "fuzz invariant failed|ERROR: |Fatal error|SUMMARY|Test unit written" "$log" | head -20 >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
}

mode=${1:-all}
case $mode in
  smoke)
    build "${targets[@]}"
    failed=0
    for target in "${targets[@]}"; do
      corpus=$(mktemp -d "${TMPDIR:-/tmp}/rowserver-fuzz-smoke.XXXXXX")
      fuzz "$target" "${FUZZ_SMOKE_SECONDS:-5}" "$corpus" || failed=1
      rm -rf "$corpus"
    done
    exit $failed ;;
  replay)
    target=${2:?usage: $0 replay TARGET FILE...}
    build "$target"
    shift 2
    exec "$scratch/$config/$(product "$target")" "$@" ;;
  all | request-target | router | list-options | tokens | json | merge-patch | item-decoder)
    selected=("${targets[@]}")
    [[ $mode != all ]] && selected=("$mode")
    build "${selected[@]}"
    failed=0
    for target in "${selected[@]}"; do
      fuzz "$target" "${2:-600}" "$scratch/corpus/$target" || failed=1
    done
    exit $failed ;;
  *) echo "usage: $0 [TARGET|all] [SECONDS] | smoke | replay TARGET FILE..." >&2; exit 2 ;;
esac
