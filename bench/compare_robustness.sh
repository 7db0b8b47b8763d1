#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
#
# Side by side: the plain scikit-learn loop (bench/peer_shapauc_sklearn.py) and
# `perfshap robustness` on the same splits and settings.
#   banknote: GaussianNB, 100 Monte-Carlo CV splits (test 0.2), 15 coalitions each;
#   wine:     class 1 vs rest, StandardScaler + LogisticRegression(C=1), all 8191 coalitions
#             of one holdout split.
# The peer draws the splits (sklearn train_test_split, random_state = seed + r) and writes them;
# perfshap reads the same file with --split. Printed per case: the peer's loop time (imports and
# CSV reading excluded) and whole-process time; perfshap's elapsed_seconds (its computation:
# splits prepared, every coalition trained and scored, curves, Shapley values, bands) and
# whole-process time on 1 and 2 threads (best of REPEAT runs, 1- and 2-thread runs alternating;
# the medians too); the ratio peer loop / perfshap
# elapsed_seconds; the 1 -> 2 thread scaling; and the largest |phi difference| between the two.
#
# Environment: PERFSHAP (binary, default build/release/perfshap), PYTHON (/usr/bin/python3, with
# Debian's scikit-learn 1.2.1), SHARED (../shared), CASES ("banknote wine"), REPEAT (5),
# PEER_CURVES: "both" (default: the peer loop runs twice, AUC only and with sklearn roc_curve /
# precision_recall_curve and the 101-point readings per coalition, the like-for-like workload of
# perfshap's default outputs; a ratio is printed against each), 0 (AUC only), 1 (curves only),
# PEER_WINE_ARGS (extra peer arguments for wine, e.g. "--solver newton-cholesky --tol 1e-12
# --max-iter 1000" to fit to the optimum), BASELINE (another perfshap binary, e.g. a build of an
# earlier commit: its runs alternate with PERFSHAP's, and the before/after times and their ratio
# are printed side by side, with whether both wrote the same phi).
#
# Usage: bench/compare_robustness.sh            (from the repository root)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
PERFSHAP=${PERFSHAP:-$root/build/release/perfshap}
PYTHON=${PYTHON:-/usr/bin/python3}
SHARED=${SHARED:-$root/../shared}
CASES=${CASES:-"banknote wine"}
REPEAT=${REPEAT:-5}
PEER_CURVES=${PEER_CURVES:-both}
PEER_WINE_ARGS=${PEER_WINE_ARGS:-}
BASELINE=${BASELINE:-}

[[ -x $PERFSHAP ]] || { echo "compare_robustness: no perfshap binary at $PERFSHAP (set PERFSHAP=...)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
json() { "$PYTHON" -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }

echo "perfshap robustness vs a plain scikit-learn loop on $(nproc) core(s), $(date -u +%Y-%m-%dT%H:%MZ)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

for case in $CASES; do
  case $case in
    banknote)
      data=$SHARED/data/banknote.csv
      peer_args=(banknote --reps 100 --test-size 0.2 --seed 0)
      ps_args=(--data "$data" --label label --model gnb)
      ;;
    wine)
      data=$SHARED/data/wine.csv
      # shellcheck disable=SC2206
      peer_args=(wine --test-size 0.2 --seed 0 $PEER_WINE_ARGS)
      ps_args=(--data "$data" --label label --positive 1 --model logistic)
      ;;
    *) echo "unknown case $case" >&2; exit 2 ;;
  esac
  splits=$work/$case.splits.json

  # The peer: AUC only, and (PEER_CURVES both or 1) with the curves; the first run writes the splits.
  curve_args=()
  [[ $PEER_CURVES == 1 ]] && curve_args=(--curves)
  t0=$(now)
  "$PYTHON" "$here/peer_shapauc_sklearn.py" "${peer_args[@]}" "${curve_args[@]}" --data "$data" --splits-out "$splits" \
    --json "$work/$case.peer.json" > "$work/$case.peer.log"
  t1=$(now)
  peer_loop=$(json "$work/$case.peer.json" loop_seconds)
  peer_proc=$("$PYTHON" -c "print($t1 - $t0)")
  trainings=$(json "$work/$case.peer.json" trainings)
  curves_loop=0
  if [[ $PEER_CURVES == both ]]; then
    "$PYTHON" "$here/peer_shapauc_sklearn.py" "${peer_args[@]}" --curves --data "$data" \
      --json "$work/$case.peer_curves.json" > "$work/$case.peer_curves.log"
    curves_loop=$(json "$work/$case.peer_curves.json" loop_seconds)
  fi

  # 1- and 2-thread runs alternate (and with BASELINE, the two binaries), so that a burst of
  # load on the shared machine hits all of them.
  declare -A best_elapsed best_proc all_elapsed base_elapsed
  for threads in 1 2; do
    best_elapsed[$threads]=1e9
    best_proc[$threads]=1e9
    all_elapsed[$threads]=""
    base_elapsed[$threads]=""
  done
  for _ in $(seq "$REPEAT"); do
    for threads in 1 2; do
      out=$work/$case.ps$threads
      t0=$(now)
      "$PERFSHAP" robustness "${ps_args[@]}" --split "$splits" --threads "$threads" --quiet --force --out "$out"
      t1=$(now)
      e=$(json "$out/result.json" elapsed_seconds)
      best_elapsed[$threads]=$("$PYTHON" -c "print(min(${best_elapsed[$threads]}, $e))")
      best_proc[$threads]=$("$PYTHON" -c "print(min(${best_proc[$threads]}, $t1 - $t0))")
      all_elapsed[$threads]="${all_elapsed[$threads]} $e"
      if [[ -n $BASELINE ]]; then
        "$BASELINE" robustness "${ps_args[@]}" --split "$splits" --threads "$threads" --quiet --force \
          --out "$work/$case.base$threads"
        base_elapsed[$threads]="${base_elapsed[$threads]} $(json "$work/$case.base$threads/result.json" elapsed_seconds)"
      fi
    done
  done

  "$PYTHON" - "$work/$case.peer.json" "$work/$case.ps1/result.json" "$work/$case.ps2/result.json" \
    "$case" "$trainings" "$peer_loop" "$peer_proc" "${best_elapsed[1]}" "${best_proc[1]}" \
    "${best_elapsed[2]}" "${best_proc[2]}" "$curves_loop" "${all_elapsed[1]}" "${all_elapsed[2]}" <<'EOF'
import json, statistics, sys
peer, ps1, ps2 = (json.load(open(p)) for p in sys.argv[1:4])
case, trainings = sys.argv[4], int(sys.argv[5])
loop, proc, e1, p1, e2, p2, curves_loop = map(float, sys.argv[6:13])
m1, m2 = (statistics.median(map(float, a.split())) for a in sys.argv[13:15])
dphi = max(abs(ps1["phi"][f] - m) for f, m in zip(peer["features"], peer["phi_mean"]))
dstd = max(abs(ps1["phi_std"][f] - s) for f, s in zip(peer["features"], peer["phi_std"]))
same = ps1["phi"] == ps2["phi"] and ps1["curves"] == ps2["curves"]
print(f"== {case}: {trainings} trainings ({peer['model']}{', peer with curves' if peer['curves'] else ''})")
print(f"  sklearn loop          loop {loop:9.4f} s   whole process {proc:8.3f} s")
print(f"  perfshap 1 thread     elapsed_seconds {e1:9.5f} s   whole process {p1:7.3f} s")
print(f"  perfshap 2 threads    elapsed_seconds {e2:9.5f} s   whole process {p2:7.3f} s")
print(f"  ratio loop / elapsed  1 thread {loop / e1:8.1f}x   2 threads {loop / e2:8.1f}x")
print(f"  median elapsed_seconds 1 thread {m1:.5f} s ({loop / m1:.1f}x)   2 threads {m2:.5f} s ({loop / m2:.1f}x)")
if curves_loop > 0:
    print(f"  sklearn loop with the curves (same outputs as perfshap)   loop {curves_loop:9.4f} s")
    print(f"  ratio curves loop / elapsed  1 thread {curves_loop / e1:8.1f}x   2 threads {curves_loop / e2:8.1f}x")
print(f"  ratio whole process   1 thread {proc / p1:8.1f}x   2 threads {proc / p2:8.1f}x")
print(f"  1 -> 2 thread scaling {e1 / e2:.2f}x (elapsed_seconds)")
print(f"  max |phi perfshap - phi sklearn| {dphi:.3g} (mean), {dstd:.3g} (std); 1 vs 2 threads identical: {same}")
print()
EOF
  if [[ -n $BASELINE ]]; then
    "$PYTHON" - "$work/$case.ps1/result.json" "$work/$case.base1/result.json" "${all_elapsed[1]}" \
      "${base_elapsed[1]}" "${all_elapsed[2]}" "${base_elapsed[2]}" <<'EOF'
import json, statistics, sys
now, before = (json.load(open(p)) for p in sys.argv[1:3])
same = now["phi"] == before["phi"] and now["curves"] == before["curves"]
print("  against BASELINE (same splits, runs alternating):")
for threads, (a, b) in zip((1, 2), ((sys.argv[3], sys.argv[4]), (sys.argv[5], sys.argv[6]))):
    a, b = sorted(map(float, a.split())), sorted(map(float, b.split()))
    print(f"  {threads} thread(s): this build best {a[0]:.5f} s, median {statistics.median(a):.5f} s; "
          f"baseline best {b[0]:.5f} s, median {statistics.median(b):.5f} s; "
          f"this / baseline {a[0] / b[0]:.3f} (best), {statistics.median(a) / statistics.median(b):.3f} (median)")
print(f"  phi and curves identical to the baseline's: {same}")
print()
EOF
  fi
done
