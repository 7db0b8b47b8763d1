// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The request layer's demo (api/demo_request.hpp), which the CLI and Python both call: the
// exact decomposition of the test AUC adds up (efficiency) and every section ran on the built-in
// design; a section the data cannot take is skipped with its reason in the library's words;
// the exact limit is refused naming its option.
#include <gtest/gtest.h>

#include <string>

#include "api/demo_request.hpp"
#include "perfshap/error.hpp"
#include "support/expect_error.hpp"
#include "support/temp_files.hpp"

namespace perfshap { inline namespace v0 {
namespace {

api::DemoRequest Small() {
  api::DemoRequest r;
  r.data.generated_rows = 300;
  r.seed = 3;
  r.execution.threads = 2;
  return r;
}

TEST(DemoRequest, TheBuiltInDesignRunsEverySectionAndTheAucDecompositionAddsUp) {
  const api::DemoResponse d = api::RunDemo(Small());
  const detail::DemoReport report = d.Report();
  ASSERT_NE(report.xper, nullptr);
  ASSERT_NE(report.robustness, nullptr);
  ASSERT_NE(report.treeshap, nullptr);
  ASSERT_NE(report.axom, nullptr);
  EXPECT_TRUE(report.predictions_skipped.empty()) << report.predictions_skipped;
  EXPECT_EQ(report.n_rows, 300u);
  // Efficiency of the AUC component: sum_i phi(i, 0) = v(N) - v(empty), v(N) = AUC - 0.5.
  double sum = 0.0;
  for (int i = 0; i < d.values.n_players; ++i)
    sum += d.values.phi[static_cast<std::size_t>(i) * d.values.n_outputs];
  EXPECT_NEAR(sum, d.values.full[0] - d.values.base[0], 1e-12);
  EXPECT_NEAR(d.values.full[0], report.metrics.front().second - 0.5, 1e-12);
  EXPECT_EQ(report.metrics.front().first, "auc");
}

TEST(DemoRequest, GroupsSkipThePredictionSectionsInTheLibrarysWords) {
  api::DemoRequest r = Small();
  r.data.groups = {FeatureGroup{"pair", {"x1", "x2"}, "groups"}};
  r.data.groups_source = "groups";
  const api::DemoResponse d = api::RunDemo(r);
  const detail::DemoReport report = d.Report();
  EXPECT_NE(report.predictions_skipped.find("one column per player"), std::string::npos);
  EXPECT_EQ(report.predictions_skipped.find("--"), std::string::npos) << report.predictions_skipped;
  EXPECT_EQ(report.groups, "groups");
}

TEST(DemoRequest, TheExactLimitIsRefusedNamingItsOption) {
  api::DemoRequest r = Small();
  r.exact_limit = 2;  // the design has 3 features
  testing::ExpectError<InvalidArgument>([&] { api::RunDemo(r); }, {"3 features, above the exact limit 2"},
                                        "max_features");
}

}  // namespace
}}  // namespace perfshap
