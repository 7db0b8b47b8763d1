#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
#
# Shapley Chains (issue 13) on Adult, prepared as the paper's section 4.2: every order of its
# three outputs, 1,000 explained test rows, 100-row background, the time of `perfshap chains`;
# beside it the authors' approach (scikit-learn's ClassifierChain and one KernelExplainer call per
# link and row, transcribed in numpy: bench/peer_shapley_chains_numpy.py) timed on ROWS rows and
# extrapolated to the same work.
# Environment: BUILD (default build/release), PYTHON (/usr/bin/python3), ROWS (5), THREADS (2),
# ADULT (../shared/data/adult.csv, else tests/fixtures/data/adult_head.csv).
# Usage: bash bench/run_chains_bench.sh      (from the repository root)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
BUILD=${BUILD:-$root/build/release}
PYTHON=${PYTHON:-/usr/bin/python3}
ROWS=${ROWS:-5}
THREADS=${THREADS:-2}
ADULT=${ADULT:-$root/../shared/data/adult.csv}
[[ -f $ADULT ]] || ADULT=$root/tests/fixtures/data/adult_head.csv
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== perfshap chains: $ADULT, every order, 1000 rows, 100 background rows, $THREADS threads"
start=$(date +%s.%N)
"$BUILD/perfshap" chains --adult "$ADULT" --orders all --rows 1000 --background 100 --threads "$THREADS" --quiet \
  --out "$work/chains"
end=$(date +%s.%N)
ours=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
printf '  %.2f s (process), %s\n' "$ours" "$("$PYTHON" -c "import json; r=json.load(open('$work/chains/result.json')); print(f\"computed in {r['elapsed_seconds']:.2f} s, hamming loss {r['hamming_loss']:.4f}\")")"
echo "== the authors' approach (numpy transcription of ClassifierChain + KernelExplainer), $ROWS rows"
"$PYTHON" "$here/peer_shapley_chains_numpy.py" --rows "$ROWS" > "$work/peer.json"
"$PYTHON" - "$work/peer.json" "$ours" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
ours = float(sys.argv[2])
ext = p["extrapolated_seconds"]["1000_rows_all_6_orders"]
print(f"  {p['seconds_per_row_per_link']:.3f} s per row and link; 1,000 rows x 6 orders x 3 links extrapolated: {ext:.0f} s")
print(f"  ratio (extrapolated peer / perfshap): {ext / ours:.0f}x")
PY
