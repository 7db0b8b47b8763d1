// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// Links perfshap::perfshap from the installed package and checks one exact computation.
#include <cmath>
#include <cstdio>
#include <memory>

#include <perfshap/metric.hpp>
#include <perfshap/solver.hpp>
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

int main() {
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
