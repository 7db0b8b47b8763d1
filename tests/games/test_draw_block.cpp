// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// games/draw_block.hpp: a block's draws predicted once per distinct draw. By hand on a small
// block (runs, a row's first draw never shared with the row before, NaN, signed zero), and the
// conditional prediction game with the value functions whose draws repeat (empirical, ctree)
// against every draw predicted alone, bit for bit, with fewer rows predicted.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "games/conditional_game.hpp"
#include "games/draw_block.hpp"
#include "perfshap/blocks/model.hpp"
#include "support/correlated_rows.hpp"

namespace perfshap {
inline namespace v0 {
namespace {

TEST(DrawBlock, RepeatedDrawsOfARowArePredictedOnce) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  detail::DrawBlock block;
  block.Start(2, 4, 2);
  // Row 0: draws (1,5) (1,5) (2,5) (2,5); row 1: (2,5) (NaN,0) (NaN,0) (NaN,-0).
  block.Add(std::vector<double>{1, 1, 2, 2, 5, 5, 5, 5});
  block.Add(std::vector<double>{2, nan, nan, nan, 5, 0.0, 0.0, -0.0});
  ASSERT_EQ(block.size(), 5U);
  const std::span<const double> d = block.Distinct();
  ASSERT_EQ(d.size(), 10U);
  const std::vector<double> first = {1, 2, 2, nan, nan}, second = {5, 5, 5, 0.0, -0.0};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_TRUE(d[i] == first[i] || (std::isnan(d[i]) && std::isnan(first[i]))) << i;
    EXPECT_EQ(std::signbit(d[5 + i]), std::signbit(second[i])) << i;
    EXPECT_EQ(d[5 + i], second[i]) << i;
  }
  // Two outputs of the distinct draws: 10 + i and 20 + i.
  const std::vector<double> predicted = {10, 11, 12, 13, 14, 20, 21, 22, 23, 24};
  std::vector<double> out(16, -1.0);
  block.Spread(predicted, 2, out);
  const std::vector<double> expected = {10, 10, 11, 11, 12, 13, 13, 14, 20, 20, 21, 21, 22, 23, 23, 24};
  EXPECT_EQ(out, expected);
}

// A nonlinear model that counts the rows it is asked for.
class CountingModel final : public Model {
 public:
  std::size_t n_features() const override { return 4; }
  bool is_classifier() const override { return false; }
  void Predict(std::span<const double> x, std::size_t n, std::span<double> out) const override {
    rows += n;
    for (std::size_t r = 0; r < n; ++r)
      out[r] = std::sin(x[r]) * x[n + r] + 0.5 * x[2 * n + r] * x[2 * n + r] - std::exp(0.3 * x[3 * n + r]);
  }
  std::string Describe() const override { return "counting model"; }
  mutable std::atomic<std::size_t> rows{0};
};

TEST(DrawBlock, ConditionalGameEqualsEveryDrawPredictedAlone) {
  const std::size_t F = 4, nb = 300, nx = 5, samples = 200, groups = 10;
  const std::vector<double> bg = testing::Ar1Rows(nb, F, 0.7, 11);
  const std::vector<double> rows = testing::Ar1Rows(nx, F, 0.7, 12);
  for (const ShapConditional kind : {ShapConditional::kEmpirical, ShapConditional::kCtree}) {
    const auto features = detail::MakeConditionalFeatures(kind, ColumnMatrix{bg, nb}, F);
    const CountingModel model;
    std::vector<Player> players;
    for (std::size_t j = 0; j < F; ++j) {
      players.emplace_back();
      players.back().name = std::string(1, static_cast<char>('a' + j));  // a, b, c, d
      players.back().columns = {j};
    }
    const detail::ConditionalPredictionGame game(model, ColumnMatrix{rows, nx}, *features, players,
                                                 ShapOutputScale::kPrediction, samples, groups, 5);
    const auto worker = game.MakeWorker();
    std::vector<double> out(game.n_outputs());
    std::vector<std::uint8_t> inside(F);
    std::vector<double> x(F), drawn(F * samples), one(F);
    // The proper coalitions: draws of 1 to 3 features.
    for (Coalition s = 1; s + 1 < (Coalition{1} << F); ++s) {
      model.rows = 0;
      worker->Evaluate(s, out);
      EXPECT_LT(model.rows, nx * samples) << ShapConditionalName(kind) << " coalition " << s;
      for (std::size_t j = 0; j < F; ++j) inside[j] = Contains(s, static_cast<int>(j)) ? 1 : 0;
      const auto draws = features->Given(inside, game.normals(), samples);
      for (std::size_t r = 0; r < nx; ++r) {
        for (std::size_t j = 0; j < F; ++j) x[j] = rows[j * nx + r];
        draws->Draw(x, drawn);
        for (std::size_t g = 0; g < groups; ++g) {
          double sum = 0.0, f = 0.0;
          std::size_t count = 0;
          for (std::size_t k = g; k < samples; k += groups, ++count) {
            for (std::size_t j = 0; j < F; ++j) one[j] = drawn[j * samples + k];
            model.Predict(one, 1, std::span<double>(&f, 1));
            sum += f;
          }
          EXPECT_EQ(out[r * groups + g], sum / static_cast<double>(count))
              << ShapConditionalName(kind) << " coalition " << s << " row " << r << " group " << g;
        }
      }
    }
  }
}

}  // namespace
}  // namespace v0
}  // namespace perfshap
