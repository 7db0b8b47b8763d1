// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "support/synthetic_games.hpp"

#include "perfshap/blocks/random.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace perfshap { inline namespace v0 { namespace testing {

namespace {
class FunctionWorker final : public GameWorker {
 public:
  explicit FunctionWorker(const FunctionGame::Fn& fn) : fn_(fn) {}
  void Evaluate(Coalition s, std::span<double> out) override { fn_(s, out); }

 private:
  const FunctionGame::Fn& fn_;
};
}  // namespace

std::unique_ptr<GameWorker> FunctionGame::MakeWorker() const { return std::make_unique<FunctionWorker>(fn_); }

namespace {
class DividendWorker final : public GameWorker {
 public:
  explicit DividendWorker(const DividendGame& g) : g_(g) {}
  void Evaluate(Coalition s, std::span<double> out) override {
    const std::uint64_t words[1] = {s};
    EvaluateWide(WideCoalition{words}, out);
  }
  void EvaluateWide(WideCoalition s, std::span<double> out) override {
    const int n = g_.n_players();
    in_.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) in_[static_cast<std::size_t>(i)] = s.contains(i) ? 1 : 0;
    out[0] = g_.Value(in_);
  }

 private:
  const DividendGame& g_;
  std::vector<std::uint8_t> in_;
};
}  // namespace

DividendGame DividendGame::Random(int n, unsigned seed) {
  RandomStream rng(seed, 77);
  std::vector<Term> terms;
  for (int t = 0; t < 3 * n; ++t) {
    Term term;
    const int size = 1 + static_cast<int>(rng.Below(4));
    while (static_cast<int>(term.players.size()) < std::min(size, n)) {
      const int i = static_cast<int>(rng.Below(static_cast<std::uint64_t>(n)));
      if (std::find(term.players.begin(), term.players.end(), i) == term.players.end()) term.players.push_back(i);
    }
    term.d = 2.0 * rng.Normal();
    terms.push_back(std::move(term));
  }
  return DividendGame(n, std::move(terms));
}

std::unique_ptr<GameWorker> DividendGame::MakeWorker() const { return std::make_unique<DividendWorker>(*this); }

double DividendGame::Value(std::span<const std::uint8_t> in) const {
  double v = 0.0;
  for (const Term& t : terms_) {
    bool all = true;
    for (int i : t.players) all = all && in[static_cast<std::size_t>(i)] != 0;
    if (all) v += t.d;
  }
  return v;
}

std::vector<double> DividendGame::Shapley() const {
  std::vector<double> phi(static_cast<std::size_t>(n_), 0.0);
  for (const Term& t : terms_)
    for (int i : t.players) phi[static_cast<std::size_t>(i)] += t.d / static_cast<double>(t.players.size());
  return phi;
}

FunctionGame UnanimityGame(int n, Coalition t) {
  return FunctionGame(n, 1, [t](Coalition s, std::span<double> out) { out[0] = (s & t) == t ? 1.0 : 0.0; });
}

FunctionGame WeightedMajorityGame(std::vector<double> weights, double quota) {
  const int n = static_cast<int>(weights.size());
  return FunctionGame(n, 1, [weights, quota, n](Coalition s, std::span<double> out) {
    double total = 0;
    for (int i = 0; i < n; ++i)
      if (Contains(s, i)) total += weights[static_cast<std::size_t>(i)];
    out[0] = total >= quota ? 1.0 : 0.0;
  });
}

FunctionGame AdditiveGame(std::vector<double> a) {
  const int n = static_cast<int>(a.size());
  return FunctionGame(n, 1, [a, n](Coalition s, std::span<double> out) {
    double total = 0;
    for (int i = 0; i < n; ++i)
      if (Contains(s, i)) total += a[static_cast<std::size_t>(i)];
    out[0] = total;
  });
}

FunctionGame MixedVectorGame(int n, std::size_t k, unsigned salt) {
  return FunctionGame(n, k, [n, k, salt](Coalition s, std::span<double> out) {
    const double size = CoalitionSize(s);
    for (std::size_t j = 0; j < k; ++j) {
      double v = std::sin(0.37 * static_cast<double>(s % 97) + static_cast<double>(j + salt)) * 0.1;
      for (int i = 0; i < n; ++i)
        if (Contains(s, i)) v += std::cos(static_cast<double>(i * 3 + j + salt)) * (1.0 + 0.1 * static_cast<double>(i));
      if (Contains(s, 0) && Contains(s, n - 1)) v += 0.5 * static_cast<double>(j + 1);
      out[j] = v * v / (1.0 + size);
    }
  });
}

FunctionGame LinearCombination(const Game& g1, double a, const Game& g2, double b) {
  if (g1.n_players() != g2.n_players() || g1.n_outputs() != g2.n_outputs())
    throw std::invalid_argument("LinearCombination: games differ in shape");
  const std::size_t k = g1.n_outputs();
  return FunctionGame(g1.n_players(), k, [&g1, &g2, a, b, k](Coalition s, std::span<double> out) {
    auto v1 = EvaluateCoalition(g1, s);
    auto v2 = EvaluateCoalition(g2, s);
    for (std::size_t j = 0; j < k; ++j) out[j] = a * v1[j] + b * v2[j];
  });
}

std::vector<double> BruteForcePermutationShapley(const Game& game) {
  const int n = game.n_players();
  if (n > 9) throw std::invalid_argument("brute force: n <= 9");
  const std::size_t k = game.n_outputs();
  std::vector<int> perm(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  std::vector<double> phi(static_cast<std::size_t>(n) * k, 0.0);
  auto worker = game.MakeWorker();
  std::vector<double> before(k), after(k);
  double count = 0;
  do {
    Coalition s = 0;
    worker->Reset();
    worker->Evaluate(s, before);
    for (int p : perm) {
      s |= Coalition{1} << p;
      worker->Reset();
      worker->Evaluate(s, after);
      for (std::size_t j = 0; j < k; ++j) phi[static_cast<std::size_t>(p) * k + j] += after[j] - before[j];
      before = after;
    }
    count += 1;
  } while (std::next_permutation(perm.begin(), perm.end()));
  for (double& x : phi) x /= count;
  return phi;
}

}}}  // namespace perfshap::testing
