#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
#
# Cost estimates against what runs take (issue 20, "costs known before work"): for a set of
# runs of every method, the estimate perfshap prints before it starts (model evaluations, peak
# memory) beside the measured peak resident memory (GNU time) and wall time, and the time
# perfshap took to refuse each of the issue's huge requests.
# Environment: BUILD (default build/release). Usage: bash bench/run_cost_bench.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
BUILD=${BUILD:-$root/build/release}
CLI=$BUILD/perfshap
d=$root/tests/fixtures/data
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[[ -x $CLI ]] || { echo "run_cost_bench: no $CLI" >&2; exit 2; }

# The process's own baseline (reading a small CSV, the thread pool): subtracted from each run.
/usr/bin/time -f "%M" -o "$work/base.rss" "$CLI" robustness --data "$d/banknote.csv" --label label --cv holdout \
  --progress none --quiet --threads 2
base_kb=$(cat "$work/base.rss")

measure() {  # name, then the command's arguments
  local name=$1
  shift
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$work/rss" "$CLI" "$@" --progress plain --quiet --threads 2 \
    2> "$work/err" > /dev/null || true
  t1=$(date +%s.%N)
  local est rss
  est=$(grep -m1 "perfshap: estimate:" "$work/err" | sed 's/perfshap: estimate: //' || true)
  rss=$(tail -n 1 "$work/rss")
  printf '%-28s wall %6.2fs  measured peak %8.1f MB (above the process baseline %7.1f MB)\n' "$name" \
    "$(echo "$t1 - $t0" | bc -l)" "$(echo "$rss / 1024" | bc -l)" "$(echo "($rss - $base_kb) / 1024" | bc -l)"
  printf '%-28s estimate: %s\n' "" "${est:-(none printed)}"
}

echo "== estimates beside measured peak memory (2 threads)"
measure rob_banknote_mc2000 robustness --data "$d/banknote.csv" --label label --cv mc:2000
measure rob_banknote_mc20000 robustness --data "$d/banknote.csv" --label label --cv mc:20000
measure xper_adult_tree_full xper --data "$d/adult_head.csv" --label label --model tree --train "$d/adult_head.csv" \
  --features age,education_num,hours_per_week,capital_gain --comparator full
measure xper_adult_gnb_full xper --data "$d/adult_head.csv" --label label --model gnb --train "$d/adult_head.csv" \
  --features age,education_num,hours_per_week,capital_gain --comparator full
measure shap_pima_exact shap --data "$d/pima.csv" --label label --model logistic --train "$d/pima.csv" --solver exact \
  --rows 0..199
measure treeshap_forest treeshap --data "$d/banknote.csv" --label label --model forest --train "$d/banknote.csv" --trees 100

echo "== the issue's huge requests: time to the refusal (limits given so the outcome is the machine's)"
python3 - "$work/wide20.csv" <<'PY'
import random, sys
random.seed(1)
with open(sys.argv[1], "w") as f:
    f.write(",".join(f"x{j}" for j in range(20)) + ",label\n")
    for _ in range(10000):
        x = [random.gauss(0, 1) for _ in range(20)]
        f.write(",".join(f"{v:.4f}" for v in x) + f",{int(sum(x[:3]) > 0)}\n")
PY
refuse() {  # name, then the command's arguments
  local name=$1
  shift
  local t0 t1 code=0
  t0=$(date +%s.%N)
  "$CLI" "$@" --progress none > /dev/null 2> "$work/err" || code=$?
  t1=$(date +%s.%N)
  printf '%-26s exit %d after %5.2fs: %s\n' "$name" "$code" "$(echo "$t1 - $t0" | bc -l)" "$(head -c 240 "$work/err")"
}
refuse shap_exact_20x10000 shap --data "$work/wide20.csv" --label label --model logistic --train "$work/wide20.csv" \
  --solver exact --max-evaluations 1e11
refuse robustness_mc1e6 robustness --data "$d/banknote.csv" --label label --cv mc:1000000 --max-memory 8G
refuse axom_4e9 axom --data "$d/banknote.csv" --label label --neighbours 4000000000
refuse xper_montecarlo_1e8 xper-montecarlo --rows 100000000
