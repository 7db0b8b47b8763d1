#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
#
# Drawing against computing in a large `perfshap treeshap --out` run (issue 20): a generated CSV of
# 35,100 rows x 34 numeric features and a 0/1 label (adult-sized: adult.csv has 32,561 rows),
# a forest fitted on it (--model forest, TREES trees of depth DEPTH) and every row explained,
# written to --out with --figures none and with --figures summary (the default), ROUNDS
# alternating rounds, best of each. Compute = result.json's elapsed_seconds (the TreeSHAP
# explanation); drawing = the summary run's wall time less the none run's (the same run, less the
# SVGs); printed with their ratio, the beeswarm's size and points, and the bounded beeswarm's
# drawing time from perfshap_bench (BM_Report_Beeswarm, against the unbounded one drawn before).
# Environment: BUILD (default build/release, with perfshap and bench/perfshap_bench), TREES (50),
# DEPTH (6), THREADS (0 = all cores), ROUNDS (3), PYTHON (python3).
# Usage: bash bench/run_report_bench.sh      (from the repository root)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
BUILD=${BUILD:-$root/build/release}
TREES=${TREES:-50}
DEPTH=${DEPTH:-6}
THREADS=${THREADS:-0}
ROUNDS=${ROUNDS:-3}
PYTHON=${PYTHON:-python3}
CLI=$BUILD/perfshap
BENCH=$BUILD/bench/perfshap_bench
[[ -x $CLI ]] || { echo "run_report_bench: no $CLI (build the target perfshap_cli)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$PYTHON" - "$CLI" "$work" "$TREES" "$DEPTH" "$THREADS" "$ROUNDS" <<'PY'
import json, os, random, subprocess, sys, time
cli, work, trees, depth, threads, rounds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6])
# 35,100 x 34: x0..x33 standard normal, the label from a few of them and noise (seeded).
data = os.path.join(work, "data.csv")
rng = random.Random(35100)
with open(data, "w") as f:
    f.write(",".join(f"x{j}" for j in range(34)) + ",label\n")
    for _ in range(35100):
        x = [rng.gauss(0.0, 1.0) for _ in range(34)]
        y = 1 if x[0] + x[1] * x[2] - 0.5 * x[3] + 0.3 * x[4] ** 2 + 0.5 * rng.gauss(0.0, 1.0) > 0.3 else 0
        f.write(",".join(f"{v:.6f}" for v in x) + f",{y}\n")
wall = {"none": float("inf"), "summary": float("inf")}
compute = float("inf")
for _ in range(rounds):
    for figures in ("none", "summary"):
        out = os.path.join(work, figures)
        t0 = time.perf_counter()
        subprocess.run([cli, "treeshap", "--model", "forest", "--trees", trees, "--max-depth", depth, "--train", data,
                        "--data", data, "--label", "label", "--threads", threads, "--quiet", "--force",
                        "--figures", figures, "--out", out], check=True)
        wall[figures] = min(wall[figures], time.perf_counter() - t0)
        compute = min(compute, json.load(open(os.path.join(out, "result.json")))["elapsed_seconds"])
svg = open(os.path.join(work, "summary", "shap_beeswarm.svg")).read()
drawing = max(wall["summary"] - wall["none"], 0.0)
print(f"== perfshap treeshap --out on 35,100 rows x 34 features (forest of {trees} trees, depth {depth}), "
      f"best of {rounds} rounds")
print(f"  run wall: --figures none {wall['none']:.3f} s, --figures summary {wall['summary']:.3f} s")
print(f"  compute (TreeSHAP, result.json elapsed_seconds): {compute:.3f} s")
print(f"  drawing (summary - none): {drawing:.3f} s")
print(f"  compute / drawing: {compute / drawing:.1f}x" if drawing > 0 else "  compute / drawing: drawing not measurable")
print(f"  beeswarm: {len(svg) / 1e6:.2f} MB, {svg.count('<circle')} points")
PY

if [[ -x $BENCH ]]; then
  echo "== the beeswarm of 35,100 x 34 alone (perfshap_bench): bounded, and every row as --out drew it before"
  "$BENCH" --benchmark_filter='BM_Report_Beeswarm' --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
    2>/dev/null | grep -E 'BM_Report|Benchmark' || true
else
  echo "(no $BENCH: configure with -DPERFSHAP_BUILD_BENCH=ON for the beeswarm's own timing)"
fi
