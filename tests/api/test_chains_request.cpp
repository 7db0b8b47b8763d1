// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The request layer's Shapley Chains method (api/chains_request.hpp), which the CLI and Python
// both call: the generated xor data and the same rows handed over as a table with their output
// columns give the same contributions bit for bit; bad requests are refused naming the option.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "api/chains_request.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/generators.hpp"
#include "support/expect_error.hpp"

namespace perfshap { inline namespace v0 {
namespace {

api::ChainsRequest Small() {
  api::ChainsRequest r;
  r.xor_rows = 300;
  r.seed = 6;
  r.rows = 12;
  r.background = 25;
  r.shap.solver_options.execution.threads = 2;
  return r;
}

TEST(ChainsRequest, TheXorDataAndTheSameRowsAsATableAgree) {
  const detail::ChainsReport generated = api::RunChains(Small());
  const LogicChainData d = GenerateLogicChainData(300, 6);
  auto table = std::make_shared<Table>();
  table->source = "the frame";
  table->n_rows = d.data.n_rows();
  for (std::size_t j = 0; j < d.data.n_features(); ++j)
    table->columns.push_back(
        {d.data.feature_names()[j], ColumnType::kFloat64, d.data.column(j).data(), sizeof(double), {}, {}});
  for (std::size_t o = 0; o < d.outputs.size(); ++o)
    table->columns.push_back(
        {d.output_names[o], ColumnType::kFloat64, d.outputs[o].data(), sizeof(double), {}, {}});
  api::ChainsRequest r = Small();
  r.data.table = table;
  r.outputs = d.output_names;
  const detail::ChainsReport given = api::RunChains(r);
  ASSERT_EQ(given.orders.size(), 1u);
  EXPECT_EQ(given.orders[0].direct, generated.orders[0].direct);
  EXPECT_EQ(given.orders[0].indirect, generated.orders[0].indirect);
  EXPECT_EQ(given.independent, generated.independent);
  EXPECT_EQ(given.data, "the frame");
  EXPECT_EQ(given.rows.size(), 12u);
}

TEST(ChainsRequest, AGivenOrderAndEveryOrder) {
  api::ChainsRequest r = Small();
  const std::vector<std::string> names = GenerateLogicChainData(10, 0).output_names;
  r.order = std::vector<std::string>(names.rbegin(), names.rend());
  const detail::ChainsReport reversed = api::RunChains(r);
  ASSERT_EQ(reversed.orders.size(), 1u);
  EXPECT_EQ(reversed.orders[0].order.front(), names.size() - 1);
  r.order.reset();
  r.all_orders = true;
  EXPECT_EQ(api::RunChains(r).orders.size(), 6u);  // 3 outputs: 3! orders
}

TEST(ChainsRequest, BadRequestsAreRefusedNamingTheOption) {
  using testing::ExpectError;
  {
    api::ChainsRequest r = Small();
    r.order = std::vector<std::string>{"and"};
    ExpectError<InvalidArgument>([&] { api::RunChains(r); }, {"every output once"}, "order");
    r.all_orders = true;
    ExpectError<InvalidArgument>([&] { api::RunChains(r); }, {"not both"}, "orders");
  }
  {
    api::ChainsRequest r = Small();
    r.outputs = {"a"};
    ExpectError<InvalidArgument>([&] { api::RunChains(r); }, {"give the data too"}, "outputs");
  }
  {
    api::ChainsRequest r = Small();
    r.background = 0;
    ExpectError<InvalidArgument>([&] { api::RunChains(r); }, {"at least 1 row"}, "background");
  }
}

}  // namespace
}}  // namespace perfshap
