// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// ReadCsv on any bytes, under four option sets (a 0/1 label, no label, a positive class with
// rows dropped, a regression target with text levels kept), then the design of what it read.
// Checks: a refusal is a perfshap::Error with one bounded line; what is read has the promised
// shape (every column n_rows long, a label per row, finite values unless missing ones are kept)
// and encodes into a design.
#include <cmath>
#include <cstdlib>
#include <vector>

#include "fuzz_support.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/blocks/players.hpp"

namespace {

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "perfshap fuzz: ReadCsv broke its promise: %s\n", what);
    std::abort();
  }
}

void ReadAndEncode(const std::string& path, const perfshap::CsvOptions& options) {
  perfshap::fuzz::Refusable([&] {
    const perfshap::Dataset data = perfshap::ReadCsv(path, options);
    const bool nan_allowed = options.missing == perfshap::MissingValues::kKeep;
    Check(data.n_features() > 0, "no feature column");
    Check(data.label().empty() || data.label().size() == data.n_rows(), "label length");
    for (std::size_t j = 0; j < data.n_features(); ++j) {
      const auto column = data.column(j);
      Check(column.size() == data.n_rows(), "column length");
      for (const double v : column) Check(!std::isinf(v) && (nan_allowed || !std::isnan(v)), "non-finite value");
    }
    for (const double y : data.label()) Check(std::isfinite(y), "non-finite label");
    for (const auto policy : {perfshap::TextColumns::kOneHot, perfshap::TextColumns::kCodes}) {
      perfshap::fuzz::Refusable([&] {
        const perfshap::DesignEncoder encoder(data, {}, {}, policy);
        const perfshap::Design design = encoder.Apply(data);
        Check(design.data.n_rows() == data.n_rows(), "design rows");
      });
    }
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static perfshap::fuzz::InputFile file("csv");
  const std::string& path = file.Write(data, size);

  perfshap::CsvOptions labelled;
  labelled.label = "label";
  ReadAndEncode(path, labelled);

  perfshap::CsvOptions unlabelled;
  unlabelled.allow_no_label = true;
  unlabelled.missing = perfshap::MissingValues::kKeep;
  ReadAndEncode(path, unlabelled);

  perfshap::CsvOptions positive;
  positive.label = "label";
  positive.positive = std::string(1, 'M');
  positive.missing = perfshap::MissingValues::kDrop;
  positive.delimiter = ';';
  ReadAndEncode(path, positive);

  perfshap::CsvOptions regression;
  regression.label = "y";
  regression.label_optional = true;
  regression.regression = true;
  regression.missing = perfshap::MissingValues::kCategory;
  ReadAndEncode(path, regression);
  return 0;
}
