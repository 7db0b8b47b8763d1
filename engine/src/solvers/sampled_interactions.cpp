// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Sampled pairwise interactions. Both indices are expectations of the pair's second difference
// D_ij(S) = v(S + i + j) - v(S + i) - v(S + j) + v(S) over the coalitions S of the n - 2 others:
//   SII(i, j)  = sum_S |S|! (n - |S| - 2)! / (n - 1)! D_ij(S): the C(n - 2, s) coalitions of size
//                s weigh 1 / (n - 1) together, so |S| is uniform on 0..n - 2 and S uniform
//                among those of its size;
//   STII(i, j) = 2 / n sum_S D_ij(S) / C(n - 1, |S|): size s weighs
//                2 C(n - 2, s) / (n C(n - 1, s)) = 2 (n - 1 - s) / (n (n - 1)), which sums to 1.
// So the mean of D_ij over draws of S from those weights is unbiased, and its standard error the
// draws' standard deviation over sqrt(draws). Each pair draws from its own counter-based stream
// (seed, pair), rounds of draws run over the schedule one pair per block, and the pairs' sums
// are kept in draw order: the result does not depend on the threads.
#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "perfshap/blocks/interactions.hpp"
#include "perfshap/blocks/random.hpp"
#include "perfshap/error.hpp"
#include "schedule/schedule.hpp"
#include "solvers/sampling.hpp"

namespace perfshap { inline namespace v0 {
namespace {

/** Running mean and sum of squared deviations of one pair's second differences (Welford). */
struct Moments {
  std::uint64_t count = 0;
  double mean = 0.0;
  double m2 = 0.0;
  void Add(double x) {
    ++count;
    const double delta = x - mean;
    mean += delta / static_cast<double>(count);
    m2 += delta * (x - mean);
  }
  /** Standard error of the mean, scaled by t_{count - 1, 0.975} / z_{0.975} (as the kernel
   *  solver's) so that the estimate +- 1.96 se is a 95% interval for count - 1 degrees of freedom. */
  double se() const {
    if (count < 2) return 0.0;
    const double d = static_cast<double>(count - 1);
    return std::sqrt(m2 / d / static_cast<double>(count)) * detail::StudentT975(d) / 1.959963984540054;
  }
};

/** What a thread holds while it draws: the game's worker, the others' indices, four values. */
struct DrawScratch {
  std::unique_ptr<GameWorker> worker;
  std::vector<int> others;
  std::vector<double> values;
};

// The cumulative size weights of the index over the sizes 0..n - 2 of the others' coalition.
std::vector<double> SizeCdf(std::size_t n, InteractionIndex index) {
  std::vector<double> size_cdf(n - 1);
  double total = 0.0;
  for (std::size_t s = 0; s + 1 < n; ++s) {
    total += index == InteractionIndex::kShapley ? 1.0 : static_cast<double>(n - 1 - s);
    size_cdf[s] = total;
  }
  for (double& c : size_cdf) c /= total;
  return size_cdf;
}

/** Every pair's second differences, drawn a round at a time until the rule or the budget. */
struct PairDraws {
  std::vector<Moments> stats;  // pair-major, k outputs each
  std::uint64_t n_evaluations = 0;
  bool converged = false;
};

// One round of `round` draws for pair p: a size from the index's weights, then that many of the
// others (the first `size` of a partial Fisher-Yates shuffle), and the four values of D_ij.
void DrawRound(std::size_t p, std::pair<int, int> pair, int n, std::size_t k, std::uint64_t round,
               std::span<const double> size_cdf, RandomStream& rng, DrawScratch& s, std::span<Moments> stats) {
  const auto [i, j] = pair;
  s.others.clear();
  for (int m = 0; m < n; ++m)
    if (m != i && m != j) s.others.push_back(m);
  const Coalition bi = Coalition{1} << i;
  const Coalition bj = Coalition{1} << j;
  for (std::uint64_t d = 0; d < round; ++d) {
    const double u = rng.Uniform();
    const auto size = static_cast<std::size_t>(std::upper_bound(size_cdf.begin(), size_cdf.end() - 1, u) -
                                               size_cdf.begin());
    Coalition c = 0;
    for (std::size_t m = 0; m < size; ++m) {
      const std::size_t pick = m + rng.Below(s.others.size() - m);
      std::swap(s.others[m], s.others[pick]);
      c |= Coalition{1} << s.others[m];
    }
    std::span<double> v(s.values);
    s.worker->Evaluate(c | bi | bj, v.subspan(0, k));
    s.worker->Evaluate(c | bi, v.subspan(k, k));
    s.worker->Evaluate(c | bj, v.subspan(2 * k, k));
    s.worker->Evaluate(c, v.subspan(3 * k, k));
    for (std::size_t o = 0; o < k; ++o) stats[p * k + o].Add(v[o] - v[k + o] - v[2 * k + o] + v[3 * k + o]);
  }
}

PairDraws DrawPairs(const Game& game, const std::vector<std::pair<int, int>>& pairs, std::span<const double> size_cdf,
                    std::uint64_t max_draws, const SolverOptions& options) {
  const int n = game.n_players();
  const std::size_t k = game.n_outputs();
  const std::uint64_t per_draw = 4 * pairs.size();
  std::vector<RandomStream> streams;
  for (std::size_t p = 0; p < pairs.size(); ++p) streams.emplace_back(options.seed, options.first_game * 1000003 + p);
  PairDraws out;
  out.stats.resize(pairs.size() * k);
  detail::Schedule schedule(options.execution);
  std::uint64_t drawn = 0;
  while (drawn < max_draws) {
    const std::uint64_t round = std::min(kInteractionDrawsPerRound, max_draws - drawn);
    schedule.ForEachBlock<DrawScratch>(
        pairs.size(), 4 * round,
        [&] {
          auto s = std::make_unique<DrawScratch>();
          s->worker = game.MakeWorker();
          s->values.resize(4 * k);
          return s;
        },
        [&](std::size_t p, DrawScratch& s) { DrawRound(p, pairs[p], n, k, round, size_cdf, streams[p], s, out.stats); });
    drawn += round;
    out.n_evaluations += round * per_draw;
    // The value solvers' rule on output 0: max se / range of the estimates.
    double lo = out.stats[0].mean;
    double hi = lo;
    double se = 0.0;
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      const Moments& w = out.stats[p * k];
      lo = std::min(lo, w.mean);
      hi = std::max(hi, w.mean);
      se = std::max(se, w.se());
    }
    if (drawn >= 2 && (se == 0.0 || (hi > lo && se / (hi - lo) < options.tolerance))) {
      out.converged = true;
      break;
    }
  }
  return out;
}

// v({}) and v(N), and the diagonal: the Shapley index's is phi_i less the row's pairs (phi from
// the permutation solver, its variance added to the pairs'); Shapley-Taylor's is v({i}) - v({}).
void FillDiagonal(const Game& game, InteractionIndex index, const SolverOptions& options, InteractionValues& out) {
  const int n = game.n_players();
  const auto N = static_cast<std::size_t>(n);
  const std::size_t k = game.n_outputs();
  auto worker = game.MakeWorker();
  out.base.assign(k, 0.0);
  out.full.assign(k, 0.0);
  worker->Evaluate(0, out.base);
  worker->Evaluate(n == 64 ? ~Coalition{0} : (Coalition{1} << n) - 1, out.full);
  std::vector<double> single(k);
  ShapleyValues phi;
  if (index == InteractionIndex::kShapley) {
    SolverOptions po = options;
    po.keep_samples = false;
    phi = MakeSolver("permutation", po)->Solve(game);
    out.n_evaluations += phi.n_evaluations;
  }
  for (std::size_t i = 0; i < N; ++i) {
    if (index == InteractionIndex::kShapleyTaylor) worker->Evaluate(Coalition{1} << i, single);
    for (std::size_t o = 0; o < k; ++o) {
      double& d = out.values[(i * N + i) * k + o];
      if (index == InteractionIndex::kShapleyTaylor) {
        d = single[o] - out.base[o];
        continue;
      }
      double rest = 0.0;
      double var = phi.phi_se.empty() ? 0.0 : std::pow(phi.phi_se[i * k + o], 2);
      for (std::size_t j = 0; j < N; ++j)
        if (j != i) {
          rest += out.values[(i * N + j) * k + o];
          var += std::pow(out.se[(i * N + j) * k + o], 2);
        }
      d = phi.phi[i * k + o] - rest;
      out.se[(i * N + i) * k + o] = std::sqrt(var);
    }
  }
}

}  // namespace

InteractionValues SampledInteractions(const Game& game, InteractionIndex index,
                                      const SolverOptions& options) {
  const int n = game.n_players();
  const std::size_t k = game.n_outputs();
  PERFSHAP_CHECK(n >= 2 && n <= 64,
                 "sampled interactions take games of 2 to 64 players; the game has " + std::to_string(n) +
                     ": explain fewer features, group them, or (shap) ask only for a few features' interactions "
                     "with every other",
                 {"interactions", "features", "groups", "interaction_features"});
  const auto N = static_cast<std::size_t>(n);
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) pairs.emplace_back(i, j);
  const std::uint64_t per_draw = 4 * pairs.size();
  const std::uint64_t budget = options.budget > 0 ? options.budget : 200 * per_draw;
  const std::uint64_t max_draws = budget / per_draw;
  if (max_draws < 2)
    throw InvalidArgument("a budget of " + std::to_string(budget) + " evaluations gives the " +
                              std::to_string(pairs.size()) +
                              " pairs fewer than 2 draws each (4 evaluations a draw); "
                              "raise it to at least " +
                              std::to_string(2 * per_draw),
                          {"budget"});
  const std::vector<double> size_cdf = SizeCdf(N, index);
  const PairDraws draws = DrawPairs(game, pairs, size_cdf, max_draws, options);

  InteractionValues out;
  out.index = index;
  out.n_players = n;
  out.n_outputs = k;
  out.players = game.player_names();
  out.converged = draws.converged;
  out.n_evaluations = draws.n_evaluations;
  out.values.assign(N * N * k, 0.0);
  out.se.assign(N * N * k, 0.0);
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    const auto i = static_cast<std::size_t>(pairs[p].first);
    const auto j = static_cast<std::size_t>(pairs[p].second);
    for (std::size_t o = 0; o < k; ++o) {
      const Moments& w = draws.stats[p * k + o];
      for (const auto& [a, b] : {std::pair{i, j}, std::pair{j, i}}) {
        out.values[(a * N + b) * k + o] = 0.5 * w.mean;
        out.se[(a * N + b) * k + o] = 0.5 * w.se();
      }
    }
  }
  FillDiagonal(game, index, options, out);
  return out;
}

}}  // namespace perfshap
