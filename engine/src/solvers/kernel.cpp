// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// "kernel": Shapley values as the solution of KernelSHAP's weighted least squares, with
//   - complete size layers first: the coalitions of size s and n - s are all evaluated while the
//     two layers fit the budget, smallest sizes first (as shap's KernelExplainer);
//   - the other layers sampled by size, paired (a coalition and its complement) and without
//     replacement within a layer, the same number of pairs from every sampled layer pair (the
//     leverage scores of the Shapley regression are equal across sizes, Musco & Witter 2025;
//     stratifying by size removes the variance of the layer counts): a cycle is one pair from
//     each, and a sampled coalition of layer s weighs M_s / m_s, where M_s = (n - 1) / (s (n - s))
//     is the layer's kernel mass and m_s its number of samples, so every layer keeps its mass;
//   - the constrained solution phi = argmin sum_S w_S (v(S) - v(empty) - sum_{i in S} phi_i)^2
//     subject to sum_i phi_i = v(N) - v(empty) (Eigen LDLT of the n x n normal matrix and its
//     bordering);
//   - standard errors by the jackknife over B independent batches of cycles (cycle t goes to
//     batch t mod B): the estimate from every batch but b, phi_(-b), for each b, and
//     se^2 = (B - 1) / B sum_b (phi_(-b) - mean)^2 (for an estimate linear in the batches, the
//     variance of the batches' mean; for the least-squares ratio it follows the pooled estimate,
//     where one batch alone may not determine it), scaled by t_{B-1, 0.975} / z_{0.975} so that
//     phi +- 1.96 se is a 95% interval for B - 1 degrees of freedom. The coverage test checks
//     this. With every layer complete the values are exact and se is 0.
// Rounds of cycles run until the convergence rule holds or the budget is spent. Each batch is one
// block of a round, accumulated in its cycle order, so results do not depend on the threads.
// The least-squares solves are in kernel_least_squares.cpp, the control variate of output 0 in
// kernel_control_variate.cpp (their shared pieces in kernel_internal.hpp).
#include <math.h>  // lgamma_r

#include <Eigen/Dense>
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "perfshap/blocks/random.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/error.hpp"
#include "solvers/kernel_internal.hpp"
#include "solvers/sampling.hpp"

namespace perfshap { inline namespace v0 {
namespace detail {
namespace {

using kernel::BatchSamples;
using kernel::ControlVariate;
using kernel::ControlVariateInput;
using kernel::ExpectedPairsAlpha;
using kernel::ImplicitNormal;
using kernel::LayerPair;
using kernel::Matrix;
using kernel::MembersOf;
using kernel::NormalSums;
using kernel::PairSums;
using kernel::SolveConstrained;
using kernel::SolveConstrainedImplicit;

// ln Gamma(x) without the global sign std::lgamma writes (POSIX signgam: a data race when two
// games are solved at once; ThreadSanitizer reports it).
double LogGamma(double x) {
  int sign = 0;
  return ::lgamma_r(x, &sign);
}

// ln C(n, s), for comparing layer sizes with the budget at any n.
double LogBinomial(int n, int s) { return LogGamma(n + 1.0) - LogGamma(s + 1.0) - LogGamma(n - s + 1.0); }

// Above this many players the normal matrix is never formed: forming it costs O(|S|^2) a sample
// and solving it O(n^3), where its products with a vector cost O(|S|) a sample
// (ImplicitNormal) and a conjugate-gradient solve preconditioned by its expectation, which is
// alpha I + beta 1 1^T, takes a few of them. The estimator is the same: the constrained least
// squares of the very same samples, to the solve's tolerance.
constexpr int kImplicitNormalPlayers = 128;

struct KernelScratch {
  std::unique_ptr<GameWorker> worker;
  const Game* game = nullptr;
  std::vector<double> value;
  std::vector<int> members;
  CoalitionBatch many;  // a batched game's coalitions (KernelGame::batch)
};

class KernelSolver final : public Solver {
 public:
  explicit KernelSolver(SolverOptions options, int implicit_above = kImplicitNormalPlayers)
      : options_(std::move(options)), implicit_above_(implicit_above) {}
  const std::string& name() const noexcept override {
    static const std::string kName = "kernel";
    return kName;
  }
  void SolveBatch(std::span<const Game* const> games, const GameSink& sink) const override {
    PERFSHAP_CHECK(!games.empty(), "KernelSolver: no games to solve");
    const int n = games[0]->n_players();
    CheckSampledOptions(options_, "kernel", n, static_cast<std::uint64_t>(n) + 2);
    SolveSampledBatch(
        games, sink, options_, [] { return std::make_shared<KernelScratch>(); },
        [&](std::size_t g, const Game& game, const RoundLoop& loop, Schedule& schedule) {
          return SolveGame(g, game, loop, schedule);
        });
  }

 private:
  ShapleyValues SolveGame(std::size_t g, const Game& game, const RoundLoop& loop, Schedule& schedule) const;
  SolverOptions options_;
  int implicit_above_;
};

// Batches of cycles: as many as 64 MB of normal matrices allow (past kImplicitNormalPlayers, 8
// at most: no matrices), at most 64, and past 64 cycles an eighth of the cycles the budget
// leaves: a batch's estimate from fewer cycles leans on the complete layers and spreads less
// than it should (the standard error then falls short, by about 15% at two cycles a batch);
// below, half of the cycles up to 8 batches (never fewer batches for more cycles: a standard
// error from 2 batches' spread is far worse than one 15% short), and one batch when only one
// cycle is affordable (no standard error then).
int BatchCount(int n, double cycles_affordable, bool implicit) {
  const double per = static_cast<double>(n) * static_cast<double>(n);
  const double by_budget = cycles_affordable >= 16.0  ? std::max(8.0, std::floor(cycles_affordable / 8.0))
                           : cycles_affordable >= 2.0 ? std::max(2.0, std::floor(cycles_affordable / 2.0))
                                                      : 1.0;
  // Past kImplicitNormalPlayers no batch holds a matrix, and each leave-one-out estimate is a
  // solve over every sample: 8 batches at most.
  if (implicit) return static_cast<int>(std::clamp(by_budget, 1.0, 8.0));
  return static_cast<int>(std::clamp(std::min(8.0e6 / per, by_budget), 1.0, 64.0));
}

// Binds the thread's worker to `game`.
void Bind(KernelScratch& s, const Game& game, int n) {
  if (!s.worker || s.game != &game) {
    s.worker = s.worker ? game.MakeWorkerFrom(std::move(s.worker)) : game.MakeWorker();
    s.game = &game;
  }
  s.value.resize(game.n_outputs());
  s.members.reserve(static_cast<std::size_t>(n));
}

// The largest game whose output 0 gets the control variate.
constexpr int kMaxControlPlayers = 128;

// The smallest budget, in evaluations a player, that gets the control variate: its trees are
// fitted on the complete layers and one half of the samples and evaluated on the other half, and
// with fewer they fit noise. On the Leverage SHAP protocol (Adult, 12 players, 100 runs,
// bench/leverage_shap_adult.py) it raised the median error at 8 evaluations a player (2.9e-3
// against 1.7e-3 without) and 12 (1.8e-3 / 1.2e-3), was even at 16 (6.2e-4 / 6.0e-4) and
// divided it by 2 at 24 and by 3 at 32.
constexpr double kControlEvaluationsPerPlayer = 16.0;

// Eigen's dense values as bytes, for an MPI run's exchange of a round's blocks (the matrix or
// vector read into already has the written shape).
void PutMatrix(ByteWriter& out, const Matrix& m) {
  out.PutSpan(std::span<const double>(m.data(), static_cast<std::size_t>(m.size())));
}
void GetMatrix(ByteReader& in, Matrix& m) {
  in.GetInto(std::span<double>(m.data(), static_cast<std::size_t>(m.size())));
}
void PutVectorXd(ByteWriter& out, const Eigen::VectorXd& v) {
  out.PutSpan(std::span<const double>(v.data(), static_cast<std::size_t>(v.size())));
}
void GetVectorXd(ByteReader& in, Eigen::VectorXd& v) {
  in.GetInto(std::span<double>(v.data(), static_cast<std::size_t>(v.size())));
}

// With keep_samples: each block's coalitions and values, appended in block order (without it,
// nothing is logged).
struct SampleLogs {
  bool keep = false;
  std::vector<SampleLog> logs;

  // Starts the logs of 64 blocks with the two ends v(empty) and v(N), appended to out.
  void Begin(bool keep_samples, int n, ShapleyValues& out) {
    keep = keep_samples;
    if (!keep) return;
    logs.resize(64);
    std::vector<std::uint64_t> words(CoalitionWords(n), 0);
    logs[0].Add(words, out.base);
    for (int i = 0; i < n; ++i) words[static_cast<std::size_t>(i) / 64] |= std::uint64_t{1} << (i % 64);
    logs[0].Add(words, out.full);
    AppendTo(1, out);
  }
  // Block b's log, cleared (nullptr without keep_samples).
  SampleLog* Of(std::size_t b) {
    if (!keep) return nullptr;
    logs[b].Clear();
    return &logs[b];
  }
  // Appends the first n_blocks blocks' logs to out, in block order.
  void AppendTo(std::size_t n_blocks, ShapleyValues& out) const {
    if (keep)
      for (std::size_t b = 0; b < n_blocks; ++b) logs[b].AppendTo(out);
  }
  // Block b's log as bytes (an MPI run's exchange), and back.
  void Write(std::size_t b, ByteWriter& w) const {
    if (keep) logs[b].Write(w);
  }
  void Read(std::size_t b, ByteReader& r) {
    if (keep) logs[b].Read(r);
  }
};

// One game's solve: the game, how its rounds of blocks run, its sizes and the blocks' logs.
struct KernelGame {
  const Game& game;
  const RoundLoop& loop;
  Schedule& schedule;
  int n;
  std::size_t k;
  std::size_t nw;
  bool implicit;                   // the normal matrix left implicit (ImplicitNormal)
  const std::vector<double>& base;  // v(empty)
  SampleLogs& logs;
  std::uint64_t batch;  // coalitions per EvaluateMany (BlockHint::batch_coalitions); 1: one by one
};

// The layers, smallest sizes first, each complete while it costs no more than twice its share
// of what is `left` of the budget by the kernel's mass over the layers not yet complete (shap's
// KernelExplainer completes a layer at once its share): a layer is enumerated where its share of
// the samples would draw at least half of it without replacement anyway (whose spread the
// standard errors would overstate), so a small budget is not spent on the next-to-outer layers.
std::vector<LayerPair> PlanLayers(int n, double left) {
  std::vector<LayerPair> layers;
  double mass_left = 0.0;
  for (int s = 1; 2 * s <= n; ++s) {
    LayerPair p;
    p.s = s;
    p.middle = 2 * s == n;
    p.mass_small = static_cast<double>(n - 1) / (static_cast<double>(s) * (n - s));
    p.mass_large = p.mass_small;
    mass_left += p.middle ? p.mass_small : 2.0 * p.mass_small;
    layers.push_back(p);
  }
  for (LayerPair& p : layers) {
    const double mass = p.middle ? p.mass_small : 2.0 * p.mass_small;
    const double size = std::exp(LogBinomial(n, p.s)) * (p.middle ? 1.0 : 2.0);
    if (size > left || size > 2.0 * left * mass / mass_left * (1.0 + 1e-12)) break;
    p.complete = true;
    left -= size;
    mass_left -= mass;
  }
  return layers;
}

// The complete layers: their coalitions in evaluation order and weights, their v(S) - v(empty)
// of output 0 (the control variate's), their normal equations and (implicit) their normal
// matrix alpha_c I + beta_c 1 1^T.
struct CompleteLayers {
  NormalSums normal;
  std::vector<std::vector<std::uint64_t>> list;
  std::vector<double> weights;
  std::vector<double> y;
  double alpha_c = 0.0;
  double beta_c = 0.0;
};

// Lists every coalition of size s (and its complement) of the complete layers, in lexicographic
// order, weighted M_s / C(n, s).
void ListCompleteLayers(std::span<const LayerPair> layers, int n, std::size_t nw, CompleteLayers& complete) {
  std::vector<std::vector<std::uint64_t>>& list = complete.list;
  std::vector<double>& weights = complete.weights;
  for (const LayerPair& p : layers) {
    if (!p.complete) continue;
    const double count = std::exp(LogBinomial(n, p.s));
    const double w = p.mass_small / std::round(count);
    std::vector<int> idx(static_cast<std::size_t>(p.s));
    for (int t = 0; t < p.s; ++t) idx[static_cast<std::size_t>(t)] = t;
    // The layer of size s in lexicographic order, then its complements in the same order:
    // consecutive coalitions share most of their players, so retraining games warm-start.
    const std::size_t first = list.size();
    for (;;) {
      std::vector<std::uint64_t> words(nw, 0);
      for (int i : idx) words[static_cast<std::size_t>(i) / 64] |= std::uint64_t{1} << (i % 64);
      list.push_back(words);
      weights.push_back(w);
      int t = p.s - 1;
      while (t >= 0 && idx[static_cast<std::size_t>(t)] == n - p.s + t) --t;
      if (t < 0) break;
      ++idx[static_cast<std::size_t>(t)];
      for (int u = t + 1; u < p.s; ++u)
        idx[static_cast<std::size_t>(u)] = idx[static_cast<std::size_t>(u - 1)] + 1;
    }
    if (!p.middle) {
      const std::size_t last = list.size();
      for (std::size_t c = first; c < last; ++c) {
        std::vector<std::uint64_t> words = list[c];
        for (std::size_t t = 0; t < nw; ++t) words[t] = ~words[t];
        if (n % 64 != 0) words[nw - 1] &= (std::uint64_t{1} << (n % 64)) - 1;
        list.push_back(std::move(words));
        weights.push_back(w);
      }
    }
  }
}

// Evaluates the complete layers' coalitions, cut into blocks of whole coalitions: their values
// of output 0 and normal equations, reduced in block order; the blocks' logs appended to out.
void EvaluateCompleteLayers(const KernelGame& run, CompleteLayers& complete, ShapleyValues& out) {
  const int n = run.n;
  const std::size_t k = run.k;
  const bool implicit = run.implicit;
  const std::vector<std::vector<std::uint64_t>>& list = complete.list;
  std::vector<double>& complete_y = complete.y;
  const std::size_t n_blocks = std::min<std::size_t>(16, std::max<std::size_t>(1, list.size() / 256));
  std::vector<NormalSums> partial(n_blocks);
  complete_y.assign(list.size(), 0.0);
  run.loop(n_blocks, 0,
           [&](std::size_t b, void* raw) {
             auto& s = *static_cast<KernelScratch*>(raw);
             Bind(s, run.game, n);
             s.worker->Reset();
             partial[b].Reset(n, k, implicit);
             SampleLog* log = run.logs.Of(b);
             const std::size_t first = list.size() * b / n_blocks;
             const std::size_t last = list.size() * (b + 1) / n_blocks;
             for (std::size_t c = first; c < last; ++c) {
               // A batched game: the next `batch` coalitions in one model call.
               if (run.batch > 1 && (c - first) % run.batch == 0) {
                 s.many.Clear(run.nw, k);
                 for (std::size_t d = c; d < std::min<std::size_t>(last, c + run.batch); ++d)
                   s.many.Add(list[d]);
                 s.many.Evaluate(*s.worker);
               }
               if (run.batch > 1) {
                 const std::span<const double> v = s.many.values((c - first) % run.batch);
                 std::copy(v.begin(), v.end(), s.value.begin());
               } else {
                 EvaluateWords(*s.worker, n, list[c], s.value);
               }
               if (log != nullptr) log->Add(list[c], s.value);
               for (std::size_t j = 0; j < k; ++j) s.value[j] -= run.base[j];
               complete_y[c] = s.value[0];
               MembersOf(list[c], n, s.members);
               partial[b].Add(s.members, complete.weights[c], s.value.data(), k);
             }
             run.schedule.AddProgress(last - first);
           },
           {[&](std::size_t b, ByteWriter& w) {
              const std::size_t first = list.size() * b / n_blocks;
              const std::size_t last = list.size() * (b + 1) / n_blocks;
              PutMatrix(w, partial[b].g);
              PutMatrix(w, partial[b].r);
              w.PutSpan(std::span<const double>(complete_y).subspan(first, last - first));
              run.logs.Write(b, w);
            },
            [&](std::size_t b, ByteReader& r) {
              const std::size_t first = list.size() * b / n_blocks;
              const std::size_t last = list.size() * (b + 1) / n_blocks;
              partial[b].Reset(n, k, implicit);
              GetMatrix(r, partial[b].g);
              GetMatrix(r, partial[b].r);
              r.GetInto(std::span<double>(complete_y).subspan(first, last - first));
              run.logs.Read(b, r);
            }});
  for (const NormalSums& p : partial) {
    complete.normal.g += p.g;
    complete.normal.r += p.r;
  }
  run.logs.AppendTo(n_blocks, out);
}

// The complete layers' normal matrix without forming it: alpha_c I + beta_c 1 1^T (every
// coalition of a size: sum of a a^T over them is C(n, s) times its expectation).
void ImplicitCompleteNormal(int n, CompleteLayers& complete) {
  const double nd = n;
  for (std::size_t c = 0; c < complete.list.size(); ++c) {
    double t = 0.0;
    for (const std::uint64_t word : complete.list[c]) t += std::popcount(word);
    const double off = t * (t - 1.0) / (nd * (nd - 1.0));
    complete.alpha_c += complete.weights[c] * (t / nd - off);
    complete.beta_c += complete.weights[c] * off;
  }
}

// A round's coalitions, the smaller side of each pair: [cycle][batch][layer].
using RoundCoalitions = std::vector<std::vector<std::uint64_t>>;

// The sampled layers' rounds of one game: cycle t goes to batch t mod B, each batch a block of a
// round. Holds the batches' sums, the control variate's samples and the coalitions drawn so far.
struct SampledRounds {
  SampledRounds(const KernelGame& game_run, const CompleteLayers& complete_layers,
                std::span<const LayerPair* const> sampled_layers, std::span<const double> sums,
                RandomStream& random, std::uint64_t pairs_per_cycle, int batch_count, bool with_control)
      : run(game_run),
        complete(complete_layers),
        sampled(sampled_layers),
        delta(sums),
        rng(random),
        per_cycle(pairs_per_cycle),
        batches(batch_count),
        control(with_control),
        batch(static_cast<std::size_t>(batch_count)),
        batch_cycles(static_cast<std::size_t>(batch_count), 0) {
    for (PairSums& b : batch) b.Reset(run.n, run.k, run.implicit);
    alpha_e = run.implicit ? ExpectedPairsAlpha(run.n, sampled) : 0.0;
    kept.resize(control ? static_cast<std::size_t>(batches) : 0);
    drawn.resize(sampled.size());
    pool.resize(static_cast<std::size_t>(run.n));
    for (int i = 0; i < run.n; ++i) pool[static_cast<std::size_t>(i)] = i;
  }

  void Draw(std::size_t layer, std::vector<std::uint64_t>& words);
  RoundCoalitions DrawRound(std::uint64_t round_cycles, std::size_t active);
  void EvaluateBatch(std::size_t b, KernelScratch& s, std::uint64_t round_cycles, std::size_t active,
                     const RoundCoalitions& coalitions);
  void PutBatch(std::size_t b, ByteWriter& w, std::span<const std::size_t> kept_at) const;
  void GetBatch(std::size_t b, ByteReader& r);
  void EvaluateRound(std::uint64_t round_cycles, std::size_t active, const RoundCoalitions& coalitions);
  void Solve(const PairSums& sums, std::ptrdiff_t skip, double count, std::span<double> phi) const;
  void Estimate(double t_over_z, std::vector<double>& estimate, std::vector<std::vector<double>>& batch_phi,
                std::span<double> phi_se) const;
  void ApplyControlVariate(double t_over_z, std::vector<double>& estimate, std::span<double> phi_se) const;
  void Run(const StopRule& rule, ProgressForecast& forecast, std::uint64_t& used, ShapleyValues& out);

  const KernelGame& run;
  const CompleteLayers& complete;
  std::span<const LayerPair* const> sampled;
  std::span<const double> delta;  // v(N) - v(empty), per output
  RandomStream& rng;
  std::uint64_t per_cycle;  // evaluations a cycle
  int batches;
  bool control;  // the control variate of output 0
  double alpha_e = 0.0;
  std::vector<PairSums> batch;
  std::vector<std::uint64_t> batch_cycles;               // each batch's cycles so far
  std::vector<BatchSamples> kept;                        // with control: each batch's samples
  std::vector<std::unordered_set<std::uint64_t>> drawn;  // per sampled layer: its draws' hashes
  std::vector<int> pool;                                 // the players, shuffled by the draws
};

// A coalition of size s, not drawn before in its layer (its words' hash stands for it).
void SampledRounds::Draw(std::size_t layer, std::vector<std::uint64_t>& words) {
  const int n = run.n;
  const int s = sampled[layer]->s;
  for (int attempt = 0;; ++attempt) {
    std::fill(words.begin(), words.end(), 0);
    for (int t = 0; t < s; ++t) {
      const std::size_t pick = static_cast<std::size_t>(t) + rng.Below(static_cast<std::uint64_t>(n - t));
      std::swap(pool[static_cast<std::size_t>(t)], pool[pick]);
      const int i = pool[static_cast<std::size_t>(t)];
      words[static_cast<std::size_t>(i) / 64] |= std::uint64_t{1} << (i % 64);
    }
    std::uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (std::uint64_t w : words) h = (h ^ w) * 0xBF58476D1CE4E5B9ULL + (h >> 29);
    if (drawn[layer].insert(h).second || attempt >= 64) return;  // a full layer repeats
  }
}

// Draws the round's coalitions in order (sequential: the without-replacement sets), for its
// first `active` batches (all but in a last round that the budget cuts short).
RoundCoalitions SampledRounds::DrawRound(std::uint64_t round_cycles, std::size_t active) {
  RoundCoalitions coalitions;
  coalitions.reserve(static_cast<std::size_t>(active * round_cycles * sampled.size()));
  std::vector<std::uint64_t> words(run.nw);
  for (std::uint64_t c = 0; c < round_cycles; ++c)
    for (std::size_t b = 0; b < active; ++b)
      for (std::size_t l = 0; l < sampled.size(); ++l) {
        Draw(l, words);
        coalitions.push_back(words);
      }
  return coalitions;
}

// Batch b's pairs of the round (block b on the thread with scratch s): both sides evaluated,
// logged, kept for the control variate, and added to the batch's sums.
void SampledRounds::EvaluateBatch(std::size_t b, KernelScratch& s, std::uint64_t round_cycles,
                                  std::size_t active, const RoundCoalitions& coalitions) {
  const int n = run.n;
  const std::size_t k = run.k;
  const std::size_t nw = run.nw;
  Bind(s, run.game, n);
  s.worker->Reset();
  std::vector<std::uint64_t> other(nw);
  std::vector<double> y_small(k);
  SampleLog* log = run.logs.Of(b);
  const auto complement = [&](const std::vector<std::uint64_t>& small) {
    for (std::size_t t = 0; t < nw; ++t) other[t] = ~small[t];
    if (n % 64 != 0) other[nw - 1] &= (std::uint64_t{1} << (n % 64)) - 1;
  };
  const std::size_t L = sampled.size();
  const std::size_t pairs_per_call = std::max<std::size_t>(1, run.batch / 2);
  for (std::size_t i = 0; i < round_cycles * L; ++i) {
    const std::size_t c = i / L, l = i % L;
    // A batched game: the next pairs' coalitions (small, complement) in one model call.
    if (run.batch > 1 && i % pairs_per_call == 0) {
      s.many.Clear(nw, k);
      for (std::size_t d = i; d < std::min(round_cycles * L, i + pairs_per_call); ++d) {
        const auto& small = coalitions[((d / L) * active + b) * L + d % L];
        complement(small);
        s.many.Add(small);
        s.many.Add(other);
      }
      s.many.Evaluate(*s.worker);
    }
    const auto& small = coalitions[(c * active + b) * L + l];
    complement(small);
    if (run.batch > 1) {
      const std::size_t at = 2 * (i % pairs_per_call);
      std::copy_n(s.many.values(at).data(), k, y_small.data());
      std::copy_n(s.many.values(at + 1).data(), k, s.value.data());
    } else {
      // Cold fits: random coalitions are far apart, a warm start from one would not help.
      s.worker->Reset();
      EvaluateWords(*s.worker, n, small, y_small);
      s.worker->Reset();
      EvaluateWords(*s.worker, n, other, s.value);
    }
    if (log != nullptr) {
      log->Add(small, y_small);
      log->Add(other, s.value);
    }
    for (std::size_t j = 0; j < k; ++j) {
      y_small[j] -= run.base[j];
      s.value[j] -= run.base[j];
    }
    if (control) {
      BatchSamples& mine = kept[b];
      mine.words.insert(mine.words.end(), small.begin(), small.end());
      mine.y_small.push_back(y_small[0]);
      mine.y_large.push_back(s.value[0]);
      mine.layer.push_back(static_cast<std::uint32_t>(l));
    }
    MembersOf(small, n, s.members);
    // Weighted by the layer's mass, divided by the samples' count when solving (the middle
    // layer gets both coalitions of a pair: two samples a cycle, each half the mass).
    const LayerPair& layer = *sampled[l];
    batch[b].Add(s.members, layer.middle ? 0.5 * layer.mass_small : layer.mass_small, y_small.data(),
                 s.value.data(), k);
  }
  run.schedule.AddProgress(round_cycles * per_cycle);
}

// Batch b's results of the round as bytes (its control samples from kept_at[b] on: the new ones).
void SampledRounds::PutBatch(std::size_t b, ByteWriter& w, std::span<const std::size_t> kept_at) const {
  PutMatrix(w, batch[b].aa);
  PutVectorXd(w, batch[b].a);
  w.Put(batch[b].w);
  PutMatrix(w, batch[b].ry);
  PutVectorXd(w, batch[b].yc);
  if (run.implicit) {
    w.PutVector(batch[b].members);
    w.PutVector(batch[b].member_end);
    w.PutVector(batch[b].weights);
  }
  if (control) {
    const BatchSamples& mine = kept[b];
    const std::size_t at = kept_at[b];
    const std::size_t nw = run.nw;
    w.PutSpan(std::span<const std::uint64_t>(mine.words).subspan(at * nw));
    w.PutSpan(std::span<const double>(mine.y_small).subspan(at));
    w.PutSpan(std::span<const double>(mine.y_large).subspan(at));
    w.PutSpan(std::span<const std::uint32_t>(mine.layer).subspan(at));
  }
  run.logs.Write(b, w);
}

// Batch b's results of the round read from another process (PutBatch's bytes).
void SampledRounds::GetBatch(std::size_t b, ByteReader& r) {
  GetMatrix(r, batch[b].aa);
  GetVectorXd(r, batch[b].a);
  batch[b].w = r.Get<double>();
  GetMatrix(r, batch[b].ry);
  GetVectorXd(r, batch[b].yc);
  if (run.implicit) {
    batch[b].members = r.GetVector<int>();
    batch[b].member_end = r.GetVector<std::uint32_t>();
    batch[b].weights = r.GetVector<double>();
  }
  if (control) {
    BatchSamples& theirs = kept[b];
    for (const std::uint64_t v : r.GetVector<std::uint64_t>()) theirs.words.push_back(v);
    for (const double v : r.GetVector<double>()) theirs.y_small.push_back(v);
    for (const double v : r.GetVector<double>()) theirs.y_large.push_back(v);
    for (const std::uint32_t v : r.GetVector<std::uint32_t>()) theirs.layer.push_back(v);
  }
  run.logs.Read(b, r);
}

// Evaluates the round's coalitions, one block a batch.
void SampledRounds::EvaluateRound(std::uint64_t round_cycles, std::size_t active,
                                  const RoundCoalitions& coalitions) {
  // Over processes, a batch's new control samples of this round travel (what it kept before,
  // every process has).
  std::vector<std::size_t> kept_at(kept.size());
  for (std::size_t b = 0; b < kept.size(); ++b) kept_at[b] = kept[b].y_small.size();
  run.loop(active, 0,
           [&](std::size_t b, void* raw) {
             EvaluateBatch(b, *static_cast<KernelScratch*>(raw), round_cycles, active, coalitions);
           },
           {[&](std::size_t b, ByteWriter& w) { PutBatch(b, w, kept_at); },
            [&](std::size_t b, ByteReader& r) { GetBatch(b, r); }});
}

// The constrained least squares of the complete layers and the pairs summed in `sums` (every
// batch but `skip`), `count` pairs a layer.
void SampledRounds::Solve(const PairSums& sums, std::ptrdiff_t skip, double count, std::span<double> phi) const {
  const int n = run.n;
  const double alpha_c = complete.alpha_c;
  const double beta_c = complete.beta_c;
  Matrix gm, rm;
  sums.Expand(count, gm, rm);
  rm += complete.normal.r;
  if (!run.implicit) {
    gm += complete.normal.g;
    SolveConstrained(gm, rm, delta, phi);
    return;
  }
  const ImplicitNormal normal{n, alpha_c, beta_c, &batch, skip, &sums, count, 1e-12 * (alpha_c + alpha_e)};
  SolveConstrainedImplicit(normal, rm, delta, phi);
}

// The pooled estimate (complete layers + every batch's samples) into `estimate`, and its
// standard errors into phi_se by the jackknife over batches (batch b left out: batch_phi[b]).
void SampledRounds::Estimate(double t_over_z, std::vector<double>& estimate,
                             std::vector<std::vector<double>>& batch_phi, std::span<double> phi_se) const {
  const bool implicit = run.implicit;
  PairSums pooled;
  pooled.Reset(run.n, run.k, implicit);
  for (const PairSums& b : batch) b.AddTo(pooled);
  std::uint64_t cycles = 0;  // in all: the pairs of each sampled layer
  for (const std::uint64_t c : batch_cycles) cycles += c;
  Solve(pooled, -1, static_cast<double>(cycles), estimate);
  // Standard errors by the jackknife over batches: the estimate without batch b, for each b.
  // For an estimate linear in the batches this is the batches' own standard error of their
  // mean; the least-squares estimate is a ratio, and with few samples per player a batch alone
  // determines it poorly, where leaving one batch out does not.
  if (batches >= 2) {
    const auto leave_out = [&](std::size_t b) {
      PairSums rest;
      batch[b].Without(pooled, rest);
      if (implicit) batch_phi[b] = estimate;  // the iteration's start
      Solve(rest, static_cast<std::ptrdiff_t>(b), static_cast<double>(cycles - batch_cycles[b]),
            batch_phi[b]);
    };
    if (implicit) {
      // Solves over every sample each: one per block of the schedule (each alone in its
      // order, so the same at any thread count).
      run.schedule.ForEachBlock(static_cast<std::size_t>(batches), 0, leave_out);
    } else {
      for (std::size_t b = 0; b < static_cast<std::size_t>(batches); ++b) leave_out(b);
    }
  }
  for (std::size_t t = 0; t < estimate.size(); ++t) {
    double mean = 0.0;
    for (int b = 0; b < batches; ++b) mean += batch_phi[static_cast<std::size_t>(b)][t];
    mean /= batches;
    double ss = 0.0;
    for (int b = 0; b < batches; ++b) {
      const double d = batch_phi[static_cast<std::size_t>(b)][t] - mean;
      ss += d * d;
    }
    phi_se[t] = batches >= 2 ? std::sqrt(ss * (batches - 1) / batches) * t_over_z
                             : std::numeric_limits<double>::infinity();
  }
}

// Output 0's estimate and standard errors replaced by the control variate's.
void SampledRounds::ApplyControlVariate(double t_over_z, std::vector<double>& estimate,
                                        std::span<double> phi_se) const {
  const int n = run.n;
  const std::size_t k = run.k;
  ControlVariateInput cv;
  cv.n = n;
  cv.complete_words = &complete.list;
  cv.complete_w = &complete.weights;
  cv.complete_y = &complete.y;
  cv.complete_g = &complete.normal.g;
  cv.sampled = sampled;
  cv.kept = kept;
  cv.cycles = batch_cycles;
  cv.delta = delta[0];
  cv.t_over_z = t_over_z;
  std::vector<double> phi0(static_cast<std::size_t>(n)), se0(static_cast<std::size_t>(n));
  ControlVariate(cv, phi0, se0);
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
    estimate[i * k] = phi0[i];
    phi_se[i * k] = se0[i];
  }
}

// Rounds of cycles until the convergence rule holds or the budget is spent (`used` counts the
// evaluations, the complete layers' too): out.phi and out.phi_se before the projection onto
// efficiency, why the rounds stopped and the last convergence ratio.
void SampledRounds::Run(const StopRule& rule, ProgressForecast& forecast, std::uint64_t& used, ShapleyValues& out) {
  const std::uint64_t complete_used = used;
  std::uint64_t cycles = 0;  // per batch, in the rounds of every batch
  std::uint64_t planned = std::min(rule.budget(), used + 4 * static_cast<std::uint64_t>(batches) * per_cycle);
  std::vector<double> estimate(static_cast<std::size_t>(run.n) * run.k);
  const double t_over_z = batches >= 2 ? StudentT975(batches - 1.0) / 1.959963984540054 : 1.0;
  std::vector<std::vector<double>> batch_phi(static_cast<std::size_t>(batches), estimate);
  double ratio = std::numeric_limits<double>::infinity();
  std::optional<StopReason> stop;
  for (;;) {
    const std::uint64_t per_round = static_cast<std::uint64_t>(batches) * per_cycle;
    std::uint64_t round_cycles = used + per_round <= planned ? (planned - used) / per_round : 0;
    if (cycles == 0) round_cycles = std::max<std::uint64_t>(round_cycles, 1);
    auto active = static_cast<std::size_t>(batches);
    bool last = false;
    if (round_cycles == 0 || used + round_cycles * per_round > rule.budget()) {
      if (cycles == 0) {
        round_cycles = 1;  // the first cycle of every batch, whatever the budget left
      } else if (rule.budget() - used >= per_cycle) {
        // The budget's rest, less than a cycle of every batch: one more cycle of the first
        // batches it pays for (without it, up to batches - 1 cycles of the budget went unspent).
        round_cycles = 1;
        active = static_cast<std::size_t>((rule.budget() - used) / per_cycle);
        last = true;
      } else {
        break;
      }
    }
    const RoundCoalitions coalitions = DrawRound(round_cycles, active);
    EvaluateRound(round_cycles, active, coalitions);
    run.logs.AppendTo(active, out);
    for (std::size_t b = 0; b < active; ++b) batch_cycles[b] += round_cycles;
    cycles += round_cycles;
    used += round_cycles * per_cycle * active;

    Estimate(t_over_z, estimate, batch_phi, out.phi_se);
    if (control) ApplyControlVariate(t_over_z, estimate, out.phi_se);
    ratio = ConvergenceRatio(estimate, out.phi_se, run.n, run.k);
    stop = rule.Check(used, ratio);
    if (stop || last) break;
    // The forecast n (ratio / t)^2 assumes se ~ 1/sqrt(n); early on (few samples per player
    // pair) the regression's se falls faster, and a forecast from the first round can overshoot
    // many times: a round at most quadruples the evaluations.
    // The complete layers' evaluations carry no sampling error: the se falls with the sampled
    // pairs alone, so the forecast scales those (at 1,000 players the complete sizes 1 and 2 are a
    // million evaluations, and scaling them too overshot the tolerance many times).
    const std::uint64_t expected =
        std::min(rule.budget(), complete_used + rule.Forecast(used - complete_used, ratio));
    const std::uint64_t total = std::max(expected, used + per_round);
    planned = std::min(total, std::max(4 * used, used + per_round));
    forecast.Update(total);
  }
  forecast.Update(used);
  out.stopped_by = stop.value_or(StopReason::kBudget);
  out.phi = estimate;
  out.convergence_ratio = ratio;
}

ShapleyValues KernelSolver::SolveGame(std::size_t g, const Game& game, const RoundLoop& loop,
                                      Schedule& schedule) const {
  const int n = game.n_players();
  const std::size_t k = game.n_outputs();
  const std::size_t nw = CoalitionWords(n);
  const StopRule rule(options_, SampleBudget(options_), schedule.start_time());
  ProgressForecast forecast(schedule, rule.budget());
  RandomStream rng(RandomStream(options_.seed, options_.first_game + g)(), 0x4B45524EULL);  // "KERN"

  ShapleyValues out = BeginSampledValues(game, loop);
  std::uint64_t used = 2;
  SampleLogs logs;
  logs.Begin(options_.keep_samples, n, out);
  std::vector<double> delta(k);
  for (std::size_t j = 0; j < k; ++j) delta[j] = out.full[j] - out.base[j];

  const std::vector<LayerPair> layers = PlanLayers(n, static_cast<double>(rule.budget() - used));
  // Complete layers: every coalition of size s (and its complement), in lexicographic order,
  // weighted M_s / C(n, s), cut into blocks of whole coalitions.
  const bool implicit = n > implicit_above_;
  const KernelGame run{game, loop,     schedule, n,    k,
                       nw,   implicit, out.base, logs, game.block_hint().batch_coalitions};
  CompleteLayers complete;
  complete.normal.Reset(n, k, implicit);
  ListCompleteLayers(layers, n, nw, complete);
  EvaluateCompleteLayers(run, complete, out);
  used += complete.list.size();
  if (implicit) ImplicitCompleteNormal(n, complete);

  std::vector<const LayerPair*> sampled;
  for (const LayerPair& p : layers)
    if (!p.complete) sampled.push_back(&p);
  out.phi.assign(static_cast<std::size_t>(n) * k, 0.0);
  out.phi_se.assign(static_cast<std::size_t>(n) * k, 0.0);
  if (sampled.empty()) {
    // Every coalition evaluated: the exact values (a game small enough to enumerate: formed).
    PERFSHAP_CHECK(!implicit, "KernelSolver: every layer complete at " + std::to_string(n) + " players");
    SolveConstrained(complete.normal.g, complete.normal.r, delta, out.phi);
    ProjectEfficiency(out.phi, n, k, out.base, out.full);
    out.n_evaluations = used;
    forecast.Update(used);
    out.stopped_by = StopReason::kExact;
    out.converged = true;
    out.solver = "kernel";
    return out;
  }

  // Sampled layers, by cycles; cycle t goes to batch t mod B, each batch a block of a round.
  const std::uint64_t per_cycle = 2 * static_cast<std::uint64_t>(sampled.size());
  const int batches =
      BatchCount(n, static_cast<double>(rule.budget() - used) / static_cast<double>(per_cycle), implicit);
  // The control variate of output 0 needs two halves of batches and the samples themselves.
  // Fitting a tree level costs O(samples x n): beyond kMaxControlPlayers the plain estimate.
  // Below kControlEvaluationsPerPlayer the trees fit noise: the plain estimate.
  const bool control = options_.control_variate && batches >= 2 && n <= kMaxControlPlayers && !implicit &&
                       static_cast<double>(rule.budget()) >= kControlEvaluationsPerPlayer * n;
  SampledRounds rounds(run, complete, sampled, delta, rng, per_cycle, batches, control);
  rounds.Run(rule, forecast, used, out);
  ProjectEfficiency(out.phi, n, k, out.base, out.full);
  out.n_evaluations = used;
  out.converged = out.stopped_by == StopReason::kTolerance;
  out.solver = "kernel";
  return out;
}

}  // namespace
}  // namespace detail

std::unique_ptr<Solver> MakeKernelSolver(const SolverOptions& options) {
  return std::make_unique<detail::KernelSolver>(options);
}

namespace detail {

std::unique_ptr<Solver> MakeKernelSolverWithImplicitNormal(const SolverOptions& options, int implicit_above) {
  return std::make_unique<KernelSolver>(options, implicit_above);
}

}  // namespace detail

}}  // namespace perfshap