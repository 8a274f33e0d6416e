#!/usr/bin/env bash
# The sanitizer build CI runs after the README's test command: clang with AddressSanitizer,
# UndefinedBehaviorSanitizer and libFuzzer's coverage (Debug at -O1, so the tests stay fast
# enough), the fast tests under it, and each fuzz target for a short time on its corpus.
#
#   bash scripts/sanitize.sh [--fuzz-seconds S]     (default 60; 0 skips fuzzing)
set -euo pipefail
cd "$(dirname "$0")/.."

fuzz_seconds=60
if [ "${1:-}" = "--fuzz-seconds" ]; then fuzz_seconds="$2"; fi
build=build-sanitize

start=$(date +%s)
cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG="-gline-tables-only -O1" -DCOULOMB_SANITIZE=ON -DCOULOMB_FUZZ=ON \
  -DCOULOMB_BUILD_BENCH=OFF
cmake --build "$build" -j2
# Leaks are reported (a reader that loses memory on bad input is a bug); the slow tests (whole
# example runs, paper reproductions, peer comparisons) run in the Release build only.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0"
# BenchTrinkleCli runs paper 1's whole quick study (350 data sets), seconds in Release.
ctest --test-dir "$build" --output-on-failure -j2 -LE slow -E 'BenchTrinkleCli'
if [ "$fuzz_seconds" != 0 ]; then
  # Four at a time on CI's two cores: 60 s of wall time each, in three rounds instead of six
  # (each target gets half a core, so a slow input is given 30 s before it counts as a hang).
  bash scripts/fuzz.sh --build "$build" --seconds "$fuzz_seconds" --jobs 4 --timeout 30 \
    fuzz_scene fuzz_urdf fuzz_obj fuzz_tet_msh fuzz_tet_vtk fuzz_tet_medit fuzz_lcp \
    fuzz_friction_contact fuzz_fclib fuzz_checkpoint fuzz_mesh_stl fuzz_mesh_dae
fi
echo "sanitize.sh: done in $(( $(date +%s) - start )) s"
