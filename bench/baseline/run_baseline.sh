#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
# A fixed set of CLI runs over every subcommand, each into OUTDIR/<name>/, to compare the files
# of two builds bit for bit (compare.py) around a refactoring: the same data, flags and seeds
# must give the same result.json (timings and paths aside), CSVs and SVGs.
#   bash bench/baseline/run_baseline.sh BUILD/perfshap OUTDIR
set -euo pipefail
cli=$(realpath "$1")
out=$2
here=$(cd "$(dirname "$0")/../.." && pwd)
fx=$here/tests/fixtures
d=$fx/data
x=$fx/xgboost
mkdir -p "$out"
failed=0
run_or_fail() {  # name, then the subcommand and its flags
  local name=$1
  shift
  rm -rf "${out:?}/$name"
  if ! "$cli" "$@" --out "$out/$name" --threads 2 --progress none > "$out/$name.console" 2> "$out/$name.stderr"; then
    echo "baseline: $name failed: $(head -c 300 "$out/$name.stderr")" >&2
    failed=$((failed + 1))
  fi
}
run_or_fail demo demo --rows 600
run_or_fail demo_banknote demo --data "$d/banknote.csv" --label label
run_or_fail rob_default robustness
run_or_fail rob_banknote_gnb robustness --data "$d/banknote.csv" --label label --model gnb --cv mc:20 --select
run_or_fail rob_wine_logistic robustness --data "$d/wine.csv" --label label --positive 1 --model logistic --cv kfold:3
run_or_fail rob_pima_linear robustness --data "$d/pima.csv" --label label --model linear --cv mc:5 --metrics mse,r2
run_or_fail rob_pima_probit robustness --data "$d/pima.csv" --label label --model probit --cv holdout
run_or_fail rob_thresholds robustness --data "$d/banknote.csv" --label label --cv mc:5 --curve-points thresholds:101 --strategy interpolation
run_or_fail rob_kernel robustness --data "$d/sonar.csv" --label label --cv mc:2 --solver kernel --budget 3000 --seed 3
run_or_fail rob_perm robustness --data "$d/breast_cancer.csv" --label label --cv mc:2 --solver permutation --budget 2000 --seed 5
run_or_fail xper_default xper
run_or_fail xper_train xper --data "$d/pima.csv" --label label --model logistic --train "$d/pima.csv" --metric auc
run_or_fail xper_brier xper --data "$d/banknote.csv" --label label --model gnb --train "$d/banknote.csv" --metric brier --overfit
run_or_fail xper_permuted xper --comparator permuted --seed 7
run_or_fail xper_clusters xper --data "$d/banknote.csv" --label label --model logistic --train "$d/banknote.csv" --clusters 3
run_or_fail xper_xgb xper --data "$d/breast_cancer.csv" --label label --model-file "$x/binary_logistic.json" --metric auc --solver kernel --budget 2000
run_or_fail xper_kernel xper --data "$d/sonar.csv" --label label --model logistic --train "$d/sonar.csv" --solver kernel --budget 2000
run_or_fail xper_mc xper-montecarlo --samples 5
run_or_fail shap_logistic shap --data "$d/pima.csv" --label label --model logistic --train "$d/pima.csv" --rows 0..19 --background 50
run_or_fail shap_xgb shap --data "$d/breast_cancer.csv" --label label --model-file "$x/binary_logistic.json" --rows 0..9 --background 30 --solver permutation --budget 1000
run_or_fail shap_kernel shap --data "$d/pima.csv" --label label --model logistic --train "$d/pima.csv" --rows 0..4 --solver kernel --budget 500
run_or_fail shap_retrain shap --data "$d/banknote.csv" --label label --model gnb --train "$d/banknote.csv" --approach retrain --rows 0..9
run_or_fail treeshap_xgb treeshap --data "$d/breast_cancer.csv" --label label --model-file "$x/binary_logistic.json"
run_or_fail treeshap_multi treeshap --data "$d/wine.csv" --label label --model-file "$x/multi_softprob.json"
run_or_fail treeshap_forest treeshap --data "$d/banknote.csv" --label label --model forest --train "$d/banknote.csv" --trees 20
run_or_fail treeshap_bg treeshap --data "$d/breast_cancer.csv" --label label --model-file "$x/binary_logistic.json" --background 40 --rows 0..49
run_or_fail axom axom --data "$d/banknote.csv" --label label --trees 20 --neighbours 200
run_or_fail chains chains
run_or_fail chains_orders chains --orders all
echo "baseline: $(ls -d "$out"/*/ | wc -l) runs in $out, $failed failed"
[ "$failed" -eq 0 ]
