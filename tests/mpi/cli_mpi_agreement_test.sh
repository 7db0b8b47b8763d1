#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
# The processes of an mpirun job agree before the work: a bad input on any one rank (a missing
# file, a missing label column, an output folder in the way on rank 0) ends the job within 10 s,
# non-zero, with that rank's one-line message said once; ranks given different data or another
# model end the job naming the ranks and what differs, instead of blending two runs. The bad rank
# is first, middle and last of -np 2 and -np 3 (mpirun's MPMD form: -np 1 A : -np 1 B ...).
#   cli_mpi_agreement_test.sh PERFSHAP MPIEXEC FIXTURES
set -euo pipefail
perfshap=$1 mpiexec=$2 fixtures=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "cli_mpi_agreement_test: $*" >&2; exit 1; }

cp "$fixtures/data/banknote.csv" "$work/good.csv"
# One cell changed (row 2's variance).
awk -F, 'NR == 3 { $1 = $1 + 1 } { print }' OFS=, "$fixtures/data/banknote.csv" >"$work/other.csv"
good=(robustness --data "$work/good.csv" --label label --cv mc:4 --threads 1 --quiet)

# run NAME EXPECT NP BAD ARGS_OF_THE_BAD_RANK...: -np NP with rank BAD given the other arguments;
# the job must fail within 10 s, say "perfshap: error" exactly once, and match EXPECT.
run() {
  local name=$1 expect=$2 np=$3 bad=$4
  shift 4
  local line=() r
  for ((r = 0; r < np; ++r)); do
    [ "$r" -eq 0 ] || line+=(:)
    if [ "$r" -eq "$bad" ]; then line+=(-np 1 "$perfshap" "$@"); else line+=(-np 1 "$perfshap" "${good[@]}"); fi
  done
  local start=$SECONDS code
  set +e
  timeout 60 "$mpiexec" --oversubscribe "${line[@]}" >"$work/$name.log" 2>&1
  code=$?
  set -e
  local took=$((SECONDS - start))
  [ "$code" -ne 0 ] || { cat "$work/$name.log" >&2; fail "$name: exited 0"; }
  [ "$code" -ne 124 ] || { cat "$work/$name.log" >&2; fail "$name: hung (killed after 60 s)"; }
  [ "$took" -le 10 ] || fail "$name: took $took s to end"
  [ "$(grep -c "perfshap: error" "$work/$name.log")" -eq 1 ] ||
    { cat "$work/$name.log" >&2; fail "$name: the error was not said once"; }
  grep -qE "$expect" "$work/$name.log" || { cat "$work/$name.log" >&2; fail "$name: no '$expect' in the message"; }
  echo "$name: ended in $took s, exit $code: $(grep "perfshap: error" "$work/$name.log")"
}

for np in 2 3; do
  for ((bad = 0; bad < np; ++bad)); do
    run "missing_np${np}_rank${bad}" "nonexistent.csv" "$np" "$bad" \
      robustness --data "$work/nonexistent.csv" --label label --cv mc:4 --threads 1 --quiet
    run "label_np${np}_rank${bad}" "no_such_label" "$np" "$bad" \
      robustness --data "$work/good.csv" --label no_such_label --cv mc:4 --threads 1 --quiet
    run "data_np${np}_rank${bad}" "rank [0-9]+: data" "$np" "$bad" \
      robustness --data "$work/other.csv" --label label --cv mc:4 --threads 1 --quiet
    run "model_np${np}_rank${bad}" "rank [0-9]+: model" "$np" "$bad" \
      robustness --data "$work/good.csv" --label label --cv mc:4 --model logistic --threads 1 --quiet
    run "flag_np${np}_rank${bad}" "no-such-flag|extras" "$np" "$bad" \
      robustness --data "$work/good.csv" --label label --cv mc:4 --no-such-flag --threads 1 --quiet
  done
done

# Rank 0's output folder holds a user's file: rank 0 refuses before the work, the others stop too.
mkdir -p "$work/taken" && echo "mine" >"$work/taken/notes.txt"
run "out_in_the_way" "not empty|notes.txt" 2 0 \
  robustness --data "$work/good.csv" --label label --cv mc:4 --threads 1 --quiet --out "$work/taken"
[ "$(cat "$work/taken/notes.txt")" = "mine" ] || fail "the user's file was changed"

# What may differ between ranks (threads, progress) does not stop the job.
"$mpiexec" --oversubscribe -np 1 "$perfshap" "${good[@]}" --out "$work/same0" : \
  -np 1 "$perfshap" robustness --data "$work/good.csv" --label label --cv mc:4 --threads 2 --quiet --out "$work/same0" ||
  fail "ranks with other --threads did not run"
[ -f "$work/same0/result.json" ] || fail "the run of ranks with other --threads wrote no result.json"
echo "cli_mpi_agreement_test: ok"
