// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The in-memory table path (ReadTable: what Python's numpy arrays and DataFrames become) on
// tables built from the input's bytes: up to 8 columns of any element type (any stride, NaN,
// infinities, integers past 2^53), text columns with missing cells, names that may repeat or
// be empty, under each missing-value policy. Checks: a refusal is a perfshap::Error with one
// bounded line; what is read has the promised shape and only finite values (NaN only where
// missing values are kept).
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fuzz_support.hpp"
#include "perfshap/blocks/players.hpp"
#include "perfshap/table.hpp"

namespace {

constexpr std::size_t kElementSize[] = {8, 4, 8, 4, 2, 1, 8, 4, 2, 1, 1};

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "perfshap fuzz: ReadTable broke a promise: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  perfshap::fuzz::Bytes in(data, size);
  perfshap::Table table;
  table.source = "fuzz.table";
  table.n_rows = in.Below(64);
  const std::size_t n_columns = 1 + in.Below(8);
  // Storage outlives ReadTable; reserved so the columns' pointers stay put.
  std::vector<std::vector<unsigned char>> storage;
  storage.reserve(n_columns);
  for (std::size_t c = 0; c < n_columns; ++c) {
    perfshap::TableColumn column;
    const std::size_t name_kind = in.Below(8);
    column.name = name_kind == 0   ? "y"
                  : name_kind == 1 ? in.ShortString(6)
                                   : std::string("x").append(std::to_string(c));
    const std::size_t type = in.Below(12);
    column.type = static_cast<perfshap::ColumnType>(type);
    if (column.type == perfshap::ColumnType::kText) {
      for (std::size_t r = 0; r < table.n_rows; ++r) column.text.push_back(in.ShortString(4));
      if (in.Byte() % 2 == 1) {
        for (std::size_t r = 0; r < table.n_rows; ++r) column.text_missing.push_back(in.Byte() % 4 == 0 ? 1 : 0);
      }
    } else {
      const std::size_t element = kElementSize[type];
      const std::size_t stride = element * (1 + in.Below(3));
      storage.emplace_back(stride * table.n_rows + 1, 0);
      auto& bytes = storage.back();
      // Values: each element's bytes from the input, read as that type (every bit pattern).
      for (std::size_t r = 0; r < table.n_rows; ++r) {
        const std::string_view v = in.Take(element);
        std::memcpy(bytes.data() + r * stride, v.data(), v.size());
        if (column.type == perfshap::ColumnType::kBool) bytes[r * stride] &= 1;  // numpy's bools are 0 / 1
      }
      column.data = bytes.data();
      column.stride = static_cast<std::ptrdiff_t>(stride);
    }
    table.columns.push_back(std::move(column));
  }
  perfshap::CsvOptions options;
  options.label = "y";
  options.regression = in.Byte() % 2 == 1;
  options.label_optional = in.Byte() % 2 == 1;
  options.missing = static_cast<perfshap::MissingValues>(in.Below(4));
  perfshap::fuzz::Refusable([&] {
    const perfshap::Dataset read = perfshap::ReadTable(table, options);
    for (std::size_t j = 0; j < read.n_features(); ++j) {
      Check(read.column(j).size() == read.n_rows(), "column length");
      for (const double v : read.column(j)) {
        Check(!std::isinf(v) && (options.missing == perfshap::MissingValues::kKeep || !std::isnan(v)),
              "non-finite value");
      }
    }
    Check(read.label().empty() || read.label().size() == read.n_rows(), "label length");
    for (const double y : read.label()) Check(std::isfinite(y), "non-finite label");
    perfshap::fuzz::Refusable([&] {
      const perfshap::DesignEncoder encoder(read, {}, {}, perfshap::TextColumns::kOneHot);
      Check(encoder.Apply(read).data.n_rows() == read.n_rows(), "design rows");
    });
  });
  return 0;
}
