// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// Links perfshap::perfshap from the installed package and checks one exact computation.
#include <cmath>
#include <cstdio>
#include <memory>

#include <perfshap/perfshap.hpp>  // the umbrella header compiles on its own in a user's project
#include <perfshap/blocks/learners.hpp>
#include <perfshap/blocks/metric.hpp>
#include <perfshap/blocks/players.hpp>
#include <perfshap/robustness.hpp>
#include <perfshap/blocks/solver.hpp>
#include <perfshap/blocks/split.hpp>
#include <perfshap/version.hpp>

namespace {
// Glove game on 3 players: v(S) = min(#left gloves, #right gloves); player 0 is the only left.
class GloveGame final : public perfshap::Game {
 public:
  int n_players() const override { return 3; }
  std::size_t n_outputs() const override { return 1; }
  std::unique_ptr<perfshap::GameWorker> MakeWorker() const override { return std::make_unique<Worker>(); }

 private:
  struct Worker final : perfshap::GameWorker {
    void Evaluate(perfshap::Coalition s, std::span<double> out) override {
      const int left = static_cast<int>(s & 1U);
      const int right = static_cast<int>((s >> 1) & 1U) + static_cast<int>((s >> 2) & 1U);
      out[0] = std::min(left, right);
    }
  };
};
}  // namespace

// The README's method call: a learner by name, players as groups of columns, a split plan.
bool RobustnessRuns() {
  std::vector<std::vector<double>> columns(3, std::vector<double>(60));
  std::vector<double> label(60);
  for (std::size_t i = 0; i < 60; ++i) {
    columns[0][i] = std::sin(0.7 * static_cast<double>(i));
    columns[1][i] = std::cos(1.3 * static_cast<double>(i));
    columns[2][i] = static_cast<double>(i % 7);
    label[i] = columns[0][i] + 0.3 * columns[1][i] > 0.0 ? 1.0 : 0.0;
  }
  const perfshap::Dataset data({"a", "b", "c"}, columns, label);
  perfshap::RobustnessOptions options;
  options.learner = perfshap::MakeLearner("logistic", {{"C", "0.5"}});
  options.players = {{"ab", {0, 1}, {"a", "b"}}, {"c", {2}, {"c"}}};
  const auto plan = perfshap::MonteCarloSplits(data.n_rows(), 3, 0.3, 1, data.label());
  const perfshap::RobustnessResult r = perfshap::ExplainRobustness(data, plan, options);
  return r.features.size() == 2 && std::abs(r.phi_auc_mean[0] + r.phi_auc_mean[1] - (r.auc_mean - 0.5)) < 1e-12 &&
         perfshap::MakeSolver("exact")->name() == "exact";
}

int main() {
  if (!RobustnessRuns()) {
    std::printf("perfshap: robustness through the installed package: WRONG\n");
    return 1;
  }
  const auto v = perfshap::ExactSolver().Solve(GloveGame());
  const std::vector<double> y{0, 0, 1, 1};
  const std::vector<double> s{0.1, 0.4, 0.35, 0.8};
  const double auc = perfshap::RocAuc(y, s);
  const bool ok = std::abs(v(0, 0) - 2.0 / 3.0) < 1e-15 && std::abs(v(1, 0) - 1.0 / 6.0) < 1e-15 &&
                  std::abs(auc - 0.75) < 1e-15;
  std::printf("perfshap %s: glove phi = (%.6f, %.6f, %.6f), auc = %.2f: %s\n",
              std::string(perfshap::Version()).c_str(), v(0, 0), v(1, 0), v(2, 0), auc, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
