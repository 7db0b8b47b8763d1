#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
# MPI on one machine (issue: 2 ranks x 1 thread within 15% of 1 rank x 2 threads on a job of at
# least 10 s), the bytes each split's values move, and the schedule of a sonar mc:100 job on 64
# and 512 ranks worked out on paper from those bytes (bench/mpi/schedule_on_paper.py).
#   bash bench/run_mpi_bench.sh [BUILD_DIR] [SPLITS] [ROWS]
set -euo pipefail
build=${1:-build/release}
splits=${2:-24}
rows=${3:-20000}
perfshap=$build/perfshap
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seconds() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null; t1=$(date +%s.%N); awk "BEGIN { print $t1 - $t0 }"; }
min() { printf "%s\n" "$@" | sort -g | head -1; }
# One job three ways, best of 3, interleaved (a shared machine); every output file compared.
compare_job() {
  local label=$1
  shift
  local a=() b=() c=()
  for rep in 1 2 3; do
    a+=("$(seconds "$perfshap" "$@" --quiet --threads 2 --out "$work/$label/one_two/r$rep")")
    b+=("$(seconds mpirun -np 2 --oversubscribe "$perfshap" "$@" --quiet --threads 1 --out "$work/$label/two_one/r$rep")")
    c+=("$(seconds "$perfshap" "$@" --quiet --threads 1 --out "$work/$label/one_one/r$rep")")
  done
  local one_two two_one one_one
  one_two=$(min "${a[@]}") two_one=$(min "${b[@]}") one_one=$(min "${c[@]}")
  echo "$label: perfshap $*"
  printf "  1 rank x 1 thread : %7.2f s  (runs: %s)\n" "$one_one" "${c[*]}"
  printf "  1 rank x 2 threads: %7.2f s  (runs: %s)\n" "$one_two" "${a[*]}"
  printf "  2 ranks x 1 thread: %7.2f s  (runs: %s)\n" "$two_one" "${b[*]}"
  printf "  2 ranks x 1 thread / 1 rank x 2 threads: %.3f (the MPI overhead on one machine)\n" \
    "$(awk "BEGIN { print $two_one / $one_two }")"
  python3 "$(dirname "$0")/baseline/compare.py" "$work/$label/one_two" "$work/$label/two_one" | tail -1 |
    sed 's/^/  2 ranks vs 1 rank, every output file: /'
}
# The issue's shape: sonar's 60 features (the kernel solver), MC-CV splits; training dominates.
compare_job sonar robustness --data tests/fixtures/data/sonar.csv --label label --cv "mc:$splits" --model logistic \
  --solver kernel --budget 3000
# Few trainings on many rows and splits: what every process repeats (reading the data, drawing
# every split, checking them) weighs here, on one thread per process.
compare_job many_splits robustness --cv mc:2400 --rows "$rows" --model logistic

# Bytes per split: what a split's values weigh on the wire is what its checkpoint file holds
# (the same bytes, plus a 32-byte header).
"$perfshap" robustness --cv mc:4 --rows 2000 --model logistic --quiet --checkpoint "$work/ck3" >/dev/null
"$perfshap" robustness --data tests/fixtures/data/pima.csv --label label --cv mc:4 --model logistic --quiet \
  --checkpoint "$work/ck8" >/dev/null
"$perfshap" robustness --data tests/fixtures/data/pima.csv --label label --cv mc:4 --model logistic --quiet \
  --solver kernel --budget 200 --checkpoint "$work/ckk" >/dev/null
bytes3=$(( $(stat -c %s "$work/ck3/item-00000000.bin") - 32 ))
bytes8=$(( $(stat -c %s "$work/ck8/item-00000000.bin") - 32 ))
bytesk=$(( $(stat -c %s "$work/ckk/item-00000000.bin") - 32 ))
echo "bytes per split: exact 3 features $bytes3, exact 8 features $bytes8 (with 2^8 coalition AUCs), kernel 8 features $bytesk"
python3 "$(dirname "$0")/mpi/schedule_on_paper.py" "$bytesk"
