# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""The memory a 10,000,000 x 8 float64 table handed over from Python adds to the peak while
perfshap.treeshap reads it (issue: less than 0.1 of one copy of its bytes), one process per input
layout (the peak is the process's). The peak resident set is reset before the call
(/proc/self/clear_refs); what the call adds is the peak less the memory before it and less the
contributions it returns (rows x outputs x (features + 1), XGBoost's pred_contribs layout).
    PYTHONPATH=build/release/python python3 bench/python_memory.py [ROWS] [THREADS]
"""
import os
import subprocess
import sys

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures")
MODEL = os.path.join(FIXTURES, "xgboost", "reg_squarederror.json")


def status_mb(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return float(line.split()[1]) / 1024
    return -1.0


def one(layout, rows, threads):
    import numpy as np
    import pandas as pd
    import perfshap

    names = list(perfshap.load_model(MODEL).feature_names)
    i = np.arange(rows, dtype=np.uint64)
    X = np.empty((rows, len(names)), order="F" if layout == "fortran" else "C")
    for j in range(len(names)):
        X[:, j] = ((i * np.uint64(2654435761) + np.uint64(j * 97)) % np.uint64(1000)) / 10.0
    if layout == "dataframe":
        X = pd.DataFrame(np.asfortranarray(X), columns=names)  # one float64 block, as pandas holds it
    input_mb = rows * len(names) * 8 / 2**20
    before = status_mb("VmRSS:")
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    r = perfshap.treeshap(MODEL, X, threads=threads)
    peak = status_mb("VmHWM:")
    result_mb = r.contributions.nbytes / 2**20
    added = peak - before - result_mb
    print(f"layout={layout} rows={rows} features={len(names)} threads={threads} input_mb={input_mb:.1f} "
          f"before_mb={before:.1f} peak_mb={peak:.1f} result_mb={result_mb:.1f} added_mb={added:.1f} "
          f"added_per_input={added / input_mb:.3f} checksum={float(r.contributions.sum()):.17g}")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        one(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        return
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    for layout in ("c", "fortran", "dataframe"):
        subprocess.run([sys.executable, __file__, "--one", layout, str(rows), str(threads)], check=True)


if __name__ == "__main__":
    main()
