#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
#
# AXOM's protocol (issue 12) at the paper's full scale: 10,000 neighbours per test point, tuned
# 100-tree forests; the time of each stage (tuning, fitting, robustness) per data set, from
# result.json. Part 1: the paper's four data sets, one seed and SEEDS seeds; part 2: the three wide
# data sets (30, 34, 60 features), one seed.
# Environment: BUILD (default build/release), SEEDS (10), THREADS (2), PYTHON (python3, to read JSON).
# Usage: bash bench/run_axom_bench.sh      (from the repository root)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
BUILD=${BUILD:-$root/build/release}
SEEDS=${SEEDS:-10}
THREADS=${THREADS:-2}
PYTHON=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stages() {
  "$PYTHON" - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1] + "/result.json"))
print(f"  whole run {r['elapsed_seconds']:.2f} s on {r['threads']} thread(s)")
for name, d in r["datasets"].items():
    s = [x["seconds"] for x in d["per_seed"]]
    t = {k: sum(x[k] for x in s) for k in ("tuning", "fit", "robustness")}
    print(f"  {name:14s} {d['n_test']:4d} test points x {r['neighbours']} neighbours: tuning {t['tuning']:.2f} s, "
          f"fitting {t['fit']:.2f} s, robustness {t['robustness']:.2f} s  (AXOM < RF in {d['axom_more_robust_than_rf_in_seeds']} of {d['seeds']} seeds)")
PY
}
echo "== the paper's four data sets, one seed"
"$BUILD/perfshap" axom --paper --seeds 1 --threads "$THREADS" --data-dir "$root/tests/fixtures/data" --quiet --out "$work/one"
stages "$work/one"
echo "== the paper's four data sets, $SEEDS seeds"
"$BUILD/perfshap" axom --paper --seeds "$SEEDS" --threads "$THREADS" --data-dir "$root/tests/fixtures/data" --quiet --out "$work/all"
stages "$work/all"
echo "== with the wide data sets (breast_cancer 30, ionosphere 34, sonar 60 features), one seed"
"$BUILD/perfshap" axom --paper --wide --seeds 1 --threads "$THREADS" --data-dir "$root/tests/fixtures/data" --quiet --out "$work/wide"
stages "$work/wide"
