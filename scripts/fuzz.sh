#!/usr/bin/env bash
# Runs every fuzz target (or the ones named) of a COULOMB_FUZZ build for a given time each,
# two at a time, and says per target how many inputs it ran and whether it found anything.
# Found inputs (crashes, hangs, leaks, sanitizer reports, broken reader contracts) are written to
# <build>/fuzz/artifacts/<target>/; each becomes a regression test by copying it into
# fuzz/regressions/<target>/ once fixed (docs/fuzzing.md).
#
#   bash scripts/fuzz.sh [--build DIR] [--seconds S] [--jobs J] [--timeout T] [target ...]
# --timeout (default 10 s) is how long one input may take before it counts as a hang; long runs
# that share the machine with builds give it more, as a starved process is not a hung one.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-sanitize
seconds=60
jobs=2
timeout=10
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --timeout) timeout="$2"; shift 2 ;;
    -h|--help) sed -n 2,9p "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if [ ! -d "$build/fuzz/corpus" ]; then
  echo "fuzz.sh: $build is not a fuzz build; run scripts/sanitize.sh first" >&2
  exit 2
fi
if [ ${#targets[@]} -eq 0 ]; then
  for dir in "$build"/fuzz/corpus/*/; do targets+=("$(basename "$dir")"); done
fi

run_one() {
  local build="$1" seconds="$2" timeout="$3" target="$4"
  local artifacts="$build/fuzz/artifacts/$target" log="$build/fuzz/$target.log"
  mkdir -p "$artifacts"
  # New inputs go to the first folder (the build's corpus); the repository's regressions are read.
  local inputs=("$build/fuzz/corpus/$target")
  if [ -d "fuzz/regressions/$target" ]; then inputs+=("fuzz/regressions/$target"); fi
  # -timeout: an input that takes 10 s is a hang; -rss_limit_mb: a reader that asks for 2 GB on a
  # few kilobytes of input has trusted a size field it should have checked.
  local start=$SECONDS
  if "$build/bin/$target" -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$artifacts/" \
      "${inputs[@]}" > "$log" 2>&1; then
    status=clean
  else
    status="FOUND (see $artifacts, $log)"
  fi
  local runs
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  # The time it ran: a target stops at its first finding.
  printf '%-24s %10s runs in %ss  %s\n' "$target" "$runs" "$((SECONDS - start))" "$status"
}
export -f run_one

printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} bash -c 'run_one "$@"' _ "$build" "$seconds" "$timeout" {} \
  | tee "$build/fuzz/summary.txt"
! grep -q FOUND "$build/fuzz/summary.txt"
