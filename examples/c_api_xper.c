/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The perfshap authors */
/* XPER of a logistic model's AUC from a C program: two feature columns and a label, lent to the
 * engine as arrays (docs/c-api.md). */
#include <stdio.h>

#include "perfshap/c_api.h"

int main(void) {
  enum { n = 400 };
  static double x1[n], x2[n], y[n];
  unsigned s = 7;
  for (int i = 0; i < n; ++i) { /* a small generated data set: y depends on x1 more than on x2 */
    s = s * 1103515245u + 12345u;
    x1[i] = (double)(s >> 16 & 0x7fff) / 32768.0 - 0.5;
    s = s * 1103515245u + 12345u;
    x2[i] = (double)(s >> 16 & 0x7fff) / 32768.0 - 0.5;
    s = s * 1103515245u + 12345u;
    y[i] = 2.0 * x1[i] + 0.5 * x2[i] + ((double)(s >> 16 & 0x7fff) / 32768.0 - 0.5) > 0.0;
  }
  PerfshapTable* t = NULL;
  PerfshapRequest* req = NULL;
  PerfshapResult* r = NULL;
  if (perfshap_table_create("generated", &t) || perfshap_table_add_numeric(t, "x1", PERFSHAP_FLOAT64, x1, n, 0) ||
      perfshap_table_add_numeric(t, "x2", PERFSHAP_FLOAT64, x2, n, 0) ||
      perfshap_table_add_numeric(t, "y", PERFSHAP_FLOAT64, y, n, 0) ||
      perfshap_request_create("xper", "{\"label\": \"y\", \"model\": \"logistic\", \"metric\": \"auc\"}", &req) ||
      perfshap_request_set_table(req, "data", t) || perfshap_request_set_table(req, "train", t) ||
      perfshap_run(req, &r)) {
    fprintf(stderr, "perfshap: %s\n", perfshap_last_error());
    return 1;
  }
  const double* phi = NULL;
  const double* auc = NULL;
  const size_t* shape = NULL;
  size_t ndim = 0;
  perfshap_result_array(r, "value", &auc, &shape, &ndim);
  perfshap_result_array(r, "phi", &phi, &shape, &ndim);
  printf("AUC %.4f = 0.5 + phi(x1) %.4f + phi(x2) %.4f\n", auc[0], phi[0], phi[1]);
  perfshap_result_free(r);
  perfshap_request_free(req);
  perfshap_table_free(t);
  return 0;
}
