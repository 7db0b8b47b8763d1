# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""perfshap's Python module under mpirun with mpi4py's communicator (comm=MPI.COMM_WORLD):
every process gets the whole result, bitwise one process's (robustness over splits, XPER);
a comm that is not a communicator is refused. Run by CTest MpiPython (mpirun -np 3)."""
import os
import sys

import pandas as pd
from mpi4py import MPI

import perfshap

comm = MPI.COMM_WORLD
assert comm.Get_size() >= 2, "run with mpirun -np 2 or more"
data = pd.read_csv(os.path.join(os.environ["PERFSHAP_FIXTURES"], "data", "pima.csv"))
X, y = data.drop(columns=["label"]), data["label"]


def strip(j):
    return {k: v for k, v in j.items() if k not in ("elapsed_seconds", "threads")}


for kwargs in ({"cv": "mc:5", "model": "logistic"}, {"cv": "holdout", "model": "gnb"},
               {"cv": "mc:4", "solver": "kernel", "budget": 100}):
    alone = perfshap.robustness(X, y, threads=1, seed=2, **kwargs)
    shared = perfshap.robustness(X, y, threads=1, seed=2, comm=comm, **kwargs)
    assert (shared.phi == alone.phi).all(), kwargs
    assert strip(shared.json) == strip(alone.json), kwargs
    assert shared.files["phi.csv"] == alone.files["phi.csv"], kwargs
alone = perfshap.xper(X, y, model="logistic", train=(X, y), threads=1)
shared = perfshap.xper(X, y, model="logistic", train=(X, y), threads=1, comm=comm)
assert (shared.phi == alone.phi).all()
try:
    perfshap.robustness(X, y, cv="mc:2", comm="world")
    raise AssertionError("a comm that is not a communicator was taken")
except TypeError as e:
    assert "mpi4py communicator" in str(e)
comm.Barrier()
if comm.Get_rank() == 0:
    print(f"python_mpi_test: {comm.Get_size()} processes, all passed")
sys.exit(0)
