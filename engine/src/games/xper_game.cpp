// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "games/xper_game.hpp"

#include "common/allocation.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <string>

#include "data/message_text.hpp"
#include "metrics/xper_rank.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

namespace {

// Hybrid points per Predict call on the generic path (rows of the n x n grid per block =
// kGridBatch / n): large enough to amortise the call, small enough to stay in cache.
constexpr std::size_t kGridBatch = std::size_t{1} << 15;

void LinkInPlace(Link link, std::span<double> v) {
  switch (link) {
    case Link::kIdentity:
      return;
    case Link::kLogit:
    case Link::kProbit:
      for (double& x : v) x = ApplyLink(link, x);
      return;
  }
}

std::string SampleName(const Dataset& d) {
  return d.source().empty() ? std::string("the sample") : d.source();
}

// Fills player_of (one entry per column, sized here) with each column's player: one player per
// column when `players` is empty, else the groups given (every column in exactly one), whose
// names then replace `names`.
void AssignPlayers(const Dataset& sample, const std::vector<Player>& players, std::vector<int>& player_of,
                   std::vector<std::string>& names) {
  const std::size_t p = sample.n_features();
  player_of.assign(p, -1);
  if (players.empty()) {
    for (std::size_t j = 0; j < p; ++j) player_of[j] = static_cast<int>(j);
    return;
  }
  names.clear();
  for (std::size_t i = 0; i < players.size(); ++i) {
    const Player& player = players[i];
    PERFSHAP_CHECK(!player.columns.empty(), "XPER: player '" + player.name + "' has no column");
    for (std::size_t c : player.columns) {
      PERFSHAP_CHECK(c < p, "XPER: player '" + player.name + "' names column " + std::to_string(c) +
                                ", but the sample has " + std::to_string(p) + " columns");
      PERFSHAP_CHECK(player_of[c] < 0, "XPER: column '" + sample.feature_names()[c] + "' belongs to two players",
                     {"groups"});
      player_of[c] = static_cast<int>(i);
    }
    names.push_back(player.name);
  }
  for (std::size_t c = 0; c < p; ++c)
    PERFSHAP_CHECK(player_of[c] >= 0, "XPER: column '" + sample.feature_names()[c] + "' belongs to no player",
                   {"groups"});
}

// var(y) with ddof 0: the mean, then the sum of squared deviations, each summed in row order.
double TargetVariance(const std::vector<double>& y) {
  const double n = static_cast<double>(y.size());
  double mean = 0;
  for (double v : y) mean += v;
  mean /= n;
  double ss = 0;
  for (double v : y) ss += (v - mean) * (v - mean);
  return ss / n;
}

// Checks that pi lists each of 0..n-1 exactly once (the permuted comparator's pi).
void CheckPermutation(const std::vector<std::size_t>& pi, std::size_t n) {
  PERFSHAP_CHECK(pi.size() == n, "XPER: the permutation has " + std::to_string(pi.size()) +
                                     " indices for a sample of " + std::to_string(n) + " rows");
  std::vector<std::uint8_t> seen(n, 0);
  for (std::size_t k = 0; k < n; ++k) {
    PERFSHAP_CHECK(pi[k] < n, "XPER: permutation index " + std::to_string(k) + " is " + std::to_string(pi[k]) +
                                  ", outside 0.." + std::to_string(n - 1));
    PERFSHAP_CHECK(seen[pi[k]] == 0, "XPER: permutation value " + std::to_string(pi[k]) +
                                         " appears twice (second time at index " + std::to_string(k) +
                                         "); a permutation lists each of 0.." + std::to_string(n - 1) + " once");
    seen[pi[k]] = 1;
  }
}

// DataError naming the first feature (column-major p x n terms) whose additive term is not finite.
void CheckTermsFinite(const std::vector<double>& terms, std::size_t n, const std::vector<int>& player_of,
                      const std::vector<std::string>& names) {
  for (std::size_t j = 0; j < player_of.size(); ++j)
    for (std::size_t r = 0; r < n; ++r)
      if (!std::isfinite(terms[j * n + r]))
        throw DataError(
            "XPER: the model's term of feature " + Quoted(names[static_cast<std::size_t>(player_of[j])]) +
            " for sample row " + std::to_string(r) +
            " is not finite (its value times its coefficient overflows); scale the feature (e.g. to values "
            "near 1), or drop it");
}

}  // namespace

XperGame::XperGame(const Model& model, const Dataset& sample, XperGameSettings settings)
    : model_(model),
      settings_(std::move(settings)),
      n_(sample.n_rows()),
      p_(sample.n_features()),
      names_(sample.feature_names()) {
  const std::string where = SampleName(sample);
  PERFSHAP_CHECK(settings_.metric != nullptr && settings_.metric->xper(), "XPER: no metric with an XPER term");
  const MetricDefinition& def = *settings_.metric;
  const char* metric = def.name.c_str();
  PERFSHAP_CHECK(p_ >= 1, "XPER: the sample has no feature column");
  AssignPlayers(sample, settings_.players, player_of_, names_);
  PERFSHAP_CHECK(model.n_features() == p_, "XPER: the model takes " + std::to_string(model.n_features()) +
                                               " features but the sample has " + std::to_string(p_) +
                                               "; give the model's features in the model's order");
  if (n_ < 2)
    throw DataError("XPER: " + where + " has " + std::to_string(n_) + " row(s); it needs at least 2");
  PERFSHAP_CHECK(sample.label().size() == n_, "XPER: the sample has no label; XPER needs the true target y");
  PERFSHAP_CHECK(std::isfinite(settings_.cfp) && std::isfinite(settings_.cfn),
                 "XPER: the misclassification costs must be finite numbers", {"cfp", "cfn"});
  PERFSHAP_CHECK(std::isfinite(settings_.threshold), "XPER: the class threshold must be a finite number",
                 {"threshold"});

  x_.resize(p_ * n_);
  for (std::size_t j = 0; j < p_; ++j)
    std::copy(sample.column(j).begin(), sample.column(j).end(),
              x_.begin() + static_cast<std::ptrdiff_t>(j * n_));
  y_.assign(sample.label().begin(), sample.label().end());
  positive_.assign(n_, 0);
  const bool regression = def.regression();
  for (std::size_t i = 0; i < n_; ++i) {
    const double v = y_[i];
    if (!std::isfinite(v))
      throw DataError("XPER: " + where + ": the label of row " + std::to_string(i) +
                      " is not a finite number");
    if (!regression) {
      if (v != 0.0 && v != 1.0)
        throw DataError("XPER: " + where + ": the label of row " + std::to_string(i) + " is " +
                        std::to_string(v) + "; metric " + metric +
                        " needs 0/1 labels; name the positive class",
                        {"positive"});
      positive_[i] = v == 1.0 ? 1 : 0;
      n_pos_ += positive_[i];
    }
  }
  const std::size_t n_neg = n_ - n_pos_;
  const bool one_class = n_pos_ == 0 || n_neg == 0;
  // The labels the metric's definition needs (MetricDefinition::needs_*).
  if (def.needs_positive && def.needs_negative && one_class)
    throw DataError("XPER: " + std::string(metric) + " is undefined on " + where + ": all " + std::to_string(n_) +
                    " rows have label " + (n_pos_ == 0 ? "0" : "1") + "; the sample needs both classes");
  if (def.needs_positive && n_pos_ == 0)
    throw DataError("XPER: " + std::string(metric) + " is undefined on " + where + ": no row has label 1");
  if (def.needs_negative && n_neg == 0)
    throw DataError("XPER: " + std::string(metric) + " is undefined on " + where + ": no row has label 0");
  if (def.needs_target_variance) {
    var_y_ = TargetVariance(y_);
    if (!(var_y_ > 0))
      throw DataError("XPER: " + std::string(metric) + " is undefined on " + where +
                      ": the target is constant (variance 0)");
  }

  const bool ranked = def.xper_statistic == XperStatistic::kRank;
  if (settings_.comparator == XperComparator::kPermuted && (ranked || def.xper_needs_delta))
    CheckPermutation(settings_.permutation, n_);
  if (settings_.comparator == XperComparator::kFull && ranked)
    PERFSHAP_CHECK(n_ <= kMaxFullGridRows,
                   "XPER: the full comparator handles at most 65535 rows (it sorts n^2 = " +
                       std::to_string(n_) + "^2 scores per coalition); use the permuted comparator",
                   {"comparator"});

  if (settings_.use_additive_terms) {
    terms_.assign(p_ * n_, 0.0);
    additive_ = model.AdditiveTerms(x_, n_, intercept_, terms_, link_);
    if (!additive_) terms_.clear();
    // A term that overflows names its feature here, before any coalition.
    if (additive_) CheckTermsFinite(terms_, n_, player_of_, names_);
  }
}

/** @brief One thread's evaluator of XperGame, with all its scratch memory. */
class XperWorker final : public GameWorker {
 public:
  explicit XperWorker(const XperGame& g) : g_(g) {
    const std::size_t n = g.n_;
    a_.assign(n, 0.0);
    b_.assign(n, 0.0);
    row_.assign(n, 0.0);
    totals_.assign(n, 0);
    stat_.assign(n, 0.0);
    in_.assign(g.p_, 0);
    rows_per_block_ = std::max<std::size_t>(1, std::min(n, kGridBatch / n));
    if (!g.additive_) {
      grid_x_.assign(g.p_ * rows_per_block_ * n, 0.0);
      grid_pred_.assign(rows_per_block_ * n, 0.0);
      comp_x_.assign(g.p_ * n, 0.0);
      comp_pred_.assign(n, 0.0);
    }
  }

  void Evaluate(Coalition s, std::span<double> out) override {
    for (std::size_t j = 0; j < g_.p_; ++j) in_[j] = Contains(s, g_.player_of_[j]) ? 1 : 0;
    EvaluateColumns(out);
  }

  // Any number of players (the sampled solvers' coalitions beyond 64 players).
  void EvaluateWide(WideCoalition s, std::span<double> out) override {
    for (std::size_t j = 0; j < g_.p_; ++j) in_[j] = s.contains(g_.player_of_[j]) ? 1 : 0;
    EvaluateColumns(out);
  }

 private:
  // v(S) for the coalition whose columns in_ flags.
  void EvaluateColumns(std::span<double> out) {
    if (g_.additive_) ComputeScores();
    if (g_.settings_.metric->xper_statistic == XperStatistic::kRank) {
      EvaluateAuc(out);
    } else {
      EvaluateMean(out);
    }
  }

  // a_i = intercept + sum_{j in S} term_j(x_ij); b_u = sum_{j not in S} term_j(x_uj). Each from
  // scratch, in feature order, so v(S) does not depend on the previous coalition.
  void ComputeScores() {
    const std::size_t n = g_.n_;
    std::fill(a_.begin(), a_.end(), g_.intercept_);
    std::fill(b_.begin(), b_.end(), 0.0);
    for (std::size_t j = 0; j < g_.p_; ++j) {
      const double* t = g_.terms_.data() + j * n;
      double* dst = in_[j] != 0 ? a_.data() : b_.data();
      for (std::size_t r = 0; r < n; ++r) dst[r] += t[r];
    }
    // O(n) next to the coalition's O(n^2) work: a non-finite score must never reach a sort or
    // a result silently (the generic path checks its predictions the same way).
    for (std::size_t r = 0; r < n; ++r)
      if (!std::isfinite(a_[r]) || !std::isfinite(b_[r]))
        throw DataError("XPER: the model's score of sample row " + std::to_string(r) +
                        " is not finite (overflow?); check the model's coefficients and the sample");
  }

  // Generic path: predictions of the hybrid grid z_iu, row block by row block; fn(i, row) gets
  // individual i's n predictions f(z_i1..z_in).
  template <class Fn>
  void ForEachHybridRow(Fn&& fn) {
    const std::size_t n = g_.n_;
    const std::size_t p = g_.p_;
    for (std::size_t i0 = 0; i0 < n; i0 += rows_per_block_) {
      const std::size_t i1 = std::min(n, i0 + rows_per_block_);
      const std::size_t m = (i1 - i0) * n;
      for (std::size_t j = 0; j < p; ++j) {
        const double* xj = g_.x_.data() + j * n;
        double* col = grid_x_.data() + j * m;
        if (in_[j] != 0) {
          for (std::size_t i = i0; i < i1; ++i) std::fill_n(col + (i - i0) * n, n, xj[i]);  // x_i on S
        } else {
          for (std::size_t i = i0; i < i1; ++i) std::copy_n(xj, n, col + (i - i0) * n);  // x_u off S
        }
      }
      const std::span<double> pred(grid_pred_.data(), m);
      g_.model_.Predict(std::span<const double>(grid_x_.data(), p * m), m, pred);
      for (std::size_t i = i0; i < i1; ++i) {
        const std::span<const double> row(grid_pred_.data() + (i - i0) * n, n);
        for (double v : row)
          if (!std::isfinite(v))
            throw DataError("XPER: the model predicted a non-finite value; check the model and the sample");
        fn(i, row);
      }
    }
  }

  // Generic path: predictions of the comparison sample w_k = (x_k on S, x_pi(k) off S).
  void PredictComparison() {
    const std::size_t n = g_.n_;
    const auto& pi = g_.settings_.permutation;
    for (std::size_t j = 0; j < g_.p_; ++j) {
      const double* xj = g_.x_.data() + j * n;
      double* col = comp_x_.data() + j * n;
      if (in_[j] != 0) {
        std::copy_n(xj, n, col);
      } else {
        for (std::size_t k = 0; k < n; ++k) col[k] = xj[pi[k]];
      }
    }
    g_.model_.Predict(comp_x_, n, comp_pred_);
    for (double v : comp_pred_)
      if (!std::isfinite(v))
        throw DataError("XPER: the model predicted a non-finite value; check the model and the sample");
  }

  // AUC term (ARCHITECTURE.md): G = [y_i (1/m) sum_w (1 - y_w) 1{f(z_iu) > f(w)} + (1 - y_i)
  // (1/m) sum_w y_w 1{f(z_iu) <= f(w)}] / (2 ybar (1 - ybar)), m comparison points. With
  // integer totals T_i = sum_u (count of point z_iu): v_i = T_i / (2 n1 n0) for the permuted
  // sample (m = n) and T_i / (2 n n1 n0) for the full grid (m = n^2).
  void EvaluateAuc(std::span<double> out) {
    const std::size_t n = g_.n_;
    const bool full = g_.settings_.comparator == XperComparator::kFull;
    if (g_.additive_) {
      if (full) {
        FullGridRankAdditive(a_, b_, g_.positive_, totals_, rank_);
      } else {
        PermutedRankAdditive(a_, b_, g_.settings_.permutation, g_.positive_, totals_, rank_);
      }
    } else if (full) {
      ResizeOrThrow(grid_all_, n * n, "XPER's comparison grid (the " + std::to_string(n) + "^2 hybrid predictions of a coalition)");
      ForEachHybridRow([&](std::size_t i, std::span<const double> row) {
        std::copy(row.begin(), row.end(), grid_all_.begin() + static_cast<std::ptrdiff_t>(i * n));
      });
      FullGridRankStored(grid_all_, n, g_.positive_, totals_, rank_);
    } else {
      PredictComparison();
      PrepareComparison(comp_pred_, g_.positive_, rank_);
      ForEachHybridRow([&](std::size_t i, std::span<const double> row) {
        totals_[i] = PermutedRankRow(row, g_.positive_[i] != 0, rank_);
      });
    }
    const double n1 = static_cast<double>(g_.n_pos_);
    const double n0 = static_cast<double>(n - g_.n_pos_);
    const double nd = static_cast<double>(n);
    const double denom = full ? 2.0 * nd * n1 * n0 : 2.0 * n1 * n0;
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      out[1 + i] = static_cast<double>(totals_[i]) / denom;
      sum += totals_[i];
    }
    out[0] = static_cast<double>(sum) / (denom * nd);
  }

  // Number of comparison points w_k classified positive (precision's delta(S) = that / n).
  double ComparisonPositives() {
    const std::size_t n = g_.n_;
    const auto& pi = g_.settings_.permutation;
    if (g_.additive_) {
      for (std::size_t k = 0; k < n; ++k) row_[k] = a_[k] + b_[pi[k]];
      LinkInPlace(g_.link_, row_);
    } else {
      PredictComparison();
      std::copy(comp_pred_.begin(), comp_pred_.end(), row_.begin());
    }
    std::size_t c = 0;
    for (double v : row_) c += v > g_.settings_.threshold ? 1 : 0;
    return static_cast<double>(c);
  }

  // Every metric but AUC: v_i(S) = (1/n) sum_u G(y_i; f(z_iu); delta) from the row statistic.
  void EvaluateMean(std::span<double> out) {
    const std::size_t n = g_.n_;
    if (g_.additive_) {
      for (std::size_t i = 0; i < n; ++i) {
        const double ai = a_[i];
        for (std::size_t u = 0; u < n; ++u) row_[u] = ai + b_[u];
        LinkInPlace(g_.link_, row_);
        stat_[i] = XperRowStatistic(g_.settings_, g_.y_[i], row_);
      }
    } else {
      ForEachHybridRow([&](std::size_t i, std::span<const double> row) {
        stat_[i] = XperRowStatistic(g_.settings_, g_.y_[i], row);
      });
    }
    double delta_count = 0.0;
    // Precision: delta(S) = mean yhat over the comparison sample; delta_count = n delta(S).
    if (g_.settings_.metric->xper_needs_delta) {
      if (g_.settings_.comparator == XperComparator::kFull) {
        double total = 0;
        for (double c : stat_) total += c;  // integer counts: exact
        delta_count = total / static_cast<double>(n);
      } else {
        delta_count = ComparisonPositives();
      }
    }
    g_.Terms(stat_, delta_count, out);
  }

  const XperGame& g_;
  std::size_t rows_per_block_ = 1;
  std::vector<double> a_, b_, row_;
  std::vector<double> grid_x_, grid_pred_, comp_x_, comp_pred_, grid_all_;
  std::vector<std::uint64_t> totals_;
  std::vector<double> stat_;
  std::vector<std::uint8_t> in_;  // per column: 1 when its player is in the coalition
  XperRankScratch rank_;
};

double XperRowStatistic(const XperGameSettings& settings, double y, std::span<const double> f) {
  double acc = 0.0;
  switch (settings.metric->xper_statistic) {
    case XperStatistic::kSquaredError:
      for (double v : f) acc += (y - v) * (y - v);
      return acc;
    case XperStatistic::kAbsoluteError:
      for (double v : f) acc += std::abs(y - v);
      return acc;
    default: {
      std::size_t c = 0;
      for (double v : f) c += v > settings.threshold ? 1 : 0;
      return static_cast<double>(c);
    }
  }
}

void XperGame::Terms(std::span<const double> stat, double delta_count, std::span<double> out) const {
  const double nd = static_cast<double>(n_);
  XperTermContext context;
  context.n = nd;
  context.n1 = static_cast<double>(n_pos_);
  context.n0 = nd - context.n1;
  context.var_y = var_y_;
  context.cfp = settings_.cfp;
  context.cfn = settings_.cfn;
  context.delta_count = delta_count;
  const auto term = settings_.metric->xper_term;
  double sum = 0.0;
  for (std::size_t i = 0; i < n_; ++i) {
    const double vi = term(stat[i], positive_[i] != 0, context);
    out[1 + i] = vi;
    sum += vi;
  }
  out[0] = sum / nd;
}

std::unique_ptr<GameWorker> XperGame::MakeWorker() const { return std::make_unique<XperWorker>(*this); }

}}}  // namespace perfshap::detail
