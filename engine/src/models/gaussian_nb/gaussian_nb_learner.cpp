// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// "gnb": Gaussian naive Bayes exactly as scikit-learn's GaussianNB(), every coalition trained
// from the split's per-class moments. The fast paths (AVX2 moments, the per-split term cache and
// its AVX-512 sums, the ranking by log-odds of gaussian_nb_rank) sit next to the portable loops
// they replace; each gives the same bits (tested with the vector kernels on and off).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <type_traits>

#include "common/vector_kernels.hpp"
#include "models/gaussian_nb/gaussian_nb_kernels.hpp"
#include "models/gaussian_nb/gaussian_nb_learner.hpp"
#include "models/gaussian_nb/gaussian_nb_model.hpp"
#include "models/gaussian_nb/gaussian_nb_rank.hpp"
#include "models/learner_params.hpp"
#include "models/split_base.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/learners.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

/// Calls f(std::integral_constant<std::size_t, w>{}) for w in 1..4: the compile-time width
/// lets a loop over w columns keep their sums in registers.
template <class F>
void ForWidth(std::size_t w, F&& f) {
  switch (w) {
    case 4:
      f(std::integral_constant<std::size_t, 4>{});
      break;
    case 3:
      f(std::integral_constant<std::size_t, 3>{});
      break;
    case 2:
      f(std::integral_constant<std::size_t, 2>{});
      break;
    default:
      f(std::integral_constant<std::size_t, 1>{});
      break;
  }
}

/// The loop both moment passes share: for every training row in order, and each of the W
/// columns starting at col, add(k, value, label, 1 - label).
template <std::size_t W, class Add>
void ForTrainingValues(const double* const* col, std::span<const std::size_t> rows, const double* y, Add&& add) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::size_t r = rows[i];
    const double y1 = y[i];
    const double y0 = 1.0 - y1;
    for (std::size_t k = 0; k < W; ++k) add(k, col[k][r], y1, y0);
  }
}

/// Copies each column's test values into test (column-major, n_test per column), with per
/// column whether all are finite and the largest |x| among them.
void GatherTestValues(const std::vector<const double*>& col, std::span<const std::size_t> test_rows,
                      std::vector<double>& test, std::vector<std::uint8_t>& finite,
                      std::vector<double>& test_largest) {
  const std::size_t n_test = test_rows.size();
  for (std::size_t q = 0; q < col.size(); ++q) {
    double* te = test.data() + q * n_test;
    bool ok = true;
    double largest = 0.0;
    for (std::size_t i = 0; i < n_test; ++i) {
      te[i] = col[q][test_rows[i]];
      ok = ok && std::isfinite(te[i]);
      largest = std::max(largest, std::abs(te[i]));
    }
    finite[q] = ok ? 1 : 0;
    test_largest[q] = largest;
  }
}

/// Moment pass 1 over the training rows: per column the sum (overall, per class), a check sum
/// that is NaN once a value is not finite, and whether the column varies; up to four columns at
/// a time, their sums kept in registers (AVX2 kernel for full groups of four when avx2).
void MomentSums(const std::vector<const double*>& col, std::span<const std::size_t> train_rows, const double* y,
                [[maybe_unused]] bool avx2, std::vector<double>& sum, std::vector<double>& sum1,
                std::vector<double>& sum0, std::vector<double>& check, std::vector<std::uint8_t>& varies) {
  const std::size_t p = col.size();
  for (std::size_t j0 = 0; j0 < p; j0 += 4) {
#if defined(PERFSHAP_X86_KERNELS)
    if (avx2 && p - j0 >= 4) {
      bool differs[4];
      MomentSumsAvx2(col.data() + j0, train_rows, y, sum.data() + j0, sum1.data() + j0, sum0.data() + j0,
                     check.data() + j0, differs);
      for (std::size_t k = 0; k < 4; ++k) varies[j0 + k] = differs[k] ? 1 : 0;
      continue;
    }
#endif
    const auto pass1 = [&]<std::size_t W>(std::integral_constant<std::size_t, W>) {
      double s[W], s1[W], s0[W], nan[W], first[W];
      bool differs[W];
      for (std::size_t k = 0; k < W; ++k) {
        s[k] = s1[k] = s0[k] = nan[k] = 0.0;
        first[k] = col[j0 + k][train_rows[0]];
        differs[k] = false;
      }
      ForTrainingValues<W>(col.data() + j0, train_rows, y, [&](std::size_t k, double v, double y1, double y0) {
        s[k] += v;
        s1[k] += y1 * v;
        s0[k] += y0 * v;
        nan[k] += v * 0.0;  // NaN once a value is NaN or infinite
        differs[k] = differs[k] | (v != first[k]);
      });
      for (std::size_t k = 0; k < W; ++k) {
        sum[j0 + k] = s[k];
        sum1[j0 + k] = s1[k];
        sum0[j0 + k] = s0[k];
        check[j0 + k] = nan[k];
        varies[j0 + k] = differs[k] ? 1 : 0;
      }
    };
    ForWidth(std::min<std::size_t>(4, p - j0), pass1);
  }
}

/// Moment pass 2 over the training rows: per column the squared deviations from the overall
/// mean (ss) and from the class means (ss1, ss0), four columns at a time as MomentSums.
void MomentSquares(const std::vector<const double*>& col, std::span<const std::size_t> train_rows, const double* y,
                   [[maybe_unused]] bool avx2, const std::vector<double>& mean, const std::vector<double>& theta1,
                   const std::vector<double>& theta0, std::vector<double>& ss, std::vector<double>& ss1,
                   std::vector<double>& ss0) {
  const std::size_t p = col.size();
  for (std::size_t j0 = 0; j0 < p; j0 += 4) {
#if defined(PERFSHAP_X86_KERNELS)
    if (avx2 && p - j0 >= 4) {
      MomentSquaresAvx2(col.data() + j0, train_rows, y, mean.data() + j0, theta1.data() + j0, theta0.data() + j0,
                        ss.data() + j0, ss1.data() + j0, ss0.data() + j0);
      continue;
    }
#endif
    const auto pass2 = [&]<std::size_t W>(std::integral_constant<std::size_t, W>) {
      double sq[W], sq1[W], sq0[W], mu[W], t1[W], t0[W];
      for (std::size_t k = 0; k < W; ++k) {
        sq[k] = sq1[k] = sq0[k] = 0.0;
        mu[k] = mean[j0 + k];
        t1[k] = theta1[j0 + k];
        t0[k] = theta0[j0 + k];
      }
      ForTrainingValues<W>(col.data() + j0, train_rows, y, [&](std::size_t k, double v, double y1, double y0) {
        const double d = v - mu[k];
        const double d1 = v - t1[k];
        const double d0 = v - t0[k];
        sq[k] += d * d;
        sq1[k] += y1 * (d1 * d1);
        sq0[k] += y0 * (d0 * d0);
      });
      for (std::size_t k = 0; k < W; ++k) {
        ss[j0 + k] = sq[k];
        ss1[j0 + k] = sq1[k];
        ss0[j0 + k] = sq0[k];
      }
    };
    ForWidth(std::min<std::size_t>(4, p - j0), pass2);
  }
}

/**
 * The split's statistics: the columns' raw test values (column-major by position), and their
 * moments over the training rows: per class the mean and ddof-0 variance (class c, position q
 * at [c * p + q]) and the overall ddof-0 variance, each summed in row order as numpy's axis-0
 * reductions do (so the reference's order of training rows gives its numbers bit for bit);
 * the per-class sums run alongside, masked by the 0/1 label (adding 0 * x leaves a sum
 * unchanged). The rows are the outer loop and the columns the inner one, so the columns' sums
 * advance together instead of one long chain of dependent additions per column; each column's
 * own sums keep their order.
 */
class GaussianNbSplit final : public SplitBase {
 public:
  GaussianNbSplit(const GaussianNbOptions& options, const Dataset& data, std::span<const Player> players,
                  std::span<const std::size_t> train_rows, std::span<const std::size_t> test_rows,
                  const std::string& split_name);
  std::unique_ptr<CoalitionFitter> MakeFitter() const override;

  double var_smoothing = 1e-9;
  double log_prior[2] = {0.0, 0.0};
  std::vector<double> test;
  std::vector<double> theta;
  std::vector<double> var;
  std::vector<double> total_var;
  std::vector<std::uint8_t> test_positive;  // the test labels as bytes, for the ranking

 private:
  /// DataError for the first column with a missing value or that makes a player constant, in
  /// the order the constructor documents.
  void CheckColumns(const Dataset& data, const std::vector<const double*>& col,
                    std::span<const std::size_t> train_rows, std::span<const std::size_t> test_rows,
                    const std::vector<std::uint8_t>& finite, const std::vector<double>& check,
                    const std::vector<std::uint8_t>& varies) const;
  /// DataError naming the first column whose variance or test terms leave a double's range.
  void CheckMagnitudes(const std::vector<const double*>& col, std::span<const std::size_t> train_rows,
                       const std::vector<std::uint8_t>& varies,
                       const std::vector<double>& test_largest) const;
};

GaussianNbSplit::GaussianNbSplit(const GaussianNbOptions& options, const Dataset& data,
                                 std::span<const Player> players, std::span<const std::size_t> train_rows,
                                 std::span<const std::size_t> test_rows, const std::string& split_name)
    : var_smoothing(options.var_smoothing) {
  InitCommon("gnb", true, data, players, train_rows, test_rows, split_name);
  const std::size_t p = n_columns();
  const std::size_t n_test = test_rows.size();
  test.resize(p * n_test);
  total_var.assign(p, 0.0);
  theta.assign(2 * p, 0.0);
  var.assign(2 * p, 0.0);
  for (int c = 0; c < 2; ++c) log_prior[c] = std::log(class_count_[c] / static_cast<double>(n_train_));
  test_positive.resize(n_test);
  for (std::size_t r = 0; r < n_test; ++r) test_positive[r] = test_label_[r] == 1.0 ? 1 : 0;
  std::vector<const double*> col(p);
  for (std::size_t q = 0; q < p; ++q) col[q] = data.column(columns_[q]).data();
  std::vector<std::uint8_t> finite(p, 1);
  std::vector<double> test_largest(p, 0.0);  // largest |x| among the test values
  GatherTestValues(col, test_rows, test, finite, test_largest);
  // Pass 1: sums (overall, per class), whether the column varies, whether all is finite.
  std::vector<double> sum(p, 0.0), sum1(p, 0.0), sum0(p, 0.0), check(p, 0.0);
  std::vector<std::uint8_t> varies(p, 0);
  const double* y = train_label_.data();
#if defined(PERFSHAP_X86_KERNELS)
  const bool avx2 = HasAvx2();
#else
  const bool avx2 = false;
#endif
  MomentSums(col, train_rows, y, avx2, sum, sum1, sum0, check, varies);
  CheckColumns(data, col, train_rows, test_rows, finite, check, varies);
  // Pass 2: squared deviations from the overall and the class means.
  const double n = static_cast<double>(n_train_);
  std::vector<double> mean(p), theta1(p), theta0(p), ss(p, 0.0), ss1(p, 0.0), ss0(p, 0.0);
  for (std::size_t q = 0; q < p; ++q) {
    mean[q] = sum[q] / n;
    theta1[q] = sum1[q] / class_count_[1];
    theta0[q] = sum0[q] / class_count_[0];
  }
  MomentSquares(col, train_rows, y, avx2, mean, theta1, theta0, ss, ss1, ss0);
  // sklearn GaussianNB._update_mean_variance with no past samples: np.mean, np.var.
  for (std::size_t q = 0; q < p; ++q) {
    total_var[q] = ss[q] / n;
    theta[q] = theta0[q];
    theta[p + q] = theta1[q];
    var[q] = ss0[q] / class_count_[0];
    var[p + q] = ss1[q] / class_count_[1];
  }
  CheckMagnitudes(col, train_rows, varies, test_largest);
}

// Errors in column order: a missing value (naming the first such row, training rows first),
// else a constant one-column player; then players all of whose columns are constant. A
// constant column of a larger player is kept, as sklearn keeps it (its variance is epsilon).
void GaussianNbSplit::CheckColumns(const Dataset& data, const std::vector<const double*>& col,
                                   std::span<const std::size_t> train_rows, std::span<const std::size_t> test_rows,
                                   const std::vector<std::uint8_t>& finite, const std::vector<double>& check,
                                   const std::vector<std::uint8_t>& varies) const {
  const std::size_t p = n_columns();
  for (std::size_t q = 0; q < p; ++q) {
    if (finite[q] == 0 || check[q] != 0.0) ThrowMissing(data, q, train_rows, test_rows);
    const std::size_t i = PlayerOf(q);
    if (varies[q] == 0 && player_begin_[i + 1] - player_begin_[i] == 1) ThrowConstant(i, col[q][train_rows[0]]);
  }
  for (std::size_t i = 0; i + 1 < player_begin_.size(); ++i) {
    bool any = false;
    for (std::size_t q = player_begin_[i]; q < player_begin_[i + 1]; ++q) any = any || varies[q] != 0;
    if (!any) ThrowConstant(i, col[player_begin_[i]][train_rows[0]]);
  }
}

void GaussianNbSplit::CheckMagnitudes(const std::vector<const double*>& col,
                                      std::span<const std::size_t> train_rows,
                                      const std::vector<std::uint8_t>& varies,
                                      const std::vector<double>& test_largest) const {
  // The model needs log(2 pi var) and (x - theta)^2 / var for every test value x: with a
  // column's values beyond about 1e154 the squares overflow, and sklearn's GaussianNB gives
  // NaN; with values so close together that their squared deviations underflow, the variance
  // is 0 or keeps few digits. Such a column is named here, before any fit.
  constexpr double kLargestVariance = std::numeric_limits<double>::max() / 16.0;
  const double kSmallestVariance = std::ldexp(1.0, -970);  // 2^52 x the smallest normal double
  const std::size_t p = n_columns();
  for (std::size_t q = 0; q < p; ++q) {
    bool overflow = !(total_var[q] <= kLargestVariance);
    for (std::size_t c = 0; c < 2; ++c) {
      overflow = overflow || !(var[c * p + q] <= kLargestVariance);
      const double reach = test_largest[q] + std::abs(theta[c * p + q]);
      overflow = overflow || !std::isfinite(reach * reach);
    }
    const bool underflow = !overflow && varies[q] != 0 && total_var[q] < kSmallestVariance;
    if (!overflow && !underflow) continue;
    double largest = test_largest[q];
    for (std::size_t r : train_rows) largest = std::max(largest, std::abs(col[q][r]));
    throw DataError(
        source() + ": feature " + Quote(column_name(q)) + " has values of magnitude up to " +
        FormatMagnitude(largest) + ", whose squared deviations " + (overflow ? "overflow" : "underflow") +
        " a double in Gaussian naive Bayes' variances; scale it (e.g. to values near 1), or drop it");
  }
}

/**
 * Per coalition only the smoothing epsilon (var_smoothing x the largest overall variance among
 * the coalition's columns, so it depends on the coalition) and the per-class constants are
 * recomputed from the split's moments; the test log-likelihoods are summed over the coalition's
 * columns in increasing order, so rows equal on those columns score equally.
 */
class GaussianNbFitter final : public FitterBase {
 public:
  explicit GaussianNbFitter(const GaussianNbSplit& split) { Bind(split); }

  bool Rebind(const PreparedSplit& split) override {
    return RebindIf<GaussianNbSplit>(split, [this](const GaussianNbSplit& s) { Bind(s); });
  }

  void Reset() noexcept override { fitted_ = false; }

  int Fit(std::span<const std::uint32_t> players) override {
    SetCoalition(players);
    FitGaussianNb();
    fitted_ = true;
    return 0;
  }

  void ScoreTest(std::span<double> out, ScoreScale scale) override {
    PERFSHAP_DCHECK(fitted_);
    const std::size_t m = split_->n_test();
    PERFSHAP_CHECK(out.size() >= m, "ScoreTest: the output needs one value per test row");
    double* const jll0 = row_scratch_.data();
    double* const jll1 = row_scratch2_.data();
    JointLogLikelihoods(jll0, jll1);
    for (std::size_t r = 0; r < m; ++r)
      out[r] = scale == ScoreScale::kIndex ? jll1[r] - jll0[r] : GaussianNbProbability(jll0[r], jll1[r]);
  }

  bool RankTest(RankedTest& out) override { return RankTest(out, RankKernel::kAuto); }

  /// RankTest with a chosen kernel (every kernel gives the same ranking; for tests).
  bool RankTest(RankedTest& out, RankKernel kernel) {
    PERFSHAP_DCHECK(fitted_);
    double* const jll0 = row_scratch_.data();
    double* const jll1 = row_scratch2_.data();
    JointLogLikelihoods(jll0, jll1);
    const std::size_t m = split_->n_test();
    if (!RankGaussianNb(std::span<const double>(jll0, m), std::span<const double>(jll1, m), ranking_,
                        split_->test_positive, kernel))
      return false;
    out.order = ranking_.order;
    out.positive = ranking_.positive;
    out.tie = ranking_.tie;
    return true;
  }

  std::unique_ptr<Model> MakeModel() const override {
    PERFSHAP_DCHECK(fitted_);
    const std::size_t p = split_->n_columns();
    const std::size_t k = members_.size();
    std::vector<double> theta(2 * k);
    std::vector<double> var(2 * k);
    for (std::size_t c = 0; c < 2; ++c)
      for (std::size_t i = 0; i < k; ++i) {
        theta[c * k + i] = split_->theta[c * p + members_[i]];
        var[c * k + i] = nb_var_[c * p + i];
      }
    return MakeGaussianNbModel(std::move(theta), std::move(var), split_->log_prior[0], split_->log_prior[1]);
  }

 private:
  void Bind(const GaussianNbSplit& split) {
    // Buffers only grow, so a fitter moved between splits of one shape allocates (and touches)
    // nothing new.
    split_ = &split;
    BindBase(split);
    const std::size_t p = split.n_columns();
    const std::size_t m = split.n_test();
    nb_var_.resize(2 * p);
    row_scratch_.resize(m);
    row_scratch2_.resize(m);
    nb_owner_ = 0;
    nb_cached_.clear();
    constexpr std::size_t kTermCacheDoubles = std::size_t{1} << 18;  // 2 MB
    const std::size_t terms = p * p * 2 * m;
    if (p <= 64 && terms <= kTermCacheDoubles) {
      // Uninitialised: every row is written before it is read (nb_cached_ says which).
      if (terms > nb_terms_size_) {
        nb_terms_.reset(new double[terms]);
        nb_terms_size_ = terms;
      }
      nb_cached_.assign(p * p, 0);
    } else {
      nb_terms_.reset();
      nb_terms_size_ = 0;
    }
    fitted_ = false;
  }

  // GaussianNB (sklearn 1.2 naive_bayes.py): var_ = class variance + epsilon with
  // epsilon = var_smoothing * max_j var(X_j) over the model's columns, so epsilon and hence
  // every per-column term depend on the coalition: recomputed here from the split's moments.
  void FitGaussianNb() {
    const std::size_t p = split_->n_columns();
    const std::size_t k = members_.size();
    double max_var = 0.0;
    nb_owner_ = 0;
    for (std::size_t q : members_) {
      if (split_->total_var[q] > max_var) nb_owner_ = q;
      max_var = std::max(max_var, split_->total_var[q]);
    }
    const double epsilon = split_->var_smoothing * max_var;
    for (std::size_t c = 0; c < 2; ++c) {
      double sum_log = 0.0;
      for (std::size_t i = 0; i < k; ++i) {
        const double v = split_->var[c * p + members_[i]] + epsilon;
        nb_var_[c * p + i] = v;
        sum_log += std::log(2.0 * std::numbers::pi * v);
      }
      nb_const_[c] = -0.5 * sum_log;
    }
    for (std::size_t i = 0; i < k; ++i)
      if (!(nb_var_[i] > 0.0) || !(nb_var_[p + i] > 0.0))
        ThrowForCoalition(
            "feature " + Quote(split_->column_name(members_[i])) + " is constant within class " +
                (nb_var_[i] > 0.0 ? "1" : "0") +
                " of the training rows (variance 0) and the smoothing added to it (the learner option "
                "var_smoothing " +
                FormatNumber(split_->var_smoothing) + " x the largest feature variance) is 0",
            "drop that feature, or give var_smoothing a value > 0 (sklearn's default is 1e-9)",
            {"var_smoothing"});
  }

  // Member `slot`'s quadratic term (x - theta_cq)^2 / var_cq (var smoothed by this coalition's
  // epsilon) over the test rows: from the cache, filled on first use.
  const double* Terms(std::size_t position, std::size_t slot, std::size_t c) {
    const std::size_t m = split_->n_test();
    const std::size_t p = split_->n_columns();
    double* const t = nb_terms_.get() + ((nb_owner_ * p + position) * 2 + c) * m;
    std::uint8_t& cached = nb_cached_[nb_owner_ * p + position];
    if ((cached >> c & 1) == 0) {
      const double theta = split_->theta[c * p + position];
      const double var = nb_var_[c * p + slot];
      const double* x = split_->test.data() + position * m;
#if defined(PERFSHAP_X86_KERNELS)
      if (HasAvx512()) {
        NbTermsAvx512(x, theta, var, t, m);
        cached = static_cast<std::uint8_t>(cached | (1 << c));
        return t;
      }
#endif
      for (std::size_t r = 0; r < m; ++r) {
        const double d = x[r] - theta;
        t[r] = d * d / var;
      }
      cached = static_cast<std::uint8_t>(cached | (1 << c));
    }
    return t;
  }

  // sklearn _joint_log_likelihood: log prior + (-0.5 sum log(2 pi var) - 0.5 sum (x - theta)^2 /
  // var), the quadratic term summed over the columns in order (from 0: the first term is
  // copied, 0 + t being t for t >= 0).
  void JointLogLikelihoods(double* jll0, double* jll1) {
    const std::size_t m = split_->n_test();
    const std::size_t p = split_->n_columns();
    const std::size_t k = members_.size();
    double* quad[2] = {jll0, jll1};
    const bool cache = nb_terms_ != nullptr;
#if defined(PERFSHAP_X86_KERNELS)
    if (cache && HasAvx512() && k <= kMaxNbMembers) {
      const double* terms[kMaxNbMembers];
      for (std::size_t c = 0; c < 2; ++c) {
        for (std::size_t i = 0; i < k; ++i) terms[i] = Terms(members_[i], i, c);
        NbJointFromTermsAvx512(terms, k, split_->log_prior[c], nb_const_[c], quad[c], m);
      }
      return;
    }
#endif
    for (std::size_t c = 0; c < 2; ++c) {
      double* const sum = quad[c];
      if (k == 0) std::fill(sum, sum + m, 0.0);
      for (std::size_t i = 0; i < k; ++i) {
        if (cache) {
          const double* t = Terms(members_[i], i, c);
          if (i == 0) {
            std::copy(t, t + m, sum);
          } else {
            for (std::size_t r = 0; r < m; ++r) sum[r] += t[r];
          }
          continue;
        }
        if (i == 0) std::fill(sum, sum + m, 0.0);
        const double theta = split_->theta[c * p + members_[i]];
        const double var = nb_var_[c * p + i];
        const double* x = split_->test.data() + members_[i] * m;
        for (std::size_t r = 0; r < m; ++r) {
          const double d = x[r] - theta;
          sum[r] += d * d / var;
        }
      }
      const double head = split_->log_prior[c];
      const double constant = nb_const_[c];
      for (std::size_t r = 0; r < m; ++r) sum[r] = head + (constant - 0.5 * sum[r]);
    }
  }

  const GaussianNbSplit* split_ = nullptr;
  // Per coalition: smoothed variances of its members (class c at [c * p + i]) and the per-class
  // constant -0.5 sum log(2 pi var).
  std::vector<double> nb_var_;
  double nb_const_[2] = {0.0, 0.0};
  // The member whose overall variance sets epsilon, and a cache of the quadratic terms of each
  // (owner o, position q, class c) over the test rows at [((o * p + q) * 2 + c) * n_test]
  // (filled on first use, flag in nb_cached_), kept while it stays under kTermCacheDoubles: a
  // coalition's log-likelihoods are then sums of cached rows, with the same values and the same
  // order of additions.
  std::size_t nb_owner_ = 0;
  std::unique_ptr<double[]> nb_terms_;
  std::size_t nb_terms_size_ = 0;
  std::vector<std::uint8_t> nb_cached_;
  std::vector<double> row_scratch_;
  std::vector<double> row_scratch2_;
  GaussianNbRanking ranking_;
};

std::unique_ptr<CoalitionFitter> GaussianNbSplit::MakeFitter() const {
  return std::make_unique<GaussianNbFitter>(*this);
}

class GaussianNbLearner final : public Learner {
 public:
  explicit GaussianNbLearner(const GaussianNbOptions& options) : options_(options) {
    PERFSHAP_CHECK(std::isfinite(options.var_smoothing) && options.var_smoothing >= 0.0,
                   "learner option var_smoothing must be a finite number >= 0, got " +
                       FormatNumber(options.var_smoothing),
                   {"var_smoothing"});
  }
  const std::string& name() const noexcept override { return name_; }
  bool is_classifier() const noexcept override { return true; }
  bool makes_additive_models() const noexcept override { return true; }
  LearnerParams params() const override { return {{"var_smoothing", ParamText(options_.var_smoothing)}}; }
  std::unique_ptr<PreparedSplit> Prepare(const Dataset& data, std::span<const Player> players,
                                         std::span<const std::size_t> train_rows,
                                         std::span<const std::size_t> test_rows,
                                         const std::string& split_name) const override {
    return std::make_unique<GaussianNbSplit>(options_, data, players, train_rows, test_rows, split_name);
  }

 private:
  std::string name_ = "gnb";
  GaussianNbOptions options_;
};

}  // namespace

const OptionTable<GaussianNbOptions>& GaussianNbOptionTable() {
  static const OptionTable<GaussianNbOptions> table = [] {
    OptionTable<GaussianNbOptions> t("learner gnb");
    t.Add("var_smoothing", &GaussianNbOptions::var_smoothing)
        .Help("variance smoothing, x the largest column variance")
        .AtLeast(0.0);
    return t;
  }();
  return table;
}

LearnerEntry GaussianNbEntry() {
  return DeclaredLearnerEntry(
      "gnb",
      "Gaussian naive Bayes, exactly scikit-learn's GaussianNB()",
      GaussianNbOptionTable(), [](const GaussianNbOptions& o) { return MakeGaussianNbLearner(o); });
}

bool RankGaussianNbTest(CoalitionFitter& fitter, RankedTest& out, RankKernel kernel) {
  auto* nb = dynamic_cast<GaussianNbFitter*>(&fitter);
  PERFSHAP_CHECK(nb != nullptr, "RankGaussianNbTest: not a gnb fitter");
  return nb->RankTest(out, kernel);
}

}}}  // namespace perfshap::detail

namespace perfshap { inline namespace v0 {
std::shared_ptr<const Learner> MakeGaussianNbLearner(const GaussianNbOptions& options) {
  return std::make_shared<detail::GaussianNbLearner>(options);
}
}}  // namespace perfshap
