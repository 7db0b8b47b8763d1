#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
#
# The sampled solvers of issue 10, measured:
#   1. accuracy at equal budgets on two stored games with exact values (perfshap_sampled_accuracy
#      tables: the robustness game of breast_cancer's first 16 features, logistic, and the XPER
#      AUC game of its first 12): mean squared error over SEEDS seeded runs of the permutation
#      solver, the kernel solver with and without its control variate, and the plain paired
#      KernelSHAP in numpy (bench/peer_kernelshap_numpy.py, shap's algorithm) on the very same
#      tables; the ratios kernel / numpy; the 95% intervals' coverage; the error-vs-budget figure
#      (FIGURE, an SVG with one log-log panel per game);
#   2. time to tolerance through the CLI, `--solver auto --tolerance 0.01`: breast_cancer (30
#      features) and ionosphere (34, of which v2 is constant: 33) robustness, logistic, 20 MC-CV
#      splits; sonar (60), gnb; XPER AUC on breast_cancer (30), logistic trained on 70% of the
#      rows, explained on the rest;
#   3. the synthetic game of 1,000 players with values known in closed form, to tolerance 0.01
#      with each solver: evaluations, seconds, the share within 3 se of the truth, the RMSE.
#
# Environment: BUILD (build directory with perfshap and bench/perfshap_sampled_accuracy, default
# build/release), THREADS (2), SEEDS (20), BUDGETS ("500 1000 2000 4000"), PYTHON (/usr/bin/python3,
# Debian's, with numpy), FIGURE (default bench/figures/sampled_error_vs_budget.svg; empty: none),
# PARTS ("accuracy timed synthetic").
#
# Usage: bench/run_sampled_bench.sh            (from the repository root)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
BUILD=${BUILD:-$root/build/release}
THREADS=${THREADS:-2}
SEEDS=${SEEDS:-20}
BUDGETS=${BUDGETS:-"500 1000 2000 4000"}
PYTHON=${PYTHON:-/usr/bin/python3}
FIGURE=${FIGURE-$root/bench/figures/sampled_error_vs_budget.svg}
PARTS=${PARTS:-"accuracy timed synthetic"}
PERFSHAP=$BUILD/perfshap
ACCURACY=$BUILD/bench/perfshap_sampled_accuracy
DATA=$root/tests/fixtures/data

[[ -x $PERFSHAP ]] || { echo "run_sampled_bench: no perfshap binary at $PERFSHAP (set BUILD=...)" >&2; exit 2; }
[[ -x $ACCURACY ]] || { echo "run_sampled_bench: no $ACCURACY (configure with -DPERFSHAP_BUILD_BENCH=ON)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== sampled solvers ($(nproc) cores visible, THREADS=$THREADS)"

if [[ " $PARTS " == *" accuracy "* ]]; then
  echo "-- 1. accuracy at equal budgets ($SEEDS seeds; budgets $BUDGETS)"
  "$ACCURACY" tables "$DATA/breast_cancer.csv" "$work"
  # shellcheck disable=SC2086
  "$ACCURACY" run "$work" "$SEEDS" $BUDGETS > "$work/ours.jsonl"
  # shellcheck disable=SC2086
  "$PYTHON" "$here/peer_kernelshap_numpy.py" "$work" "$SEEDS" $BUDGETS > "$work/peer.jsonl"
  "$PYTHON" - "$work" "$FIGURE" <<'EOF'
import json, math, os, sys
work, figure = sys.argv[1], sys.argv[2]
rows = [json.loads(l) for l in open(os.path.join(work, "ours.jsonl"))]
rows += [dict(json.loads(l), solver="numpy_kernelshap") for l in open(os.path.join(work, "peer.jsonl"))]
mse = {(r["game"], r["solver"], r["budget"]): r for r in rows}
games = sorted({r["game"] for r in rows}, reverse=True)
budgets = sorted({r["budget"] for r in rows})
solvers = ["permutation", "kernel", "kernel_plain", "numpy_kernelshap"]
for g in games:
    print(f"{g}: mean squared error vs exact (coverage of the 95% intervals)")
    print("  budget " + "".join(f"{s:>24}" for s in solvers) + "   kernel/numpy  kernel_plain/numpy")
    for b in budgets:
        cells = []
        for s in solvers:
            r = mse.get((g, s, b))
            cov = f" ({r['coverage']:.3f})" if r and "coverage" in r else ""
            cells.append(f"{r['mse']:.3e}{cov}" if r else "-")
        peer = mse[(g, "numpy_kernelshap", b)]["mse"]
        print(f"  {b:6d} " + "".join(f"{c:>24}" for c in cells) +
              f"   {mse[(g, 'kernel', b)]['mse'] / peer:12.4f}  {mse[(g, 'kernel_plain', b)]['mse'] / peer:18.4f}")
    for s in solvers:
        xs = [math.log(b) for b in budgets]
        ys = [0.5 * math.log(mse[(g, s, b)]["mse"]) for b in budgets if mse[(g, s, b)]["mse"] > 0]
        if len(ys) == len(xs):
            mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
            slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
            print(f"  log RMSE vs log budget slope, {s}: {slope:+.2f}")
if figure:
    colors = {"permutation": "#1f77b4", "kernel": "#d62728", "kernel_plain": "#ff7f0e", "numpy_kernelshap": "#555555"}
    labels = {"permutation": "perfshap permutation", "kernel": "perfshap kernel (control variate)",
              "kernel_plain": "perfshap kernel (plain)", "numpy_kernelshap": "numpy paired KernelSHAP (shap's algorithm)"}
    titles = {"robustness16": "ShapAUC retraining game, breast_cancer, 16 features (logistic)",
              "xper12": "XPER AUC game, breast_cancer, 12 features (logistic)"}
    pw, ph, ml, mt, mb = 440, 300, 70, 40, 50
    width, height = ml + len(games) * (pw + ml) , mt + ph + mb + 70
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>']
    for gi, g in enumerate(games):
        x0 = ml + gi * (pw + ml)
        vals = [mse[(g, s, b)]["mse"] for s in solvers for b in budgets if mse[(g, s, b)]["mse"] > 0]
        lo, hi = math.floor(math.log10(min(vals))), math.ceil(math.log10(max(vals)))
        bl, bh = math.log10(budgets[0]) - 0.05, math.log10(budgets[-1]) + 0.05
        X = lambda b: x0 + (math.log10(b) - bl) / (bh - bl) * pw
        Y = lambda v: mt + (hi - math.log10(v)) / (hi - lo) * ph
        out.append(f'<rect x="{x0}" y="{mt}" width="{pw}" height="{ph}" fill="none" stroke="#333"/>')
        out.append(f'<text x="{x0 + pw / 2}" y="{mt - 12}" text-anchor="middle">{titles.get(g, g)}</text>')
        for e in range(lo, hi + 1):
            y = Y(10 ** e)
            out.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + pw}" y2="{y:.1f}" stroke="#ddd"/>')
            out.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end">1e{e}</text>')
        for b in budgets:
            out.append(f'<text x="{X(b):.1f}" y="{mt + ph + 16}" text-anchor="middle">{b}</text>')
        out.append(f'<text x="{x0 + pw / 2}" y="{mt + ph + 34}" text-anchor="middle">budget (coalition evaluations), log scale</text>')
        out.append(f'<text transform="translate({x0 - 52},{mt + ph / 2}) rotate(-90)" text-anchor="middle">MSE vs exact, mean of {rows[0]["seeds"]} seeds</text>')
        for s in solvers:
            pts = [(X(b), Y(mse[(g, s, b)]["mse"])) for b in budgets if mse[(g, s, b)]["mse"] > 0]
            out.append('<polyline fill="none" stroke-width="2" stroke="{}" points="{}"/>'.format(
                colors[s], " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)))
            for x, y in pts:
                out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colors[s]}"/>')
    for si, s in enumerate(solvers):
        lx, ly = ml + (si % 2) * 380, mt + ph + mb + 14 + (si // 2) * 18
        out.append(f'<line x1="{lx}" y1="{ly - 4}" x2="{lx + 24}" y2="{ly - 4}" stroke="{colors[s]}" stroke-width="2"/>')
        out.append(f'<text x="{lx + 30}" y="{ly}">{labels[s]}</text>')
    out.append("</svg>")
    os.makedirs(os.path.dirname(figure) or ".", exist_ok=True)
    with open(figure + ".tmp", "w") as f:
        f.write("\n".join(out) + "\n")
    os.replace(figure + ".tmp", figure)
    print(f"  wrote {figure}")
EOF
fi

if [[ " $PARTS " == *" timed "* ]]; then
  echo "-- 2. time to tolerance 0.01 through the CLI (--solver auto, $THREADS threads)"
  awk 'NR == 1 || NR % 10 < 7' "$DATA/breast_cancer.csv" > "$work/bc_train.csv"
  awk 'NR == 1 || NR % 10 >= 7' "$DATA/breast_cancer.csv" > "$work/bc_test.csv"
  run() {
    local name=$1
    shift
    local start end
    start=$(date +%s.%N)
    "$PERFSHAP" "$@" --solver auto --tolerance 0.01 --threads "$THREADS" --quiet --out "$work/$name" >/dev/null
    end=$(date +%s.%N)
    "$PYTHON" - "$work/$name/result.json" "$name" "$start" "$end" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
n = len(r["features"])
print(f"  {sys.argv[2]:<34} {n:3d} players  {r['solver']:<11} {r['n_coalitions_evaluated']:>10} evaluations"
      f"  converged {str(r['converged']).lower():<5} ratio {r['convergence_ratio']:.4f}"
      f"  {float(sys.argv[4]) - float(sys.argv[3]):7.1f} s")
EOF
  }
  run robustness_breast_cancer_logistic robustness --data "$DATA/breast_cancer.csv" --label label --model logistic --cv mc:20
  # ionosphere's v2 is 0 in every row (a constant feature is an error): its 33 other features.
  ion_features=$(head -1 "$DATA/ionosphere.csv" | tr ',' '\n' | grep -v -x -e v2 -e label | paste -sd,)
  run robustness_ionosphere_logistic robustness --data "$DATA/ionosphere.csv" --label label --model logistic --cv mc:20 \
    --features "$ion_features"
  run robustness_sonar_gnb robustness --data "$DATA/sonar.csv" --label label --model gnb --cv mc:20
  run xper_breast_cancer_logistic xper --data "$work/bc_test.csv" --train "$work/bc_train.csv" --label label --model logistic
fi

if [[ " $PARTS " == *" synthetic "* ]]; then
  echo "-- 3. synthetic game of 1,000 players (values in closed form), tolerance 0.01"
  "$ACCURACY" synthetic 1000 0.01 "$THREADS" > "$work/synthetic.jsonl"
  "$PYTHON" - "$work/synthetic.jsonl" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    print(f"  {r['solver']:<13} {r['evaluations']:>10} evaluations  converged {str(r['converged']).lower():<5}"
          f" ratio {r['convergence_ratio']:.4f}  {r['seconds']:7.1f} s  within 3 se {100 * r['within_3se']:.1f}%"
          f"  RMSE {r['rmse']:.2e}")
EOF
fi
