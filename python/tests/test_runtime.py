# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""The engine runs with the GIL released, two Python threads compute at once, and Ctrl-C cancels
cleanly (KeyboardInterrupt, nothing written)."""
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pandas as pd

import perfshap

FIXTURES = os.environ["PERFSHAP_FIXTURES"]


def pima():
    frame = pd.read_csv(os.path.join(FIXTURES, "data", "pima.csv"), float_precision="round_trip")
    return frame.drop(columns=["label"]), frame["label"]


def test_python_runs_while_the_engine_computes():
    X, y = pima()
    marks = []  # the main thread's counter at each progress report of the worker's run
    counter = [0]

    def work():
        perfshap.robustness(X, y, cv="mc:1000", threads=1, progress=lambda *p: marks.append(counter[0]))

    t = threading.Thread(target=work)
    t.start()
    while t.is_alive():
        counter[0] += 1
    t.join()
    assert len(marks) >= 2, "the run was too short to see progress"
    # Between its first and last progress report the run was inside the engine; had it held the
    # GIL, this thread could not have counted at all.
    assert marks[-1] - marks[0] > 1000


def test_two_threads_compute_at_the_same_time():
    X, y = pima()
    windows = {}

    def work(name):
        stamps = []

        def progress(done, total, elapsed, eta):
            if 0 < done < total:  # reported from inside the engine, mid-computation
                stamps.append(time.monotonic())

        perfshap.robustness(X, y, cv="mc:2000", threads=1, seed=len(name), progress=progress)
        assert stamps, "no report from the middle of the computation"
        windows[name] = (stamps[0], stamps[-1])

    threads = [threading.Thread(target=work, args=(n,)) for n in ("a", "bb")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    (a0, a1), (b0, b1) = windows["a"], windows["bb"]
    # Each window spans reports from the middle of a computation; they overlap only if the second
    # computation was under way while the first still was.
    assert a0 < b1 and b0 < a1, windows


def test_ctrl_c_cancels_and_writes_nothing(tmp_path):
    out = tmp_path / "run"
    script = textwrap.dedent(f"""
        import sys
        import perfshap
        started = []
        def progress(done, total, elapsed, eta):
            if not started:
                started.append(1)
                print("started", flush=True)
        try:
            perfshap.robustness(cv="mc:20000", rows=1000, out={str(out)!r}, progress=progress)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(3)
        print("finished", flush=True)
    """)
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=os.environ.copy())
    assert p.stdout.readline().strip() == "started"
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    rest, err = p.communicate(timeout=60)
    assert p.returncode == 3, (rest, err)
    assert "interrupted" in rest
    assert time.monotonic() - t0 < 30
    assert not out.exists() or not any(out.iterdir()), list(out.iterdir())  # no result.json, no half-written table
