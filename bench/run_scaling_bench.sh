#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
# Thread scaling: each method's in-process elapsed_seconds (result.json) at 1, 2, 4, 8 and 16
# threads (best of REPS runs each), and the speed-up over 1 thread. Meant for a machine with 16
# cores; on fewer cores the curve flattens at the core count.
#   bash bench/run_scaling_bench.sh [PERFSHAP] [REPS]
# PERFSHAP may be a command with its loader ("lib/ld-linux-x86-64.so.2 --library-path lib ./perfshap").
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cli=${1:-$here/build/release/perfshap}
reps=${2:-2}
d=$here/tests/fixtures/data
x=$here/tests/fixtures/xgboost
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
jobs=(
  "robustness_exact_pima_mc2000|robustness --data $d/pima.csv --label label --model gnb --cv mc:2000"
  "robustness_kernel_sonar|robustness --data $d/sonar.csv --label label --model gnb --cv mc:4 --solver kernel --budget 6000 --seed 3"
  "xper_permutation_sonar|xper --data $d/sonar.csv --label label --model logistic --train $d/sonar.csv --solver permutation --budget 8000 --seed 1"
  "shap_permutation_xgb|shap --data $d/breast_cancer.csv --label label --model-file $x/binary_logistic.json --rows 0..79 --background 200 --solver permutation --budget 2000"
  "treeshap_forest_breast_cancer|treeshap --data $d/breast_cancer.csv --label label --model forest --train $d/breast_cancer.csv --trees 1000"
  "axom_banknote|axom --data $d/banknote.csv --label label --trees 100 --neighbours 3000"
)
printf '%-28s' "job"; for t in 1 2 4 8 16; do printf '%12s' "${t}T s"; done; printf '%12s\n' "16T speedup"
for job in "${jobs[@]}"; do
  name=${job%%|*}
  args=${job#*|}
  printf '%-28s' "$name"
  first=
  for t in ${THREADS:-1 2 4 8 16}; do
    best=
    for ((r = 0; r < reps; r++)); do
      # shellcheck disable=SC2086
      $cli $args --threads "$t" --out "$out/$name" --force --quiet --progress none > /dev/null 2> "$out/err" ||
        { echo " failed: $(head -c 300 "$out/err")"; continue 2; }
      e=$(grep -o '"elapsed_seconds": *[0-9.e+-]*' "$out/$name/result.json" | head -1 | sed 's/.*: *//')
      if [ -z "$best" ] || awk "BEGIN{exit !($e < $best)}"; then best=$e; fi
    done
    [ -z "$first" ] && first=$best
    printf '%12.3f' "$best"
  done
  awk "BEGIN{printf \"%11.2fx\n\", $first / $best}"
done
