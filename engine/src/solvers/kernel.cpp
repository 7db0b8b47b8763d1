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
#include "solvers/coalition_trees.hpp"
#include "solvers/sampling.hpp"

namespace perfshap::inline v0 {
namespace detail {
namespace {

using Matrix = Eigen::MatrixXd;

// ln Gamma(x) without the global sign std::lgamma writes (POSIX signgam: a data race when two
// games are solved at once; ThreadSanitizer reports it).
double LogGamma(double x) {
  int sign = 0;
  return ::lgamma_r(x, &sign);
}

// ln C(n, s), for comparing layer sizes with the budget at any n.
double LogBinomial(int n, int s) { return LogGamma(n + 1.0) - LogGamma(s + 1.0) - LogGamma(n - s + 1.0); }

// One layer pair: sizes s and n - s (one layer when s = n - s).
struct LayerPair {
  int s = 0;
  bool middle = false;      // s == n - s
  bool complete = false;    // every coalition of both sizes evaluated
  double mass_small = 0.0;  // M_s
  double mass_large = 0.0;  // M_{n-s}
};

// The normal equations' pieces of a set of weighted rows: G = sum w a a^T, R = sum w a y^T.
struct NormalSums {
  Matrix g;
  Matrix r;
  // implicit: no g (0 x 0): ImplicitNormal stands for it.
  void Reset(int n, std::size_t k, bool implicit = false) {
    if (implicit) {
      g.resize(0, 0);
    } else {
      g.setZero(n, n);
    }
    r.setZero(n, static_cast<Eigen::Index>(k));
  }
  // Adds w a a^T (unless implicit) and w a y^T for the coalition whose members are `members`.
  void Add(std::span<const int> members, double w, const double* y, std::size_t k) {
    const bool with_g = g.size() > 0;
    for (int a : members) {
      if (with_g)
        for (int b : members) g(a, b) += w;
      for (std::size_t j = 0; j < k; ++j) r(a, static_cast<Eigen::Index>(j)) += w * y[j];
    }
  }
};

// The normal equations' pieces of complement pairs (S, N \ S) of equal weight w, from the
// smaller side a alone: w (a a^T + (1 - a)(1 - a)^T) = w (2 a a^T - a 1^T - 1 a^T + 1 1^T) and
// w (a y_S^T + (1 - a) y_c^T) = w a (y_S - y_c)^T + 1 (w y_c)^T, so a pair costs |S|^2 / 2 for
// the smaller |S| <= n / 2, not |S|^2 + |N \ S|^2.
struct PairSums {
  Matrix aa;           // sum w a a^T, lower triangle (0 x 0 when implicit)
  Eigen::VectorXd a;   // sum w a
  double w = 0.0;      // sum w
  Matrix ry;           // sum w a (y_S - y_c)^T
  Eigen::VectorXd yc;  // sum w y_c
  // implicit: each pair's smaller side and weight, in order, instead of aa (ImplicitNormal).
  bool implicit = false;
  std::vector<int> members;
  std::vector<std::uint32_t> member_end;
  std::vector<double> weights;
  void Reset(int n, std::size_t k, bool implicit_normal = false) {
    implicit = implicit_normal;
    if (implicit) {
      aa.resize(0, 0);
    } else {
      aa.setZero(n, n);
    }
    members.clear();
    member_end.clear();
    weights.clear();
    a.setZero(n);
    w = 0.0;
    ry.setZero(n, static_cast<Eigen::Index>(k));
    yc.setZero(static_cast<Eigen::Index>(k));
  }
  void Add(std::span<const int> small, double weight, const double* y_small, const double* y_large,
           std::size_t k) {
    if (implicit) {
      members.insert(members.end(), small.begin(), small.end());
      member_end.push_back(static_cast<std::uint32_t>(members.size()));
      weights.push_back(weight);
    } else {
      // The lower triangle, column by column (members increase, so small[p] >= small[q]).
      for (std::size_t q = 0; q < small.size(); ++q) {
        double* column = aa.data() + static_cast<Eigen::Index>(small[q]) * aa.rows();
        for (std::size_t p = q; p < small.size(); ++p) column[small[p]] += weight;
      }
    }
    for (int i : small) {
      a(i) += weight;
      for (std::size_t j = 0; j < k; ++j)
        ry(i, static_cast<Eigen::Index>(j)) += weight * (y_small[j] - y_large[j]);
    }
    w += weight;
    for (std::size_t j = 0; j < k; ++j) yc(static_cast<Eigen::Index>(j)) += weight * y_large[j];
  }
  // Sums of a, w, ry, yc (and aa); an implicit batch's samples stay with it.
  void AddTo(PairSums& total) const {
    total.implicit = implicit;
    if (!implicit) total.aa += aa;
    total.a += a;
    total.w += w;
    total.ry += ry;
    total.yc += yc;
  }
  // total minus this batch.
  void Without(const PairSums& total, PairSums& rest) const {
    rest.implicit = implicit;
    if (!implicit) rest.aa = total.aa - aa;
    rest.a = total.a - a;
    rest.w = total.w - w;
    rest.ry = total.ry - ry;
    rest.yc = total.yc - yc;
  }
  // G and R of the pairs, divided by `count` (R alone when implicit: g is left as it is).
  void Expand(double count, Matrix& g, Matrix& r) const {
    const Eigen::Index n = a.size();
    r = (ry + Eigen::VectorXd::Ones(n) * yc.transpose()) / count;
    if (implicit) return;
    Matrix full = aa.selfadjointView<Eigen::Lower>();
    g = (2.0 * full - a * Eigen::RowVectorXd::Ones(n) - Eigen::VectorXd::Ones(n) * a.transpose()).array() + w;
    g /= count;
  }
};

// Above this many players the normal matrix is never formed: forming it costs O(|S|^2) a sample
// and solving it O(n^3), where its products with a vector cost O(|S|) a sample
// (ImplicitNormal) and a conjugate-gradient solve preconditioned by its expectation, which is
// alpha I + beta 1 1^T, takes a few of them. The estimator is the same: the constrained least
// squares of the very same samples, to the solve's tolerance.
constexpr int kImplicitNormalPlayers = 128;

// The normal matrix G = G_complete + G_pairs / count of the complete layers (alpha_c I +
// beta_c 1 1^T exactly: every coalition of a size is there) and the pairs of the batches in
// `batches` but `skip`, whose sums (a, w) are `sums`; as products with vectors.
struct ImplicitNormal {
  int n = 0;
  double alpha_c = 0.0;
  double beta_c = 0.0;
  const std::vector<PairSums>* batches = nullptr;
  std::ptrdiff_t skip = -1;
  const PairSums* sums = nullptr;
  double count = 1.0;
  double ridge = 0.0;

  void Apply(const Eigen::VectorXd& v, Eigen::VectorXd& out) const {
    const double total = v.sum();
    const double av = sums->a.dot(v);
    out = (alpha_c + ridge) * v;
    out.array() += beta_c * total + (sums->w * total - av) / count;
    out -= sums->a * (total / count);
    Eigen::VectorXd pairs = Eigen::VectorXd::Zero(n);
    for (std::size_t b = 0; b < batches->size(); ++b) {
      if (static_cast<std::ptrdiff_t>(b) == skip) continue;
      const PairSums& p = (*batches)[b];
      std::uint32_t begin = 0;
      for (std::size_t t = 0; t < p.weights.size(); ++t) {
        const std::uint32_t end = p.member_end[t];
        double dot = 0.0;
        for (std::uint32_t m = begin; m < end; ++m) dot += v(p.members[m]);
        const double add = 2.0 * p.weights[t] * dot;
        for (std::uint32_t m = begin; m < end; ++m) pairs(p.members[m]) += add;
        begin = end;
      }
    }
    out += pairs / count;
  }
};

// The identity part alpha of the expectation of the pairs' normal matrix per cycle over the draws
// (a smaller side of size s is uniform among them: E[a a^T] = s/n on the diagonal,
// s(s-1)/(n(n-1)) off it), the scale of the solve's ridge.
double ExpectedPairsAlpha(int n, std::span<const LayerPair* const> sampled) {
  double alpha = 0.0;
  const double nd = n;
  for (const LayerPair* p : sampled) {
    const double s = p->s;
    const double w = p->middle ? 0.5 * p->mass_small : p->mass_small;
    alpha += w * 2.0 * (s / nd - s * (s - 1.0) / (nd * (nd - 1.0)));
  }
  return alpha;
}

// phi (n x k row-major) of the constrained least squares with normal matrix g, right-hand sides r
// and sums delta.
void SolveConstrained(const Matrix& g, const Matrix& r, std::span<const double> delta,
                      std::span<double> phi) {
  const Eigen::Index n = g.rows();
  const Eigen::Index k = r.cols();
  Eigen::LDLT<Matrix> ldlt(g);
  bool ok = ldlt.info() == Eigen::Success && ldlt.isPositive();
  if (ok) {
    const auto d = ldlt.vectorD();
    ok = d.minCoeff() > 1e-13 * std::max(1e-300, d.maxCoeff());
  }
  if (!ok) {
    // Too few rows to fix every direction (a small budget): a tiny ridge makes the system
    // definite without moving the well-determined directions.
    Matrix reg = g;
    reg.diagonal().array() += 1e-10 * std::max(1e-300, g.diagonal().mean());
    ldlt.compute(reg);
  }
  Matrix rhs(n, k + 1);
  rhs.leftCols(k) = r;
  rhs.col(k).setOnes();
  const Matrix x = ldlt.solve(rhs);
  const double ones_g = x.col(k).sum();
  for (Eigen::Index j = 0; j < k; ++j) {
    const double excess = x.col(j).sum() - delta[static_cast<std::size_t>(j)];
    for (Eigen::Index i = 0; i < n; ++i)
      phi[static_cast<std::size_t>(i * k + j)] = x(i, j) - x(i, k) * excess / ones_g;
  }
}

// The constrained least squares phi = argmin phi^T G phi / 2 - phi^T r subject to sum phi = delta,
// by conjugate gradients on the plane sum phi = delta: phi = delta / n 1 + y, y orthogonal to 1,
// every residual and direction projected onto that plane. G's expectation alpha I + beta 1 1^T is
// alpha times the identity there, so the plain iteration is the preconditioned one. `phi` holds
// the start (a nearby solution: the pooled estimate for a leave-one-out one) or zeros; the
// iteration stops at a relative residual of 1e-11 or after 500 steps.
void SolveConstrainedImplicit(const ImplicitNormal& g, const Matrix& r, std::span<const double> delta,
                              std::span<double> phi) {
  const Eigen::Index n = r.rows();
  const Eigen::Index k = r.cols();
  const auto project = [n](Eigen::VectorXd& v) { v.array() -= v.sum() / static_cast<double>(n); };
  Eigen::VectorXd x(n), res(n), p(n), q(n);
  for (Eigen::Index j = 0; j < k; ++j) {
    const double shift = delta[static_cast<std::size_t>(j)] / static_cast<double>(n);
    for (Eigen::Index i = 0; i < n; ++i) x(i) = phi[static_cast<std::size_t>(i * k + j)];
    project(x);
    x.array() += shift;
    g.Apply(x, q);
    res = r.col(j) - q;
    project(res);
    const double target = 1e-22 * std::max(r.col(j).squaredNorm(), 1e-300);
    double rr = res.squaredNorm();
    p = res;
    for (int it = 0; it < 500 && rr > target; ++it) {
      g.Apply(p, q);
      project(q);
      const double pq = p.dot(q);
      if (!(pq > 0.0)) break;
      const double step = rr / pq;
      x += step * p;
      res -= step * q;
      const double next = res.squaredNorm();
      p = res + (next / rr) * p;
      rr = next;
    }
    for (Eigen::Index i = 0; i < n; ++i) phi[static_cast<std::size_t>(i * k + j)] = x(i);
  }
}

struct KernelScratch {
  std::unique_ptr<GameWorker> worker;
  const Game* game = nullptr;
  std::vector<double> value;
  std::vector<int> members;
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
// at most: no matrices), at most 64, and at most an eighth
// of the cycles the budget leaves: a batch's estimate from fewer cycles leans on the complete
// layers and spreads less than it should (the standard error then falls short, by about 15% at
// two cycles a batch); with fewer than 16 cycles affordable, half of them, and one when only one
// is (no standard error then).
int BatchCount(int n, double cycles_affordable, bool implicit) {
  const double per = static_cast<double>(n) * static_cast<double>(n);
  const double by_budget = cycles_affordable >= 16.0  ? std::floor(cycles_affordable / 8.0)
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

// Members of a coalition of words.
void MembersOf(std::span<const std::uint64_t> words, int n, std::vector<int>& members) {
  members.clear();
  for (std::size_t t = 0; t < words.size(); ++t)
    for (std::uint64_t w = words[t]; w != 0; w &= w - 1) {
      const int i = static_cast<int>(t * 64) + std::countr_zero(w);
      if (i < n) members.push_back(i);
    }
}

// The largest game whose output 0 gets the control variate.
constexpr int kMaxControlPlayers = 128;

// The sampled pairs of one batch, kept for the control variate: each pair's smaller side (its
// words), both sides' v - v(empty) of output 0, and its layer pair.
struct BatchSamples {
  std::vector<std::uint64_t> words;
  std::vector<double> y_small, y_large;
  std::vector<std::uint32_t> layer;
};

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

// What the control variate of output 0 reads: the complete layers (coalitions, weights, values,
// normal matrix), the sampled layers and each batch's samples.
struct ControlVariateInput {
  int n = 0;
  const std::vector<std::vector<std::uint64_t>>* complete_words = nullptr;
  const std::vector<double>* complete_w = nullptr;
  const std::vector<double>* complete_y = nullptr;
  const Matrix* complete_g = nullptr;
  std::span<const LayerPair* const> sampled;
  std::span<const BatchSamples> kept;
  std::uint64_t cycles = 0;  // per batch
  double delta = 0.0;        // v(N) - v(empty) of output 0
  double t_over_z = 1.0;
  CoalitionTreeOptions trees;
};

// A sampled pair's weight in the normal equations before division by its layer's sample count.
double PairWeight(const LayerPair& layer) { return layer.middle ? 0.5 * layer.mass_small : layer.mass_small; }

// phi and se of output 0 with a control variate, by cross-fitting: the batches are two halves
// (even and odd); the trees g_h fitted on the complete layers and the other half's samples are
// a game whose Shapley values are exact, and the kernel estimate of the residual game v - g_h
// from half h's batches (with the complete layers) is added to them. Given g_h the estimate is
// the kernel estimate of v - g_h, so it stays unbiased to the same order as the plain one; its
// variance is that of the residual, which the trees make small. phi averages the halves; se is
// the jackknife within each half given its trees (each half's estimate without one of its
// batches; refitting the trees per batch left out would cost B fits), or with fewer than two
// batches a half, the spread of the B single-batch estimates.
void ControlVariate(const ControlVariateInput& in, std::span<double> phi0, std::span<double> se0) {
  const int n = in.n;
  const auto np = static_cast<std::size_t>(n);
  const std::size_t nw = CoalitionWords(n);
  const std::size_t batches = in.kept.size();
  std::vector<std::uint64_t> empty(nw, 0), full(nw, 0), other(nw);
  for (int i = 0; i < n; ++i) full[static_cast<std::size_t>(i) / 64] |= std::uint64_t{1} << (i % 64);
  const auto complement = [&](const std::uint64_t* words) {
    for (std::size_t t = 0; t < nw; ++t) other[t] = full[t] & ~words[t];
  };
  std::vector<std::vector<double>> batch_phi(batches, std::vector<double>(np, 0.0));
  // With two batches or more in each half: the jackknife within each half, the trees fixed.
  const bool jackknife = batches >= 4;
  std::vector<PairSums> half_sums(jackknife ? batches : 0);
  std::vector<double> variance(np, 0.0);
  std::fill(phi0.begin(), phi0.end(), 0.0);
  std::vector<int> members;
  std::vector<std::uint64_t> train_words;
  std::vector<double> train_y, train_w;
  for (std::size_t h = 0; h < 2; ++h) {
    std::size_t own = 0;
    for (std::size_t b = 0; b < batches; ++b) own += b % 2 == h ? 1 : 0;
    const std::size_t others = batches - own;
    // The trees: fitted on the complete layers and the other half, with the regression's weights,
    // and the two ends as heavy anchors (the residual game then nearly vanishes there).
    train_words.clear();
    train_y.clear();
    train_w.clear();
    for (std::size_t c = 0; c < in.complete_words->size(); ++c) {
      train_words.insert(train_words.end(), (*in.complete_words)[c].begin(), (*in.complete_words)[c].end());
      train_y.push_back((*in.complete_y)[c]);
      train_w.push_back((*in.complete_w)[c]);
    }
    const double per_sample = 1.0 / static_cast<double>(in.cycles * others);
    for (std::size_t b = 0; b < batches; ++b) {
      if (b % 2 == h) continue;
      const BatchSamples& kept = in.kept[b];
      for (std::size_t t = 0; t < kept.layer.size(); ++t) {
        const double w = PairWeight(*in.sampled[kept.layer[t]]) * per_sample;
        const std::uint64_t* small = kept.words.data() + t * nw;
        complement(small);
        train_words.insert(train_words.end(), small, small + nw);
        train_y.push_back(kept.y_small[t]);
        train_w.push_back(w);
        train_words.insert(train_words.end(), other.begin(), other.end());
        train_y.push_back(kept.y_large[t]);
        train_w.push_back(w);
      }
    }
    const double anchor = 10.0 * *std::max_element(train_w.begin(), train_w.end());
    for (const auto* end : {&empty, &full}) {
      train_words.insert(train_words.end(), end->begin(), end->end());
      train_y.push_back(end == &empty ? 0.0 : in.delta);
      train_w.push_back(anchor);
    }
    CoalitionTrees g;
    g.Fit(n, train_words, train_y, train_w, in.trees);
    const double g0 = g.Predict(empty);
    const std::vector<double> phi_g = g.Shapley();
    const std::vector<double> delta{in.delta - (g.Predict(full) - g0)};

    // The residual game's normal equations: the complete layers' right-hand side, each batch's.
    Matrix complete_r = Matrix::Zero(n, 1);
    for (std::size_t c = 0; c < in.complete_words->size(); ++c) {
      // The complete layers were fitted first: their fitted values are g's there.
      const double res = (*in.complete_y)[c] - (g.fitted()[c] - g0);
      MembersOf((*in.complete_words)[c], n, members);
      for (int i : members) complete_r(i, 0) += (*in.complete_w)[c] * res;
    }
    PairSums pooled;
    pooled.Reset(n, 1);
    Matrix gm, rm;
    std::vector<double> solution(np);
    for (std::size_t b = 0; b < batches; ++b) {
      if (b % 2 != h) continue;
      const BatchSamples& kept = in.kept[b];
      PairSums sums;
      sums.Reset(n, 1);
      for (std::size_t t = 0; t < kept.layer.size(); ++t) {
        const std::span<const std::uint64_t> small(kept.words.data() + t * nw, nw);
        complement(small.data());
        const double ys = kept.y_small[t] - (g.Predict(small) - g0);
        const double yl = kept.y_large[t] - (g.Predict(other) - g0);
        MembersOf(small, n, members);
        sums.Add(members, PairWeight(*in.sampled[kept.layer[t]]), &ys, &yl, 1);
      }
      sums.Expand(static_cast<double>(in.cycles), gm, rm);
      gm += *in.complete_g;
      rm += complete_r;
      SolveConstrained(gm, rm, delta, solution);
      for (std::size_t i = 0; i < np; ++i) batch_phi[b][i] = phi_g[i] + solution[i];
      sums.AddTo(pooled);
      if (jackknife) half_sums[b] = std::move(sums);
    }
    pooled.Expand(static_cast<double>(in.cycles * own), gm, rm);
    gm += *in.complete_g;
    rm += complete_r;
    SolveConstrained(gm, rm, delta, solution);
    const double share = static_cast<double>(own) / static_cast<double>(batches);
    for (std::size_t i = 0; i < np; ++i) phi0[i] += share * (phi_g[i] + solution[i]);
    if (jackknife) {
      // This half's estimate without each of its batches; var_h = (B_h - 1) / B_h sum (. - mean)^2,
      // and phi0's variance is sum_h share_h^2 var_h.
      std::vector<std::vector<double>> loo;
      PairSums rest;
      for (std::size_t b = h; b < batches; b += 2) {
        half_sums[b].Without(pooled, rest);
        rest.Expand(static_cast<double>(in.cycles * (own - 1)), gm, rm);
        gm += *in.complete_g;
        rm += complete_r;
        SolveConstrained(gm, rm, delta, solution);
        loo.push_back(solution);
      }
      for (std::size_t i = 0; i < np; ++i) {
        double mean = 0.0;
        for (const auto& v : loo) mean += v[i];
        mean /= static_cast<double>(own);
        double ss = 0.0;
        for (const auto& v : loo) ss += (v[i] - mean) * (v[i] - mean);
        variance[i] += share * share * ss * static_cast<double>(own - 1) / static_cast<double>(own);
      }
    }
  }
  if (jackknife) {
    for (std::size_t i = 0; i < np; ++i) se0[i] = std::sqrt(variance[i]) * in.t_over_z;
    return;
  }
  for (std::size_t i = 0; i < np; ++i) {
    double mean = 0.0;
    for (std::size_t b = 0; b < batches; ++b) mean += batch_phi[b][i];
    mean /= static_cast<double>(batches);
    double ss = 0.0;
    for (std::size_t b = 0; b < batches; ++b) ss += (batch_phi[b][i] - mean) * (batch_phi[b][i] - mean);
    se0[i] = std::sqrt(ss / static_cast<double>(batches - 1) / static_cast<double>(batches)) * in.t_over_z;
  }
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
  // With keep_samples: each block's coalitions and values, appended in block order.
  std::vector<SampleLog> logs;
  const auto log_of = [&](std::size_t b) -> SampleLog* {
    if (!options_.keep_samples) return nullptr;
    logs[b].Clear();
    return &logs[b];
  };
  const auto append_logs = [&](std::size_t n_blocks) {
    if (options_.keep_samples)
      for (std::size_t b = 0; b < n_blocks; ++b) logs[b].AppendTo(out);
  };
  if (options_.keep_samples) {
    logs.resize(64);
    std::vector<std::uint64_t> words(nw, 0);
    logs[0].Add(words, out.base);
    for (int i = 0; i < n; ++i) words[static_cast<std::size_t>(i) / 64] |= std::uint64_t{1} << (i % 64);
    logs[0].Add(words, out.full);
    append_logs(1);
  }
  std::vector<double> delta(k);
  for (std::size_t j = 0; j < k; ++j) delta[j] = out.full[j] - out.base[j];

  // The layers: complete while both fit what is left of the budget, smallest sizes first.
  std::vector<LayerPair> layers;
  double left = static_cast<double>(rule.budget() - used);
  bool completing = true;
  for (int s = 1; 2 * s <= n; ++s) {
    LayerPair p;
    p.s = s;
    p.middle = 2 * s == n;
    p.mass_small = static_cast<double>(n - 1) / (static_cast<double>(s) * (n - s));
    p.mass_large = p.mass_small;
    const double size = std::exp(LogBinomial(n, s)) * (p.middle ? 1.0 : 2.0);
    if (completing && size <= left) {
      p.complete = true;
      left -= size;
    } else {
      completing = false;
    }
    layers.push_back(p);
  }

  // Complete layers: every coalition of size s (and its complement), in lexicographic order,
  // weighted M_s / C(n, s), cut into blocks of whole coalitions.
  const bool implicit = n > implicit_above_;
  NormalSums complete;
  complete.Reset(n, k, implicit);
  std::vector<std::vector<std::uint64_t>> list;  // coalitions of the complete layers, in order
  std::vector<double> weights;
  std::vector<double> complete_y;  // their v(S) - v(empty) of output 0 (the control variate's)
  {
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
    const std::size_t n_blocks = std::min<std::size_t>(16, std::max<std::size_t>(1, list.size() / 256));
    std::vector<NormalSums> partial(n_blocks);
    complete_y.assign(list.size(), 0.0);
    loop(n_blocks, 0,
         [&](std::size_t b, void* raw) {
           auto& s = *static_cast<KernelScratch*>(raw);
           Bind(s, game, n);
           s.worker->Reset();
           partial[b].Reset(n, k, implicit);
           SampleLog* log = log_of(b);
           const std::size_t first = list.size() * b / n_blocks;
           const std::size_t last = list.size() * (b + 1) / n_blocks;
           for (std::size_t c = first; c < last; ++c) {
             EvaluateWords(*s.worker, n, list[c], s.value);
             if (log != nullptr) log->Add(list[c], s.value);
             for (std::size_t j = 0; j < k; ++j) s.value[j] -= out.base[j];
             complete_y[c] = s.value[0];
             MembersOf(list[c], n, s.members);
             partial[b].Add(s.members, weights[c], s.value.data(), k);
           }
           schedule.AddProgress(last - first);
         },
         {[&](std::size_t b, ByteWriter& w) {
            const std::size_t first = list.size() * b / n_blocks;
            const std::size_t last = list.size() * (b + 1) / n_blocks;
            PutMatrix(w, partial[b].g);
            PutMatrix(w, partial[b].r);
            w.PutSpan(std::span<const double>(complete_y).subspan(first, last - first));
            if (options_.keep_samples) logs[b].Write(w);
          },
          [&](std::size_t b, ByteReader& r) {
            const std::size_t first = list.size() * b / n_blocks;
            const std::size_t last = list.size() * (b + 1) / n_blocks;
            partial[b].Reset(n, k, implicit);
            GetMatrix(r, partial[b].g);
            GetMatrix(r, partial[b].r);
            r.GetInto(std::span<double>(complete_y).subspan(first, last - first));
            if (options_.keep_samples) logs[b].Read(r);
          }});
    for (const NormalSums& p : partial) {
      complete.g += p.g;
      complete.r += p.r;
    }
    append_logs(n_blocks);
    used += list.size();
  }
  // The complete layers' normal matrix without forming it: alpha_c I + beta_c 1 1^T (every
  // coalition of a size: sum of a a^T over them is C(n, s) times its expectation).
  double alpha_c = 0.0;
  double beta_c = 0.0;
  if (implicit) {
    const double nd = n;
    for (std::size_t c = 0; c < list.size(); ++c) {
      double t = 0.0;
      for (const std::uint64_t word : list[c]) t += std::popcount(word);
      const double off = t * (t - 1.0) / (nd * (nd - 1.0));
      alpha_c += weights[c] * (t / nd - off);
      beta_c += weights[c] * off;
    }
  }

  std::vector<const LayerPair*> sampled;
  for (const LayerPair& p : layers)
    if (!p.complete) sampled.push_back(&p);
  out.phi.assign(static_cast<std::size_t>(n) * k, 0.0);
  out.phi_se.assign(static_cast<std::size_t>(n) * k, 0.0);
  if (sampled.empty()) {
    // Every coalition evaluated: the exact values (a game small enough to enumerate: formed).
    PERFSHAP_CHECK(!implicit, "KernelSolver: every layer complete at " + std::to_string(n) + " players");
    SolveConstrained(complete.g, complete.r, delta, out.phi);
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
  std::vector<PairSums> batch(static_cast<std::size_t>(batches));
  for (PairSums& b : batch) b.Reset(n, k, implicit);
  const double alpha_e = implicit ? ExpectedPairsAlpha(n, sampled) : 0.0;
  // The constrained least squares of the complete layers and the pairs summed in `sums` (every
  // batch but `skip`), `count` pairs a layer.
  const auto solve = [&](const PairSums& sums, std::ptrdiff_t skip, double count, std::span<double> phi) {
    Matrix gm, rm;
    sums.Expand(count, gm, rm);
    rm += complete.r;
    if (!implicit) {
      gm += complete.g;
      SolveConstrained(gm, rm, delta, phi);
      return;
    }
    const ImplicitNormal normal{n, alpha_c, beta_c, &batch, skip, &sums, count, 1e-12 * (alpha_c + alpha_e)};
    SolveConstrainedImplicit(normal, rm, delta, phi);
  };
  // The control variate of output 0 needs two halves of batches and the samples themselves.
  // Fitting a tree level costs O(samples x n): beyond kMaxControlPlayers the plain estimate.
  const bool control = options_.control_variate && batches >= 2 && n <= kMaxControlPlayers && !implicit;
  std::vector<BatchSamples> kept(control ? static_cast<std::size_t>(batches) : 0);
  std::vector<std::unordered_set<std::uint64_t>> drawn(sampled.size());
  std::vector<int> pool(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) pool[static_cast<std::size_t>(i)] = i;
  // A coalition of size s, not drawn before in its layer (its words' hash stands for it).
  const auto draw = [&](std::size_t layer, std::vector<std::uint64_t>& words) {
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
  };

  const std::uint64_t complete_used = used;
  std::uint64_t cycles = 0;  // per batch
  std::uint64_t planned = std::min(rule.budget(), used + 4 * static_cast<std::uint64_t>(batches) * per_cycle);
  std::vector<double> estimate(static_cast<std::size_t>(n) * k);
  const double t_over_z = batches >= 2 ? StudentT975(batches - 1.0) / 1.959963984540054 : 1.0;
  std::vector<std::vector<double>> batch_phi(static_cast<std::size_t>(batches), estimate);
  double ratio = std::numeric_limits<double>::infinity();
  std::optional<StopReason> stop;
  for (;;) {
    const std::uint64_t per_round = static_cast<std::uint64_t>(batches) * per_cycle;
    std::uint64_t round_cycles = used + per_round <= planned ? (planned - used) / per_round : 0;
    if (cycles == 0) round_cycles = std::max<std::uint64_t>(round_cycles, 1);
    if (round_cycles == 0 || used + round_cycles * per_round > rule.budget()) {
      if (cycles > 0) break;
      round_cycles = 1;  // the first cycle of every batch, whatever the budget left
    }
    // Draw the round's coalitions in order (sequential: the without-replacement sets).
    std::vector<std::vector<std::uint64_t>> coalitions;  // [batch][cycle][layer] small side
    coalitions.reserve(static_cast<std::size_t>(batches * round_cycles * sampled.size()));
    std::vector<std::uint64_t> words(nw);
    for (std::uint64_t c = 0; c < round_cycles; ++c)
      for (int b = 0; b < batches; ++b)
        for (std::size_t l = 0; l < sampled.size(); ++l) {
          draw(l, words);
          coalitions.push_back(words);
        }
    // Over processes, a batch's new control samples of this round travel (what it kept before,
    // every process has).
    std::vector<std::size_t> kept_at(kept.size());
    for (std::size_t b = 0; b < kept.size(); ++b) kept_at[b] = kept[b].y_small.size();
    loop(static_cast<std::size_t>(batches), 0,
         [&](std::size_t b, void* raw) {
           auto& s = *static_cast<KernelScratch*>(raw);
           Bind(s, game, n);
           s.worker->Reset();
           std::vector<std::uint64_t> other(nw);
           std::vector<double> y_small(k);
           SampleLog* log = log_of(b);
           for (std::uint64_t c = 0; c < round_cycles; ++c)
             for (std::size_t l = 0; l < sampled.size(); ++l) {
               const auto& small =
                   coalitions[(static_cast<std::size_t>(c) * batches + b) * sampled.size() + l];
               for (std::size_t t = 0; t < nw; ++t) other[t] = ~small[t];
               if (n % 64 != 0) other[nw - 1] &= (std::uint64_t{1} << (n % 64)) - 1;
               // Cold fits: random coalitions are far apart, a warm start from one would not help.
               s.worker->Reset();
               EvaluateWords(*s.worker, n, small, y_small);
               s.worker->Reset();
               EvaluateWords(*s.worker, n, other, s.value);
               if (log != nullptr) {
                 log->Add(small, y_small);
                 log->Add(other, s.value);
               }
               for (std::size_t j = 0; j < k; ++j) {
                 y_small[j] -= out.base[j];
                 s.value[j] -= out.base[j];
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
               batch[b].Add(s.members, layer.middle ? 0.5 * layer.mass_small : layer.mass_small,
                            y_small.data(), s.value.data(), k);
             }
           schedule.AddProgress(round_cycles * per_cycle);
         },
         {[&](std::size_t b, ByteWriter& w) {
            PutMatrix(w, batch[b].aa);
            PutVectorXd(w, batch[b].a);
            w.Put(batch[b].w);
            PutMatrix(w, batch[b].ry);
            PutVectorXd(w, batch[b].yc);
            if (implicit) {
              w.PutVector(batch[b].members);
              w.PutVector(batch[b].member_end);
              w.PutVector(batch[b].weights);
            }
            if (control) {
              const BatchSamples& mine = kept[b];
              const std::size_t at = kept_at[b];
              w.PutSpan(std::span<const std::uint64_t>(mine.words).subspan(at * nw));
              w.PutSpan(std::span<const double>(mine.y_small).subspan(at));
              w.PutSpan(std::span<const double>(mine.y_large).subspan(at));
              w.PutSpan(std::span<const std::uint32_t>(mine.layer).subspan(at));
            }
            if (options_.keep_samples) logs[b].Write(w);
          },
          [&](std::size_t b, ByteReader& r) {
            GetMatrix(r, batch[b].aa);
            GetVectorXd(r, batch[b].a);
            batch[b].w = r.Get<double>();
            GetMatrix(r, batch[b].ry);
            GetVectorXd(r, batch[b].yc);
            if (implicit) {
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
            if (options_.keep_samples) logs[b].Read(r);
          }});
    append_logs(static_cast<std::size_t>(batches));
    cycles += round_cycles;
    used += round_cycles * per_round;

    // The pooled estimate and the batches' (complete layers + each batch's samples).
    PairSums pooled;
    pooled.Reset(n, k, implicit);
    for (const PairSums& b : batch) b.AddTo(pooled);
    solve(pooled, -1, static_cast<double>(cycles * batches), estimate);
    // Standard errors by the jackknife over batches: the estimate without batch b, for each b.
    // For an estimate linear in the batches this is the batches' own standard error of their
    // mean; the least-squares estimate is a ratio, and with few samples per player a batch alone
    // determines it poorly, where leaving one batch out does not.
    if (batches >= 2) {
      const auto leave_out = [&](std::size_t b) {
        PairSums rest;
        batch[b].Without(pooled, rest);
        if (implicit) batch_phi[b] = estimate;  // the iteration's start
        solve(rest, static_cast<std::ptrdiff_t>(b), static_cast<double>(cycles * (batches - 1)),
              batch_phi[b]);
      };
      if (implicit) {
        // Solves over every sample each: one per block of the schedule (each alone in its
        // order, so the same at any thread count).
        schedule.ForEachBlock(static_cast<std::size_t>(batches), 0, leave_out);
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
      out.phi_se[t] = batches >= 2 ? std::sqrt(ss * (batches - 1) / batches) * t_over_z
                                   : std::numeric_limits<double>::infinity();
    }
    if (control) {
      ControlVariateInput cv;
      cv.n = n;
      cv.complete_words = &list;
      cv.complete_w = &weights;
      cv.complete_y = &complete_y;
      cv.complete_g = &complete.g;
      cv.sampled = sampled;
      cv.kept = kept;
      cv.cycles = cycles;
      cv.delta = delta[0];
      cv.t_over_z = t_over_z;
      std::vector<double> phi0(static_cast<std::size_t>(n)), se0(static_cast<std::size_t>(n));
      ControlVariate(cv, phi0, se0);
      for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
        estimate[i * k] = phi0[i];
        out.phi_se[i * k] = se0[i];
      }
    }
    ratio = ConvergenceRatio(estimate, out.phi_se, n, k);
    stop = rule.Check(used, ratio);
    if (stop) break;
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
  ProjectEfficiency(out.phi, n, k, out.base, out.full);
  out.n_evaluations = used;
  out.convergence_ratio = ratio;
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

}  // namespace perfshap::inline v0
