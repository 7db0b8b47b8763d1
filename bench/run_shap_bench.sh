#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
#
# Prediction explanations of issue 11, in one run:
#   1. TreeSHAP against XGBoost's pred_contribs (Debian python3-xgboost 1.7) on the same model
#      (tests/fixtures/xgboost/binary_logistic_100x6.json: 100 trees, depth 6, binary:logistic),
#      the same rows (breast_cancer repeated 20 times: 11,380 rows) and thread counts (1 and 2);
#      three alternating rounds, best of each side; rows/s and the ratio. The contributions of the
#      two are compared too (max abs difference).
#   2. Interventional SHAP of a logistic model: exact on pima (100 rows, 100 background rows) and
#      kernel on breast_cancer (20 rows), from perfshap_bench.
# Environment: BUILD (default build/release, with bench/perfshap_bench), PYTHON (/usr/bin/python3,
# with xgboost and numpy), ROUNDS (3).
# Usage: bash bench/run_shap_bench.sh      (from the repository root)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
BUILD=${BUILD:-$root/build/release}
PYTHON=${PYTHON:-/usr/bin/python3}
ROUNDS=${ROUNDS:-3}
BENCH=$BUILD/bench/perfshap_bench
MODEL=$root/tests/fixtures/xgboost/binary_logistic_100x6.json
DATA=$root/tests/fixtures/data/breast_cancer.csv
[[ -x $BENCH ]] || { echo "run_shap_bench: no $BENCH (configure with -DPERFSHAP_BUILD_BENCH=ON)" >&2; exit 2; }
"$PYTHON" -c "import xgboost, numpy" 2>/dev/null || { echo "run_shap_bench: $PYTHON lacks xgboost (apt install python3-xgboost)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== TreeSHAP vs XGBoost $("$PYTHON" -c 'import xgboost; print(xgboost.__version__)') pred_contribs ($(nproc) cores visible)"
for round in $(seq "$ROUNDS"); do
  "$BENCH" --benchmark_filter='BM_TreeShap_Xgboost100x6' --benchmark_repetitions=3 --benchmark_format=json \
    --benchmark_out="$work/ours$round.json" --benchmark_out_format=json >/dev/null
  "$PYTHON" "$here/peer_treeshap_xgboost.py" "$MODEL" "$DATA" --threads 1,2 --repeat 3 > "$work/peer$round.json"
done
# The two sides' contributions on the same rows.
"$BUILD/perfshap" treeshap --model-file "$MODEL" --data "$DATA" --label label --quiet --out "$work/contribs"
"$PYTHON" "$here/peer_treeshap_xgboost.py" "$MODEL" "$DATA" --times 1 --threads 1 --repeat 1 --contribs "$work/xgb.npy" >/dev/null
"$PYTHON" - "$work" "$ROUNDS" <<'PY'
import csv, json, os, sys
import numpy as np
work, rounds = sys.argv[1], int(sys.argv[2])
ours, peer, rows = {}, {}, 0
for r in range(1, rounds + 1):
    for b in json.load(open(os.path.join(work, f"ours{r}.json")))["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        t = int(b["run_name"].split("/")[1].split(":")[0]) if "/" in b["run_name"] else 1
        secs = b["real_time"] * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
        ours[t] = min(ours.get(t, secs), secs)
        rows = int(b["rows"])
    p = json.load(open(os.path.join(work, f"peer{r}.json")))
    for t, s in p["seconds"].items():
        peer[int(t)] = min(peer.get(int(t), s), s)
print(f"  {rows} rows, best of {rounds} alternating rounds")
print("  threads   perfshap rows/s   XGBoost rows/s   ratio")
for t in sorted(ours):
    print(f"  {t:7d}   {rows / ours[t]:15.0f}   {rows / peer[t]:14.0f}   {peer[t] / ours[t]:5.2f}x")
mine = np.array([[float(v) for v in r[1:]] for r in list(csv.reader(open(os.path.join(work, "contribs", "contributions.csv"))))[1:]])
theirs = np.load(os.path.join(work, "xgb.npy"))
print(f"  contributions on the 569 rows: max |perfshap - pred_contribs| = {np.abs(mine - theirs).max():.2e}")
PY

echo "== Interventional SHAP of a logistic model (perfshap_bench)"
"$BENCH" --benchmark_filter='BM_Shap_' --benchmark_format=console 2>/dev/null | grep -E "^BM_"
