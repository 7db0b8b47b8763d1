// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The memory a table handed over in memory adds while TreeSHAP reads it (bench/run_memory_bench.sh).
//   perfshap_ingest_memory MODE [ROWS] [THREADS]
// MODE:
//   columns  eight float64 columns lent as the C API and Python lend them (the request layer,
//            api::RunShap, reads them through ReadTableInPlace)
//   arrow    the same buffers as an Arrow record batch moved in (ImportArrowTable)
//   copy     the path before one ingestion path: ReadTable's converted copy, the explained rows
//            gathered into one column-major block, ExplainTrees on the block
// The caller's columns are made and touched first; then the peak resident set is reset
// (/proc/self/clear_refs) and the run's peak read (VmHWM). What the run adds is the peak less the
// memory before it and less the explanation it returns (phi, base and prediction as held): the
// input's copies and the working memory. Printed as one line of key=value, MB = 2^20 bytes.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "api/shap_request.hpp"
#include "perfshap/arrow.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/shap.hpp"
#include "perfshap/table.hpp"
#include "perfshap/blocks/trees.hpp"

namespace {

using namespace perfshap;

double StatusMb(const char* key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) return std::strtod(line.c_str() + std::string(key).size(), nullptr) / 1024.0;
  return -1;
}

void ResetPeak() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
}

// An Arrow record batch over the caller's buffers; the release callbacks only mark it released.
struct Batch {
  std::vector<ArrowSchema> child_schemas;
  std::vector<ArrowArray> child_arrays;
  std::vector<ArrowSchema*> schema_ptrs;
  std::vector<ArrowArray*> array_ptrs;
  std::vector<std::vector<const void*>> buffers;
  ArrowSchema schema{};
  ArrowArray array{};
};

void ReleaseSchema(ArrowSchema* s) { s->release = nullptr; }
void ReleaseArray(ArrowArray* a) { a->release = nullptr; }

void MakeBatch(Batch& b, const std::vector<std::string>& names, const std::vector<std::vector<double>>& columns) {
  const std::size_t F = columns.size();
  const auto n = static_cast<std::int64_t>(columns.front().size());
  b.child_schemas.resize(F);
  b.child_arrays.resize(F);
  b.buffers.resize(F);
  for (std::size_t j = 0; j < F; ++j) {
    ArrowSchema& s = b.child_schemas[j];
    s = ArrowSchema{};
    s.format = "g";
    s.name = names[j].c_str();
    s.release = ReleaseSchema;
    ArrowArray& a = b.child_arrays[j];
    a = ArrowArray{};
    a.length = n;
    a.n_buffers = 2;
    b.buffers[j] = {nullptr, columns[j].data()};
    a.buffers = b.buffers[j].data();
    a.release = ReleaseArray;
    b.schema_ptrs.push_back(&s);
    b.array_ptrs.push_back(&a);
  }
  b.schema.format = "+s";
  b.schema.n_children = static_cast<std::int64_t>(F);
  b.schema.children = b.schema_ptrs.data();
  b.schema.release = ReleaseSchema;
  static const void* no_buffer[1] = {nullptr};
  b.array.length = n;
  b.array.n_buffers = 1;
  b.array.buffers = no_buffer;
  b.array.n_children = static_cast<std::int64_t>(F);
  b.array.children = b.array_ptrs.data();
  b.array.release = ReleaseArray;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: perfshap_ingest_memory columns|arrow|copy [ROWS] [THREADS]\n");
    return 2;
  }
  const std::string mode = argv[1];
  const std::size_t n = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 10'000'000;
  const int threads = argc > 3 ? std::atoi(argv[3]) : 2;
  const std::string model_file = std::string(PERFSHAP_FIXTURE_DIR) + "/xgboost/reg_squarederror.json";
  const auto model = ReadXgboostModel(model_file);
  const std::vector<std::string> names = model->info().feature_names;
  const std::size_t F = names.size();

  // The caller's table: F float64 columns, every page written.
  std::vector<std::vector<double>> columns(F, std::vector<double>(n));
  for (std::size_t j = 0; j < F; ++j)
    for (std::size_t i = 0; i < n; ++i) columns[j][i] = static_cast<double>((i * 2654435761u + j * 97) % 1000) / 10.0;
  const double input_mb = static_cast<double>(n * F * sizeof(double)) / (1024.0 * 1024.0);

  ExecutionOptions execution;
  execution.threads = threads;
  Batch batch;
  std::shared_ptr<const Table> table;
  if (mode == "arrow") {
    MakeBatch(batch, names, columns);
  } else {
    auto t = std::make_shared<Table>();
    t->source = "lent columns";
    t->n_rows = n;
    for (std::size_t j = 0; j < F; ++j) {
      TableColumn c;
      c.name = names[j];
      c.data = columns[j].data();
      c.stride = sizeof(double);
      t->columns.push_back(std::move(c));
    }
    table = t;
  }
  const double before = StatusMb("VmRSS:");
  ResetPeak();
  double result_mb = 0;
  double checksum = 0;
  if (mode == "copy") {
    CsvOptions csv;
    csv.allow_no_label = true;
    const Dataset data = ReadTable(*table, csv);
    std::vector<double> x(n * F);
    for (std::size_t j = 0; j < F; ++j)
      for (std::size_t i = 0; i < n; ++i) x[j * n + i] = data.column(j)[i];
    const ShapExplanation e = ExplainTrees(*model, ColumnMatrix{x, n}, ColumnMatrix{}, names, execution);
    result_mb = static_cast<double>((e.phi.capacity() + e.base.capacity() + e.prediction.capacity()) * sizeof(double)) /
                (1024.0 * 1024.0);
    checksum = std::accumulate(e.prediction.begin(), e.prediction.end(), 0.0);
  } else if (mode == "columns" || mode == "arrow") {
    api::ShapRequest request;
    request.data.table = mode == "arrow" ? ImportArrowTable(&batch.schema, &batch.array, "arrow batch") : table;
    request.model.tree_file = model_file;
    request.approach = api::ShapApproach::kTree;
    request.options.solver_options.execution = execution;
    const api::ShapResponse response = api::RunShap(request);
    const ShapExplanation& e = response.explanation;
    result_mb = static_cast<double>((e.phi.capacity() + e.base.capacity() + e.prediction.capacity()) * sizeof(double)) /
                (1024.0 * 1024.0);
    checksum = std::accumulate(e.prediction.begin(), e.prediction.end(), 0.0);
  } else {
    std::fprintf(stderr, "unknown mode %s: columns, arrow or copy\n", mode.c_str());
    return 2;
  }
  const double peak = StatusMb("VmHWM:");
  const double added = peak - before - result_mb;
  std::printf(
      "mode=%s rows=%zu features=%zu threads=%d input_mb=%.1f before_mb=%.1f peak_mb=%.1f result_mb=%.1f "
      "added_mb=%.1f added_per_input=%.3f checksum=%.17g\n",
      mode.c_str(), n, F, threads, input_mb, before, peak, result_mb, added, added / input_mb, checksum);
  return 0;
}
