#!/usr/bin/env bash
# How `coulomb sweep` scales: the same sweep of N short incline runs (μ drawn per run) on one
# thread, on all threads of one process, and on as many MPI ranks of one thread each, in one
# invocation of this script; prints wall times and speed-ups, and checks that the three tables
# agree row by row (state hashes included).
#
#   bash bench/sweep_scaling.sh [--runs N] [--duration S] [--build DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=1000 duration=0.2 build=build
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    *) echo "sweep_scaling: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
cores=$(nproc)
cli="$PWD/$build/bin/coulomb"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/sweep.yaml" <<EOF
coulomb_sweep: 1
scene: $PWD/examples/scenes/incline.yaml
set: {duration: $duration, formulation: cone}
parameters:
  friction: {uniform: [0.1, 0.8]}
repeats: $runs
metrics: [displacement.cube, failed_steps]
EOF

# seconds LABEL THREADS LAUNCHER...: the sweep into $work/LABEL with --threads THREADS (0: the
# default) under LAUNCHER (e.g. mpirun -np 2); prints its wall time in seconds.
seconds() {
  local label="$1" threads="$2"; shift 2
  local extra=() start end
  if [ "$threads" != 0 ]; then extra=(--threads "$threads"); fi
  start=$(date +%s%N)
  "$@" "$cli" sweep "$work/sweep.yaml" "${extra[@]}" --quiet --out "$work/$label" \
    > "$work/$label.log" 2>&1 || {
    echo "sweep_scaling: $label failed:" >&2; cat "$work/$label.log" >&2; exit 1; }
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))e-3
}
# Rows without the wall-clock columns, in index order, for comparing schedules.
rows() {
  /usr/bin/python3 - "$1" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
keep = [i for i, c in enumerate(rows[0]) if c not in ("wall_seconds", "mean_step_us", "max_step_us")]
for r in rows[1:]:
    print(",".join(r[i] for i in keep))
PY
}

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
t1=$(seconds one 1)
tn=$(seconds threads 0)
tm=$(seconds mpi 1 mpirun -np "$cores" --oversubscribe)
# The machine's own ceiling: the same work as $cores independent one-thread processes that share
# nothing (each a sweep of runs/cores runs), started together. On a VM whose cores share a
# physical core this is well below cores×.
sed "s/^repeats: .*/repeats: $((runs / cores))/" "$work/sweep.yaml" > "$work/part.yaml"
start=$(date +%s%N)
for k in $(seq "$cores"); do
  "$cli" sweep "$work/part.yaml" --threads 1 --quiet --out "$work/part$k" > /dev/null 2>&1 &
done
wait
tc=$(( ($(date +%s%N) - start) / 1000000 ))e-3
start=$(date +%s%N)
"$cli" sweep "$work/part.yaml" --threads 1 --quiet --out "$work/part_alone" > /dev/null 2>&1
t_part=$(( ($(date +%s%N) - start) / 1000000 ))e-3
same=yes
for label in threads mpi; do
  if ! diff -q <(rows "$work/one/results.csv") <(rows "$work/$label/results.csv") >/dev/null; then
    same=no
  fi
done
printf '%d incline runs of %s s (cone), %d cores\n' "$runs" "$duration" "$cores"
printf '| schedule | wall s | runs/s | speed-up |\n|---|---:|---:|---:|\n'
for row in "1 thread:$t1" "$cores threads, 1 process:$tn" "$cores MPI ranks × 1 thread:$tm"; do
  label="${row%%:*}" t="${row##*:}"
  /usr/bin/python3 -c "import sys; r, t, t1 = map(float, sys.argv[2:]); print(f'| {sys.argv[1]} | {t:.2f} | {r / t:.0f} | {t1 / t:.2f}x |')" \
    "$label" "$runs" "$t" "$t1"
done
/usr/bin/python3 -c "import sys; tc, tp, c = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]); print(f'ceiling of this machine: {c} independent one-thread processes do {c * tp / tc:.2f}x the work of one in the same time')" "$tc" "$t_part" "$cores"
echo "tables identical row by row (state hashes included): $same"
[ "$same" = yes ]
