// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// Costs known before work, from the command line: the huge requests refused with the
// numbers and the flags that change them, before any split is drawn or any model fitted; the
// estimate printed with the progress. The limits are given explicitly so the outcome does not
// depend on the machine's memory.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <sstream>
#include <string>

#include "cli/cli_runner.hpp"
#include "support/temp_files.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 { namespace testing {
namespace {

// A CSV of `rows` rows: `columns` numeric features x0.. and a 0/1 label.
std::string WideCsv(const std::string& name, std::size_t rows, std::size_t columns, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> z;
  std::ostringstream s;
  for (std::size_t j = 0; j < columns; ++j) s << "x" << j << ",";
  s << "label\n";
  char cell[32];
  for (std::size_t r = 0; r < rows; ++r) {
    double sum = 0.0;
    for (std::size_t j = 0; j < columns; ++j) {
      const double v = z(rng);
      if (j < 3) sum += v;
      std::snprintf(cell, sizeof cell, "%.4f,", v);
      s << cell;
    }
    s << (sum + z(rng) > 0 ? 1 : 0) << "\n";
  }
  return WriteTempFile(name, s.str());
}

TEST(CliCost, HugeRequestsAreRefusedWithTheirNumbers) {
  const std::string banknote = Quote(FixturePath("data/banknote.csv"));
  const std::string adult = Quote(FixturePath("data/adult_head.csv"));
  const std::string wide20 = Quote(WideCsv("wide20.csv", 10000, 20, 1));
  ExpectOneLineErrors({
      // A million splits are drawn a window at a time: what grows with them is their values
      // (4 players x 3 doubles a split), refused by a limit below that before anything is drawn.
      {"robustness --data " + banknote + " --label label --cv mc:1000000 --max-memory 50M",
       "per-split values 91.6 MB, split plan 43.1 MB"},
      {"robustness --data " + banknote + " --label label --cv mc:1000000 --max-memory 50M", "memory limit of 50 MB"},
      {"robustness --data " + banknote + " --label label --cv mc:1000000 --max-memory 50M", "--max-memory"},
      // Exact SHAP of 20 players for 10,000 rows: 2^20 x 10^4 x 100 model evaluations.
      {"shap --data " + wide20 + " --label label --model logistic --train " + wide20 +
           " --solver exact --max-evaluations 1e11",
       "2^20 coalitions x 10,000 rows x 100 background rows = 1e+12 model evaluations"},
      // XPER's full comparator on a tree model keeps n^2 hybrid predictions per thread.
      {"xper --data " + adult + " --label label --model tree --train " + adult +
           " --features age,education_num,hours_per_week --missing drop --comparator full --threads 2 --max-memory 16M",
       "comparison grid"},
      {"xper --data " + adult + " --label label --model tree --train " + adult +
           " --features age,education_num,hours_per_week --missing drop --comparator full --threads 2 --max-memory 16M",
       "(--comparator, --solver, --budget, --max-memory)"},
      {"axom --data " + banknote + " --label label --neighbours 4000000000", "4,000,000,000 neighbours"},
      {"xper-montecarlo --rows 100000000 --max-memory 1T", "would not finish"},
      {"xper-montecarlo --rows 100000000 --max-memory 1G", "samples in flight"},
      {"robustness --data " + banknote + " --label label --max-memory 12X", "is not a memory size"},
  });
}

TEST(CliCost, TenThousandColumnsAreRefusedOrEstimatedBeforeAnyFit) {
  const std::string wide = Quote(WideCsv("wide10000.csv", 40, 10000, 2));
  // The exact solver's limit comes before the fit of a 10,000-column model.
  ExpectOneLineErrors({
      {"xper --data " + wide + " --label label --model logistic --train " + wide,
       "exact XPER of 10000 features needs 2^10000 (about 2.0e+3010)"},
      {"shap --data " + wide + " --label label --model logistic --train " + wide + " --solver exact",
       "exact SHAP of 10000 players"},
      // Sampled solvers take the players; the Newton fit of 10,000 columns is what is estimated.
      {"shap --data " + wide + " --label label --model logistic --train " + wide + " --max-evaluations 1e12",
       "fitting logistic on 40 rows x 10,000 columns"},
      {"xper --data " + wide + " --label label --model logistic --train " + wide +
           " --solver kernel --max-evaluations 1e12",
       "fitting logistic on 40 rows x 10,000 columns"},
  });
}

TEST(CliCost, TheEstimateIsPrintedWithTheProgress) {
  const std::string banknote = Quote(FixturePath("data/banknote.csv"));
  const CliRun run = RunCli("robustness --data " + banknote + " --label label --cv mc:5 --progress plain");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("perfshap: estimate: robustness: 5 splits x 16 coalition trainings of 1,372 rows"),
            std::string::npos)
      << run.err;
  // Without progress, a small run says nothing on stderr.
  const CliRun quiet = RunCli("robustness --data " + banknote + " --label label --cv mc:5 --progress none");
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
}

}  // namespace
}}}  // namespace perfshap::testing
