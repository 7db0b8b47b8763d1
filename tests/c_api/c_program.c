/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The perfshap authors */
/*
 * A C11 consumer of libperfshap_c.so, as an analytics backend would write one: it reads a numeric
 * CSV into column arrays, lends them to the engine, runs XPER (a logistic model fitted on the
 * same rows, AUC) and TreeSHAP (an XGBoost model), and prints every number read back with 17
 * significant digits; then takes the error path (a NaN cell, an unknown option) and checks the
 * status, the one-line message and the option name. tests/c_api/run_c_program.py compares the
 * numbers with the command line's result.json, bit for bit.
 *
 *   c_program PIMA_CSV BREAST_CANCER_CSV XGBOOST_MODEL_JSON
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfshap/c_api.h"

enum { kMaxColumns = 64, kMaxLine = 65536 };

typedef struct {
  size_t n_rows, n_columns;
  char* names[kMaxColumns];
  double* columns[kMaxColumns];
} Csv;

static void Fail(const char* what) {
  fprintf(stderr, "c_program: %s: %s\n", what, perfshap_last_error());
  exit(1);
}

/* A header row of names, then rows of numbers (strtod: the nearest double, as the engine reads). */
static Csv ReadCsv(const char* path) {
  Csv csv;
  memset(&csv, 0, sizeof csv);
  FILE* f = fopen(path, "r");
  if (f == NULL) {
    fprintf(stderr, "c_program: cannot open %s\n", path);
    exit(1);
  }
  static char line[kMaxLine];
  size_t capacity = 0;
  int header = 1;
  while (fgets(line, sizeof line, f) != NULL) {
    line[strcspn(line, "\r\n")] = '\0';
    if (line[0] == '\0') continue;
    size_t j = 0;
    for (char* cell = strtok(line, ","); cell != NULL && j < kMaxColumns; cell = strtok(NULL, ","), ++j) {
      if (header) {
        csv.names[j] = malloc(strlen(cell) + 1);
        strcpy(csv.names[j], cell);
        continue;
      }
      csv.columns[j][csv.n_rows] = strtod(cell, NULL);
    }
    if (header) {
      csv.n_columns = j;
      header = 0;
      capacity = 4096;
      for (size_t k = 0; k < csv.n_columns; ++k) csv.columns[k] = malloc(capacity * sizeof(double));
      continue;
    }
    if (++csv.n_rows == capacity) {
      capacity *= 2;
      for (size_t k = 0; k < csv.n_columns; ++k) csv.columns[k] = realloc(csv.columns[k], capacity * sizeof(double));
    }
  }
  fclose(f);
  return csv;
}

static void FreeCsv(Csv* csv) {
  for (size_t j = 0; j < csv->n_columns; ++j) {
    free(csv->names[j]);
    free(csv->columns[j]);
  }
}

static PerfshapTable* TableOf(const Csv* csv, const char* source, const double* replace_column, size_t replaced) {
  PerfshapTable* t = NULL;
  if (perfshap_table_create(source, &t) != PERFSHAP_OK) Fail("table");
  for (size_t j = 0; j < csv->n_columns; ++j) {
    const double* values = (replace_column != NULL && j == replaced) ? replace_column : csv->columns[j];
    if (perfshap_table_add_numeric(t, csv->names[j], PERFSHAP_FLOAT64, values, (int64_t)csv->n_rows, 0) != PERFSHAP_OK)
      Fail("column");
  }
  return t;
}

static void Print(const PerfshapResult* r, const char* method, const char* name) {
  const double* values = NULL;
  const size_t* shape = NULL;
  size_t ndim = 0;
  if (perfshap_result_array(r, name, &values, &shape, &ndim) != PERFSHAP_OK) Fail(name);
  size_t n = 1;
  for (size_t k = 0; k < ndim; ++k) n *= shape[k];
  for (size_t i = 0; i < n; ++i) printf("%s %s %zu %.17g\n", method, name, i, values[i]);
}

static PerfshapResult* Run(const char* method, const char* options, PerfshapTable* data, PerfshapTable* train,
                           PerfshapModel* model) {
  PerfshapRequest* req = NULL;
  if (perfshap_request_create(method, options, &req) != PERFSHAP_OK) Fail("request");
  if (perfshap_request_set_table(req, "data", data) != PERFSHAP_OK) Fail("data");
  if (train != NULL && perfshap_request_set_table(req, "train", train) != PERFSHAP_OK) Fail("train");
  if (model != NULL && perfshap_request_set_model(req, model) != PERFSHAP_OK) Fail("model");
  PerfshapResult* r = NULL;
  if (perfshap_run(req, &r) != PERFSHAP_OK) Fail(method);
  perfshap_request_free(req);
  return r;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: c_program PIMA_CSV BREAST_CANCER_CSV XGBOOST_MODEL_JSON\n");
    return 2;
  }
  printf("version %s\n", perfshap_version());
  Csv pima = ReadCsv(argv[1]);
  PerfshapTable* t = TableOf(&pima, "pima", NULL, 0);
  PerfshapResult* x = Run("xper", "{\"label\": \"label\", \"model\": \"logistic\", \"metric\": \"auc\", \"threads\": 2}",
                          t, t, NULL);
  Print(x, "xper", "value");
  Print(x, "xper", "phi");
  perfshap_result_free(x);

  Csv bc = ReadCsv(argv[2]);
  PerfshapTable* b = TableOf(&bc, "breast_cancer", NULL, 0);
  PerfshapModel* model = NULL;
  if (perfshap_model_from_file(argv[3], &model) != PERFSHAP_OK) Fail("model");
  PerfshapResult* s = Run("treeshap", "{\"label\": \"label\", \"rows\": [0, 9]}", b, NULL, model);
  Print(s, "treeshap", "values");
  Print(s, "treeshap", "base_values");
  perfshap_result_free(s);

  /* The error path: a NaN cell (a data error naming the table and the column), and an unknown
   * option (refused, naming it). */
  double* glucose = malloc(pima.n_rows * sizeof(double));
  memcpy(glucose, pima.columns[1], pima.n_rows * sizeof(double));
  glucose[3] = NAN;
  PerfshapTable* bad = TableOf(&pima, "pima", glucose, 1);
  PerfshapRequest* req = NULL;
  PerfshapResult* r = NULL;
  if (perfshap_request_create("xper", "{\"label\": \"label\", \"model\": \"logistic\"}", &req) != PERFSHAP_OK) Fail("req");
  perfshap_request_set_table(req, "data", bad);
  perfshap_request_set_table(req, "train", t);
  int status = perfshap_run(req, &r);
  if (status != PERFSHAP_ERROR_DATA || r != NULL || strstr(perfshap_last_error(), "glucose") == NULL ||
      strchr(perfshap_last_error(), '\n') != NULL) {
    fprintf(stderr, "c_program: a NaN cell gave status %d: %s\n", status, perfshap_last_error());
    return 1;
  }
  printf("nan %d %s\n", status, perfshap_last_error());
  perfshap_request_free(req);
  if (perfshap_request_create("xper", "{\"model\": \"logistic\", \"tresholds\": 3}", &req) != PERFSHAP_OK) Fail("req");
  perfshap_request_set_table(req, "data", t);
  perfshap_request_set_table(req, "train", t);
  status = perfshap_run(req, &r);
  if (status != PERFSHAP_ERROR_INVALID_ARGUMENT || perfshap_last_error_option_count() != 1 ||
      strcmp(perfshap_last_error_option(0), "tresholds") != 0) {
    fprintf(stderr, "c_program: an unknown option gave status %d: %s\n", status, perfshap_last_error());
    return 1;
  }
  printf("unknown %d %s (%s)\n", status, perfshap_last_error(), perfshap_last_error_option(0));
  perfshap_request_free(req);
  perfshap_table_free(bad);
  perfshap_table_free(b);
  perfshap_table_free(t);
  perfshap_model_free(model);
  free(glucose);
  FreeCsv(&pima);
  FreeCsv(&bc);
  printf("c_program: ok\n");
  return 0;
}
