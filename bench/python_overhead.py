# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""The Python module's costs, measured in one run (ratios, on this machine):
1. banknote robustness (mc:100): a Python call's wall time (with its phi as numpy) against the
   CLI's in-process elapsed_seconds (result.json) of the same job, alternating, median of 11, and
   the time its files take when first read;
2. two Python threads each running a job with threads=1, concurrently vs one after the other;
3. a 1,000,000-row float32 frame (4 features): the process's peak memory growth while the engine
   reads it, in units of its features and label as doubles (one copy = 1.0), and with a run.

    PYTHONPATH=build/release/python /usr/bin/python3 bench/python_overhead.py build/release/perfshap
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np
import pandas as pd

import perfshap

CLI = sys.argv[1] if len(sys.argv) > 1 else "build/release/perfshap"
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "data", "banknote.csv")


def cli_elapsed():
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([CLI, "robustness", "--data", DATA, "--label", "label", "--cv", "mc:100", "--quiet", "--out",
                        out, "--force"], check=True)
        with open(os.path.join(out, "result.json")) as f:
            return json.load(f)["elapsed_seconds"]


def python_wall(X, y):
    """The call and its phi (numpy from the engine's buffers); the files (result.json) are
    written after the clock stops, when first read."""
    t0 = time.perf_counter()
    r = perfshap.robustness(X, y, cv="mc:100")
    phi = r.phi
    wall = time.perf_counter() - t0
    assert phi.shape == (4,)
    t0 = time.perf_counter()
    elapsed = r.json["elapsed_seconds"]
    return wall, elapsed, time.perf_counter() - t0


frame = pd.read_csv(DATA, float_precision="round_trip")
X, y = frame.drop(columns=["label"]), frame["label"]
python_wall(X, y)  # warm: the module's first call starts the thread pool
cli, wall, inner, files = [], [], [], []
for _ in range(11):
    cli.append(cli_elapsed())
    w, e, f = python_wall(X, y)
    wall.append(w)
    inner.append(e)
    files.append(f)
c, w, e, f = (statistics.median(v) for v in (cli, wall, inner, files))
print(f"1. banknote robustness mc:100: CLI elapsed_seconds {c * 1e3:.1f} ms, Python call + r.phi wall {w * 1e3:.1f} ms "
      f"(its own elapsed_seconds {e * 1e3:.1f} ms): Python wall / CLI = {w / c:.3f}; the files, written when first "
      f"read (r.json), {f * 1e3:.1f} ms more")

pima = pd.read_csv(os.path.join(os.path.dirname(DATA), "pima.csv"), float_precision="round_trip")
PX, Py = pima.drop(columns=["label"]), pima["label"]


def job(seed):
    perfshap.robustness(PX, Py, cv="mc:200", threads=1, seed=seed)


job(0)
t0 = time.perf_counter()
job(1)
job(2)
serial = time.perf_counter() - t0
threads = [threading.Thread(target=job, args=(s,)) for s in (1, 2)]
t0 = time.perf_counter()
for t in threads:
    t.start()
for t in threads:
    t.join()
concurrent = time.perf_counter() - t0
print(f"2. two pima robustness jobs (threads=1 each): serial {serial:.3f} s, two Python threads {concurrent:.3f} s: "
      f"concurrent / serial = {concurrent / serial:.3f}")

n = 1_000_000
rng = np.random.default_rng(0)
big = pd.DataFrame(rng.normal(size=(n, 4)).astype(np.float32), columns=["a", "b", "c", "d"])
label = (big["a"].to_numpy() + rng.normal(size=n) > 0).astype(np.int8)
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
try:  # the data are read (table -> data set -> design), then the bad slice_fpr stops the run
    perfshap.robustness(big, label, model="gnb", cv="holdout", slice_fpr=2.0)
except ValueError:
    pass
read = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
r = perfshap.robustness(big, label, model="gnb", cv="holdout")
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
as_doubles = n * 4 * 8
print(f"3. 1M x 4 float32 frame ({n * 4 * 4 / 1e6:.0f} MB; {as_doubles / 1e6:.0f} MB as doubles, label "
      f"{n * 8 / 1e6:.0f} MB): peak memory +{(read - base) / 1e6:.0f} MB reading it = "
      f"{(read - base) / (as_doubles + n * 8):.2f} x features and label as doubles; +{(peak - base) / 1e6:.0f} MB "
      f"with the robustness run (AUC {r.value:.3f})")

# 4. A 100,000-row TreeSHAP through perfshap.shap(approach="tree") (the request layer): the call's
# wall time against the engine's own elapsed_seconds, the values reaching Python as numpy from
# the engine's buffers (no text round trip), and the files, written only when first read.
bc = pd.read_csv(os.path.join(os.path.dirname(DATA), "breast_cancer.csv"), float_precision="round_trip")
BX = bc.drop(columns=["label"])
rows = pd.concat([BX] * (100_000 // len(BX) + 1), ignore_index=True).iloc[:100_000]
model = os.path.join(os.path.dirname(DATA), "..", "xgboost", "binary_logistic_100x6.json")
perfshap.shap(model, rows.iloc[:100], approach="tree")  # warm
t0 = time.perf_counter()
r = perfshap.shap(model, rows, approach="tree", figures="none")
call = time.perf_counter() - t0
t0 = time.perf_counter()
values = r.values
to_numpy = time.perf_counter() - t0
t0 = time.perf_counter()
elapsed = r.json["elapsed_seconds"]
written = time.perf_counter() - t0
assert values.shape == (100_000, BX.shape[1])
print(f"4. shap(approach='tree') of 100,000 rows x {BX.shape[1]} features (100 trees): call {call * 1e3:.0f} ms, of "
      f"which the engine's elapsed_seconds {elapsed * 1e3:.0f} ms (call / elapsed = {call / elapsed:.2f}); r.values "
      f"as numpy {to_numpy * 1e3:.2f} ms; the files (contributions.csv of {len(r.files['contributions.csv']) / 1e6:.0f} "
      f"MB, result.json), written when first read, {written * 1e3:.0f} ms")
