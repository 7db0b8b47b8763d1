// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// What a slow C progress callback costs a run (hardening round 2, item 2): the same robustness
// request through the C ABI with no callback, and with one that sleeps 0.2 s each call, in turns
// (A B A B ...), so the ratio holds on a shared machine. The callback runs on the request's relay
// thread, never on an engine worker, so the run waits for it at most once: for its final call,
// on the caller's thread. Prints each kind's median wall time and their difference.
//
//   perfshap_c_progress_bench [DATA_CSV [REPEATS]]   (default: the banknote fixture, 3)
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "perfshap/c_api.h"
#include "perfshap/dataset.hpp"

namespace {

using Clock = std::chrono::steady_clock;

std::atomic<int> g_calls{0};

int SlowCallback(uint64_t, uint64_t, double, void*) {
  g_calls++;
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  return 0;
}

void Check(int status, const char* what) {
  if (status == PERFSHAP_OK) return;
  std::fprintf(stderr, "perfshap_c_progress_bench: %s: %s\n", what, perfshap_last_error());
  std::exit(1);
}

// One run of the request; returns its wall time in seconds.
double RunOnce(PerfshapTable* table, bool slow_callback) {
  PerfshapRequest* req = nullptr;
  Check(perfshap_request_create("robustness",
                                R"({"label": "label", "model": "logistic", "cv": "mc:2000", "seed": 1})", &req),
        "request");
  Check(perfshap_request_set_table(req, "data", table), "data");
  if (slow_callback) Check(perfshap_request_set_progress(req, SlowCallback, nullptr), "progress");
  PerfshapResult* result = nullptr;
  const auto start = Clock::now();
  Check(perfshap_run(req, &result), "run");
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  perfshap_result_free(result);
  perfshap_request_free(req);
  return seconds;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : PERFSHAP_FIXTURE_DIR "/data/banknote.csv";
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  perfshap::CsvOptions csv;
  csv.label = "label";
  csv.regression = true;  // the label as written: the request's label
  const perfshap::Dataset data = perfshap::ReadCsv(path, csv);
  PerfshapTable* table = nullptr;
  Check(perfshap_table_create("banknote", &table), "table");
  for (std::size_t j = 0; j < data.n_features(); ++j)
    Check(perfshap_table_add_numeric(table, data.feature_names()[j].c_str(), PERFSHAP_FLOAT64, data.column(j).data(),
                                     static_cast<int64_t>(data.n_rows()), 0),
          "column");
  Check(perfshap_table_add_numeric(table, "label", PERFSHAP_FLOAT64, data.label().data(),
                                   static_cast<int64_t>(data.n_rows()), 0),
        "label");
  RunOnce(table, false);  // warm-up: the arena's workers started, the pages touched
  std::vector<double> plain, slow;
  for (int i = 0; i < repeats; ++i) {
    plain.push_back(RunOnce(table, false));
    slow.push_back(RunOnce(table, true));
  }
  const double a = Median(plain), b = Median(slow);
  std::printf("robustness logistic mc:2000 on %zu rows, %d runs each, in turns\n", data.n_rows(), repeats);
  std::printf("  no callback:               median %.3f s\n", a);
  std::printf("  callback sleeping 0.2 s:   median %.3f s  (%d calls in all)\n", b, g_calls.load());
  std::printf("  slowdown:                  %+.3f s  (ratio %.2f)\n", b - a, b / a);
  perfshap_table_free(table);
  return 0;
}
