/* SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The perfshap authors
 * The C API under mpirun (CTest MpiCApi, -np 3): a robustness request run alone and with
 * perfshap_request_set_mpi_comm(&comm) gives the same arrays, bitwise, on every process. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "perfshap/c_api.h"

static int run(const MPI_Comm* comm, double* phi, size_t* n, double* auc) {
  PerfshapRequest* req = NULL;
  PerfshapResult* res = NULL;
  const double* values = NULL;
  const size_t* shape = NULL;
  size_t rank = 0;
  if (perfshap_request_create("robustness", "{\"cv\": \"mc:5\", \"rows\": 300, \"threads\": 1}", &req) != PERFSHAP_OK)
    return 1;
  if (comm != NULL && perfshap_request_set_mpi_comm(req, comm) != PERFSHAP_OK) return 2;
  if (perfshap_run(req, &res) != PERFSHAP_OK) return 3;
  if (perfshap_result_array(res, "phi", &values, &shape, &rank) != PERFSHAP_OK || rank != 1) return 4;
  *n = shape[0];
  memcpy(phi, values, *n * sizeof(double));
  if (perfshap_result_array(res, "value", &values, &shape, &rank) != PERFSHAP_OK) return 5;
  *auc = values[0];
  perfshap_result_free(res);
  perfshap_request_free(req);
  return 0;
}

int main(int argc, char** argv) {
  int provided = 0, me = 0, failed = 0, any = 0;
  double alone[16], shared[16], auc_alone = 0, auc_shared = 0;
  size_t n_alone = 0, n_shared = 0;
  int code = 0;
  MPI_Comm world;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  world = MPI_COMM_WORLD; /* a macro of a handle in OpenMPI: its address is a variable's */
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  code = run(NULL, alone, &n_alone, &auc_alone);
  if (code == 0) code = run(&world, shared, &n_shared, &auc_shared);
  if (code != 0) {
    fprintf(stderr, "rank %d: step %d failed: %s\n", me, code, perfshap_last_error());
    failed = 1;
  } else if (n_alone != n_shared || memcmp(alone, shared, n_alone * sizeof(double)) != 0 || auc_alone != auc_shared) {
    fprintf(stderr, "rank %d: the shared run differs from the run alone\n", me);
    failed = 1;
  }
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (me == 0 && !any) printf("c_mpi_program: phi of %zu features equal, shared and alone\n", n_alone);
  MPI_Finalize();
  return any;
}
