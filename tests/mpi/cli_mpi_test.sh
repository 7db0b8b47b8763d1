#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
# The command line under mpirun: every file of --out for -np 1, 2 and 3 equals the one-process
# run's (result.json up to its timings, every CSV and figure byte for byte), for robustness
# (exact over splits, exact over one split's coalition blocks, kernel), XPER and SHAP (exact: the
# coalition blocks; sampled: each round's blocks), AXOM's seeds, XPER's Monte Carlo samples, each chain link's game and TreeSHAP's rows;
# a rank killed mid-run ends the job within 10 s, non-zero, naming the rank, with --out never
# created; and --checkpoint runs killed (SIGKILL) and resumed equal uninterrupted ones.
#   cli_mpi_test.sh PERFSHAP MPIEXEC FIXTURES COMPARE_PY
set -euo pipefail
perfshap=$1 mpiexec=$2 fixtures=$3 compare=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "cli_mpi_test: $*" >&2; exit 1; }

cases=(
  "robustness_mc|robustness --cv mc:6 --rows 300 --interactions --select"
  "robustness_holdout|robustness --cv holdout --rows 300 --interactions"
  "robustness_kernel|robustness --cv mc:4 --rows 300 --solver kernel --budget 300 --keep-samples"
  "robustness_windows|robustness --cv mc:4200 --rows 300 --model gnb --select"
  "xper|xper --seed 3"
  "xper_sampled|xper --seed 3 --solver permutation --budget 400 --keep-samples"
  "shap_sampled|shap --model logistic --train $fixtures/data/pima.csv --data $fixtures/data/pima.csv --label label --rows 0..19 --background 20 --solver kernel --budget 300"
  "shap|shap --model logistic --train $fixtures/data/pima.csv --data $fixtures/data/pima.csv --label label --rows 0..59 --background 40"
  "xper_montecarlo|xper-montecarlo --samples 40"
  "chains|chains --orders all --rows 300"
  "axom|axom --data $fixtures/data/wine.csv --label label --seeds 3 --trees 20"
  "treeshap|treeshap --model-file $fixtures/xgboost/binary_logistic_100x6.json --data $fixtures/data/breast_cancer.csv"
)
for entry in "${cases[@]}"; do
  name=${entry%%|*}
  read -r -a args <<<"${entry#*|}"
  mkdir -p "$work/alone" "$work/np1" "$work/np2" "$work/np3"
  "$perfshap" "${args[@]}" --threads 2 --quiet --out "$work/alone/$name" || fail "$name: the run alone failed"
  for np in 1 2 3; do
    "$mpiexec" -np "$np" --oversubscribe "$perfshap" "${args[@]}" --threads 1 --quiet --out "$work/np$np/$name" \
      >"$work/$name.np$np.log" 2>&1 || { cat "$work/$name.np$np.log" >&2; fail "$name: mpirun -np $np failed"; }
    # --quiet: nothing of perfshap's on any rank (a launcher's own notices aside).
    ! grep -qiE "perfshap|progress|estimate|auc|phi" "$work/$name.np$np.log" ||
      { cat "$work/$name.np$np.log" >&2; fail "$name -np $np: --quiet printed"; }
  done
done
for np in 1 2 3; do
  out=$(python3 "$compare" "$work/alone" "$work/np$np") || { echo "$out" >&2; fail "-np $np differs from one process"; }
  echo "-np $np: $out"
  grep -q "compare: ${#cases[@]} entries, 0 differences" <<<"$out" || fail "-np $np: not every case compared"
done

# Only rank 0 prints: the console text of -np 3 is the one-process text (timings aside).
"$perfshap" robustness --cv mc:3 --rows 200 --threads 1 | grep -v " s on \| in [0-9.]* s" >"$work/alone.txt"
"$mpiexec" -np 3 --oversubscribe "$perfshap" robustness --cv mc:3 --rows 200 --threads 1 |
  grep -v " s on \| in [0-9.]* s" >"$work/np3.txt"
diff "$work/alone.txt" "$work/np3.txt" || fail "the console text of -np 3 differs from one process's"

# An input error is said once (by rank 0), not once per process.
set +e
"$mpiexec" -np 3 --oversubscribe "$perfshap" robustness --data "$work/absent.csv" --label y >"$work/err.txt" 2>&1
code=$?
set -e
[ "$code" -ne 0 ] || fail "a missing --data file did not fail under mpirun"
[ "$(grep -c "perfshap: error" "$work/err.txt")" -eq 1 ] || { cat "$work/err.txt" >&2; fail "the error was not said once"; }

# The process of rank R among those whose command line holds PATTERN (empty when none yet).
rank_pid() {
  local pattern=$1 rank=$2 pid
  for pid in $(pgrep -f -- "$pattern" || true); do
    if tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$rank"; then
      echo "$pid"
      return
    fi
  done
}

# A rank killed mid-run: the job ends within 10 s, non-zero, naming the rank; --out not created.
long=(robustness --cv mc:3000 --rows 20000 --model logistic --threads 1 --quiet --out "$work/killed")
"$mpiexec" -np 2 --oversubscribe "$perfshap" "${long[@]}" >"$work/killed.log" 2>&1 &
job=$!
victim=""
for _ in $(seq 100); do
  victim=$(rank_pid "--out $work/killed" 1)
  [ -z "$victim" ] || break
  sleep 0.1
done
[ -n "$victim" ] || { kill -9 "$job" 2>/dev/null || true; fail "rank 1 of the long job was not found"; }
sleep 1
kill -9 "$victim"
killed_at=$SECONDS
set +e
wait "$job"
code=$?
set -e
took=$((SECONDS - killed_at))
[ "$code" -ne 0 ] || fail "the job with a killed rank exited 0"
[ "$took" -le 10 ] || fail "the job with a killed rank took $took s to end"
grep -q "rank 1" "$work/killed.log" || { cat "$work/killed.log" >&2; fail "the message does not name rank 1"; }
[ ! -e "$work/killed" ] || fail "--out was created by a job that failed"
echo "killed rank 1: the job ended in $took s with exit code $code"

# --checkpoint: a run SIGKILLed mid-run and started again (alone, and under mpirun -np 3 after a
# run of -np 2 lost a rank) ends with bitwise the uninterrupted run's files; other inputs are
# refused with one line.
kill_when_kept() {  # PID DIR: kill -9 PID once DIR keeps 5 items, while it still runs
  local pid=$1 dir=$2
  for _ in $(seq 300); do
    [ "$(ls "$dir" 2>/dev/null | grep -c '^item-')" -ge 5 ] && break
    sleep 0.05
  done
  kill -0 "$pid" 2>/dev/null || fail "the run ended before it could be killed"
  kill -9 "$pid"
  wait "$pid" 2>/dev/null || true
}
resume_case() {  # NAME ARGS...: uninterrupted vs killed + resumed
  local name=$1
  shift
  mkdir -p "$work/plain" "$work/resumed"
  "$perfshap" "$@" --threads 1 --quiet --out "$work/plain/$name"
  "$perfshap" "$@" --threads 1 --quiet --checkpoint "$work/ck_$name" --out "$work/resumed/$name" &
  kill_when_kept $! "$work/ck_$name"
  local kept
  kept=$(ls "$work/ck_$name" | grep -c '^item-')
  [ ! -e "$work/resumed/$name" ] || fail "$name: a killed run left --out"
  "$perfshap" "$@" --threads 1 --quiet --checkpoint "$work/ck_$name" --out "$work/resumed/$name"
  echo "$name: killed with $kept splits kept, resumed"
}
resume_case exact robustness --cv mc:600 --rows 20000 --model logistic
resume_case kernel robustness --data "$fixtures/data/pima.csv" --label label --cv mc:2000 --model logistic \
  --solver kernel --budget 60
# Under MPI: -np 2 loses rank 1 mid-run; -np 3 resumes from what both ranks kept.
mpi_args=(robustness --cv mc:600 --rows 20000 --model logistic)
"$perfshap" "${mpi_args[@]}" --threads 1 --quiet --out "$work/plain/mpi"
"$mpiexec" -np 2 --oversubscribe "$perfshap" "${mpi_args[@]}" --threads 1 --quiet --checkpoint "$work/ck_mpi" \
  --out "$work/resumed/mpi" >/dev/null 2>&1 &
job=$!
victim=""
for _ in $(seq 300); do
  if [ "$(ls "$work/ck_mpi" 2>/dev/null | grep -c '^item-')" -ge 5 ]; then
    victim=$(rank_pid "--checkpoint $work/ck_mpi" 1)
    [ -z "$victim" ] || break
  fi
  sleep 0.05
done
[ -n "$victim" ] || fail "rank 1 of the checkpointed job was not found"
kill -9 "$victim"
wait "$job" 2>/dev/null && fail "the checkpointed job with a killed rank exited 0"
"$mpiexec" -np 3 --oversubscribe "$perfshap" "${mpi_args[@]}" --threads 1 --quiet --checkpoint "$work/ck_mpi" \
  --out "$work/resumed/mpi" || fail "mpirun -np 3 did not resume"
# AXOM's --checkpoint (its seeds after the first): kept by -np 2, one seed lost, resumed by -np 3.
axom_args=(axom --data "$fixtures/data/wine.csv" --label label --seeds 4 --trees 20 --threads 1 --quiet)
"$perfshap" "${axom_args[@]}" --out "$work/plain/axom"
"$mpiexec" -np 2 --oversubscribe "$perfshap" "${axom_args[@]}" --checkpoint "$work/ck_axom" >/dev/null
rm "$work/ck_axom/wine/item-00000001.bin"
"$mpiexec" -np 3 --oversubscribe "$perfshap" "${axom_args[@]}" --checkpoint "$work/ck_axom" --out "$work/resumed/axom"
out=$(python3 "$compare" "$work/plain" "$work/resumed") || { echo "$out" >&2; fail "a resumed run differs"; }
echo "resumed: $out"
grep -q "compare: 4 entries, 0 differences" <<<"$out" || fail "not every resumed run compared"
set +e
"$perfshap" "${mpi_args[@]}" --seed 9 --quiet --checkpoint "$work/ck_mpi" >"$work/other.txt" 2>&1
code=$?
set -e
[ "$code" -eq 2 ] && [ "$(wc -l <"$work/other.txt")" -eq 1 ] && grep -q "another run" "$work/other.txt" ||
  { cat "$work/other.txt" >&2; fail "a checkpoint of other arguments was not refused in one line"; }
echo "cli_mpi_test: all passed"
