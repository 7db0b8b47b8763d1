// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "models/coalition_trainer.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <type_traits>
#include <utility>

#include "common/vector_kernels.hpp"
#include "common/x86_intrinsics.hpp"
#include "models/gaussian_nb_model.hpp"
#include "perfshap/error.hpp"

namespace perfshap::detail {
namespace {

using MatrixMap = Eigen::Map<Eigen::MatrixXd>;
using VectorMap = Eigen::Map<Eigen::VectorXd>;
using ConstMatrixMap = Eigen::Map<const Eigen::MatrixXd>;
using ConstVectorMap = Eigen::Map<const Eigen::VectorXd>;

constexpr double kSqrtHalf = 0.70710678118654752440;      // 1 / sqrt(2)
constexpr double kLogSqrtTwoPi = 0.91893853320467274178;  // log(sqrt(2 pi))

std::string Quote(const std::string& s) { return "'" + s + "'"; }

std::string FormatNumber(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

/**
 * In-place Cholesky factorisation A = L L^T of the leading n x n block of a (column-major,
 * leading dimension n, lower triangle used) and solve of A x = b (b overwritten by x).
 * Returns the index of the first pivot that is not positive relative to its original
 * diagonal (a (near) linear dependence of that column on the earlier ones), or -1.
 * Hand-written so that it allocates nothing for any n.
 */
long CholeskySolve(double* a, std::size_t n, double* b, double relative_pivot) {
  for (std::size_t j = 0; j < n; ++j) {
    const double original = a[j * n + j];
    double d = original;
    for (std::size_t k = 0; k < j; ++k) d -= a[k * n + j] * a[k * n + j];
    if (!(d > relative_pivot * original) || !std::isfinite(d)) return static_cast<long>(j);
    const double l = std::sqrt(d);
    a[j * n + j] = l;
    for (std::size_t i = j + 1; i < n; ++i) {
      double v = a[j * n + i];
      for (std::size_t k = 0; k < j; ++k) v -= a[k * n + i] * a[k * n + j];
      a[j * n + i] = v / l;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {  // L y = b
    double v = b[i];
    for (std::size_t k = 0; k < i; ++k) v -= a[k * n + i] * b[k];
    b[i] = v / a[i * n + i];
  }
  for (std::size_t i = n; i-- > 0;) {  // L^T x = y
    double v = b[i];
    for (std::size_t k = i + 1; k < n; ++k) v -= a[i * n + k] * b[k];
    b[i] = v / a[i * n + i];
  }
  return -1;
}

/**
 * The inverse Mills ratio phi(z) / Phi(z) of the standard normal, accurate in both tails:
 * erfc directly for z > -30, and for x = -z >= 30 the Laplace continued fraction
 * Q(x) / phi(x) = 1 / (x + 1 / (x + 2 / (x + 3 / (x + ...)))).
 */
double InverseMills(double z) {
  if (z > -30.0) return std::exp(-0.5 * z * z - kLogSqrtTwoPi) / (0.5 * std::erfc(-z * kSqrtHalf));
  const double x = -z;
  double t = x;
  for (int k = 60; k >= 1; --k) t = x + k / t;
  return t;
}

/** log Phi(z), accurate in both tails (log1p near Phi = 1, the continued fraction far left). */
double NormalLogCdf(double z) {
  if (z > 0.0) return std::log1p(-0.5 * std::erfc(z * kSqrtHalf));
  if (z > -30.0) return std::log(0.5 * std::erfc(-z * kSqrtHalf));
  return -0.5 * z * z - kLogSqrtTwoPi - std::log(InverseMills(z));
}

/** The normal CDF as scipy.special.ndtr (cephes): erf near 0, erfc in the tails. */
double Ndtr(double a) {
  const double x = a * kSqrtHalf;
  const double z = std::abs(x);
  if (z < kSqrtHalf) return 0.5 + 0.5 * std::erf(x);
  const double y = 0.5 * std::erfc(z);
  return x > 0.0 ? 1.0 - y : y;
}

/// Calls f(std::integral_constant<std::size_t, w>{}) for w in 1..4: the compile-time width
/// lets a loop over w players keep their sums in registers.
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

/// The loop both GaussianNB moment passes share: for every training row in order, and each of
/// the W players whose columns start at col, add(k, value, label, 1 - label).
template <std::size_t W, class Add>
void ForTrainingValues(const double* const* col, std::span<const std::size_t> rows, const double* y, Add&& add) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::size_t r = rows[i];
    const double y1 = y[i];
    const double y0 = 1.0 - y1;
    for (std::size_t k = 0; k < W; ++k) add(k, col[k][r], y1, y0);
  }
}

#if defined(PERFSHAP_X86_KERNELS)
/// The most coalition members whose cached terms the AVX-512 joint log-likelihood sums at once
/// (the term cache holds at most 64 players).
constexpr std::size_t kMaxNbMembers = 64;

/// The four players' values of training row r, player k in lane k.
__attribute__((target("avx2"), always_inline)) inline __m256d FourValues(const double* const* col,
                                                                        std::size_t r) noexcept {
  return _mm256_set_pd(col[3][r], col[2][r], col[1][r], col[0][r]);
}

/// Pass 1 of PrepareGaussianNb for four players, one lane each: the same operations per player
/// and row, in row order, as the portable loop (sum, sums masked by class, v * 0, v != first).
__attribute__((target("avx2"))) void MomentSumsAvx2(const double* const* col, std::span<const std::size_t> rows,
                                                    const double* y, double* sum, double* sum1, double* sum0,
                                                    double* nan, bool* differs) noexcept {
  const __m256d zero = _mm256_setzero_pd();
  const __m256d first = FourValues(col, rows[0]);
  __m256d s = zero;
  __m256d s1 = zero;
  __m256d s0 = zero;
  __m256d not_finite = zero;
  __m256d changed = zero;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const __m256d v = FourValues(col, rows[i]);
    const double y1 = y[i];
    const __m256d label1 = _mm256_set1_pd(y1);
    const __m256d label0 = _mm256_set1_pd(1.0 - y1);
    s = _mm256_add_pd(s, v);
    s1 = _mm256_add_pd(s1, _mm256_mul_pd(label1, v));
    s0 = _mm256_add_pd(s0, _mm256_mul_pd(label0, v));
    not_finite = _mm256_add_pd(not_finite, _mm256_mul_pd(v, zero));
    changed = _mm256_or_pd(changed, _mm256_cmp_pd(v, first, _CMP_NEQ_UQ));
  }
  _mm256_storeu_pd(sum, s);
  _mm256_storeu_pd(sum1, s1);
  _mm256_storeu_pd(sum0, s0);
  _mm256_storeu_pd(nan, not_finite);
  const int mask = _mm256_movemask_pd(changed);
  for (int k = 0; k < 4; ++k) differs[k] = (mask >> k & 1) != 0;
}

/// Pass 2 for four players: squared deviations from the overall and the class means, as the
/// portable loop.
__attribute__((target("avx2"))) void MomentSquaresAvx2(const double* const* col, std::span<const std::size_t> rows,
                                                       const double* y, const double* mean, const double* theta1,
                                                       const double* theta0, double* ss, double* ss1,
                                                       double* ss0) noexcept {
  const __m256d mu = _mm256_loadu_pd(mean);
  const __m256d t1 = _mm256_loadu_pd(theta1);
  const __m256d t0 = _mm256_loadu_pd(theta0);
  __m256d q = _mm256_setzero_pd();
  __m256d q1 = q;
  __m256d q0 = q;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const __m256d v = FourValues(col, rows[i]);
    const double y1 = y[i];
    const __m256d label1 = _mm256_set1_pd(y1);
    const __m256d label0 = _mm256_set1_pd(1.0 - y1);
    const __m256d d = _mm256_sub_pd(v, mu);
    const __m256d d1 = _mm256_sub_pd(v, t1);
    const __m256d d0 = _mm256_sub_pd(v, t0);
    q = _mm256_add_pd(q, _mm256_mul_pd(d, d));
    q1 = _mm256_add_pd(q1, _mm256_mul_pd(label1, _mm256_mul_pd(d1, d1)));
    q0 = _mm256_add_pd(q0, _mm256_mul_pd(label0, _mm256_mul_pd(d0, d0)));
  }
  _mm256_storeu_pd(ss, q);
  _mm256_storeu_pd(ss1, q1);
  _mm256_storeu_pd(ss0, q0);
}

/// GaussianNB's quadratic term of one player and class over the test rows, eight rows at a
/// time: t = (x - theta)^2 / var, as the portable loop.
__attribute__((target("avx512f"))) void NbTermsAvx512(const double* x, double theta, double var, double* t,
                                                      std::size_t m) noexcept {
  const __m512d center = _mm512_set1_pd(theta);
  const __m512d scale = _mm512_set1_pd(var);
  std::size_t r = 0;
  for (; r + 8 <= m; r += 8) {
    const __m512d d = _mm512_sub_pd(_mm512_loadu_pd(x + r), center);
    _mm512_storeu_pd(t + r, _mm512_div_pd(_mm512_mul_pd(d, d), scale));
  }
  if (r < m) {
    const auto live = static_cast<__mmask8>((1u << (m - r)) - 1u);
    const __m512d d = _mm512_sub_pd(_mm512_maskz_loadu_pd(live, x + r), center);
    _mm512_mask_storeu_pd(t + r, live, _mm512_div_pd(_mm512_mul_pd(d, d), scale));
  }
}

/// One class's joint log-likelihoods from the coalition's cached terms, eight rows at a time in
/// one pass: head + (constant - 0.5 ((t_0 + t_1) + ...)), the portable passes' operations.
__attribute__((target("avx512f"))) void NbJointFromTermsAvx512(const double* const* terms, std::size_t k,
                                                               double head, double constant, double* q,
                                                               std::size_t m) noexcept {
  const __m512d h = _mm512_set1_pd(head);
  const __m512d c = _mm512_set1_pd(constant);
  const __m512d half = _mm512_set1_pd(0.5);
  for (std::size_t r = 0; r < m; r += 8) {
    const auto live = static_cast<__mmask8>(m - r >= 8 ? 0xFFu : (1u << (m - r)) - 1u);
    __m512d sum = k == 0 ? _mm512_setzero_pd() : _mm512_maskz_loadu_pd(live, terms[0] + r);
    for (std::size_t i = 1; i < k; ++i) sum = _mm512_add_pd(sum, _mm512_maskz_loadu_pd(live, terms[i] + r));
    _mm512_mask_storeu_pd(q + r, live, _mm512_add_pd(h, _mm512_sub_pd(c, _mm512_mul_pd(half, sum))));
  }
}
#endif

}  // namespace

// ---------------------------------------------------------------------------------------
// PreparedSplit

PreparedSplit::PreparedSplit(LearnerKind kind, const Dataset& data, std::span<const std::size_t> columns,
                             std::span<const std::size_t> train_rows, std::span<const std::size_t> test_rows,
                             const LearnerOptions& options, std::string split_name)
    : kind_(kind), options_(options), split_name_(std::move(split_name)), source_(data.source()) {
  const std::string learner = LearnerName(kind);
  PERFSHAP_CHECK(columns.size() <= static_cast<std::size_t>(kMaxExactPlayers),
                 learner + ": at most 63 feature columns per model, got " + std::to_string(columns.size()));
  for (std::size_t c : columns)
    PERFSHAP_CHECK(c < data.n_features(), learner + ": feature column index " + std::to_string(c) +
                                              " is out of range (the data has " +
                                              std::to_string(data.n_features()) + " features)");
  PERFSHAP_CHECK(train_rows.size() >= 2,
                 learner + ": need at least 2 training rows, got " + std::to_string(train_rows.size()));
  for (auto rows : {train_rows, test_rows}) {
    std::size_t largest = 0;  // one check per list: a branch-free max
    for (std::size_t r : rows) largest = std::max(largest, r);
    if (largest >= data.n_rows())
      for (std::size_t r : rows)
        PERFSHAP_CHECK(r < data.n_rows(), learner + ": row index " + std::to_string(r) +
                                              " is out of range (the data has " +
                                              std::to_string(data.n_rows()) + " rows)");
  }
  PERFSHAP_CHECK(std::isfinite(options.C) && options.C > 0.0,
                 "learner option C must be a finite number > 0, got " + FormatNumber(options.C));
  PERFSHAP_CHECK(std::isfinite(options.ridge) && options.ridge >= 0.0,
                 "learner option ridge must be a finite number >= 0, got " + FormatNumber(options.ridge));
  PERFSHAP_CHECK(std::isfinite(options.var_smoothing) && options.var_smoothing >= 0.0,
                 "learner option var_smoothing must be a finite number >= 0, got " +
                     FormatNumber(options.var_smoothing));
  PERFSHAP_CHECK(options.gradient_tolerance > 0.0 && options.gradient_tolerance <= 0.01,
                 "learner option gradient_tolerance must lie in (0, 0.01], got " +
                     FormatNumber(options.gradient_tolerance));
  PERFSHAP_CHECK(options.max_iterations >= 1, "learner option max_iterations must be >= 1");
  if (data.label().size() != data.n_rows())
    throw DataError(source_ + ": the data has no label column; " + learner + " needs one (--label)");

  p_ = columns.size();
  n_train_ = train_rows.size();
  n_test_ = test_rows.size();
  names_.reserve(p_);
  for (std::size_t c : columns) names_.push_back(data.feature_names()[c]);

  // Labels.
  const auto label = data.label();
  train_label_.resize(n_train_);
  test_label_.resize(n_test_);
  for (std::size_t i = 0; i < n_train_; ++i) train_label_[i] = label[train_rows[i]];
  for (std::size_t i = 0; i < n_test_; ++i) test_label_[i] = label[test_rows[i]];
  if (IsClassifierLearner(kind)) {
    std::size_t ones = 0;
    std::size_t others = 0;
    for (std::size_t i = 0; i < n_train_; ++i) {
      const double v = train_label_[i];
      ones += v == 1.0 ? 1 : 0;
      others += (v != 0.0) & (v != 1.0) ? 1 : 0;
    }
    if (others != 0)
      for (std::size_t i = 0; i < n_train_; ++i) {
        const double v = train_label_[i];
        if (v != 0.0 && v != 1.0)
          throw DataError(source_ + ": label '" + data.label_name() + "' of data row " +
                          std::to_string(train_rows[i]) + " is " + FormatNumber(v) + ", but " + learner +
                          " needs a 0/1 label; name the positive class (--positive)");
      }
    class_count_[1] = static_cast<double>(ones);
    class_count_[0] = static_cast<double>(n_train_ - ones);
    if (class_count_[0] == 0.0 || class_count_[1] == 0.0)
      throw DataError(source_ + ": " + split_name_ + " hold one class only (all " + std::to_string(n_train_) +
                      " training labels are " + (class_count_[1] == 0.0 ? "negative" : "positive") + "); " +
                      learner + " needs both classes: use a stratified or larger training split");
  }

  if (kind == LearnerKind::kGaussianNb) {
    PrepareGaussianNb(data, columns, train_rows, test_rows);
    return;
  }

  // Gather the players' values; reject missing values and constant columns.
  // gnb needs only the moments of the training columns: they are read in place, not gathered.
  const bool nb = kind == LearnerKind::kGaussianNb;
  if (!nb) train_.resize(p_ * n_train_);
  test_.resize(p_ * n_test_);
  center_.assign(p_, 0.0);
  scale_.assign(p_, 1.0);
  total_var_.assign(p_, 0.0);
  abs_sum_.assign(p_, 0.0);
  const bool standardize = options.standardize && !nb;
  if (nb) {
    theta_.assign(2 * p_, 0.0);
    var_.assign(2 * p_, 0.0);
    for (int c = 0; c < 2; ++c) log_prior_[c] = std::log(class_count_[c] / static_cast<double>(n_train_));
  }
  const double* y = train_label_.data();
  const double n = static_cast<double>(n_train_);
  for (std::size_t j = 0; j < p_; ++j) {
    const auto col = data.column(columns[j]);
    double* tr = nb ? nullptr : train_.data() + j * n_train_;
    double* te = test_.data() + j * n_test_;
    bool finite = true;
    for (std::size_t i = 0; i < n_test_; ++i) {
      te[i] = col[test_rows[i]];
      finite = finite && std::isfinite(te[i]);
    }
    // Means and ddof-0 variances summed in row order, as numpy's axis-0 reductions do (so
    // the reference's order of training rows gives its numbers bit for bit). The per-class
    // sums of gnb run alongside, masked by the 0/1 label: adding 0 * x leaves a sum unchanged.
    double lo = col[train_rows[0]];
    double hi = lo;
    double sum = 0.0;
    double sum_class[2] = {0.0, 0.0};
    for (std::size_t i = 0; i < n_train_; ++i) {
      const double v = col[train_rows[i]];
      if (!nb) tr[i] = v;
      finite = finite && std::isfinite(v);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      sum += v;
      if (nb) {
        sum_class[1] += y[i] * v;
        sum_class[0] += (1.0 - y[i]) * v;
      }
    }
    if (!finite) {
      for (auto [values, rows] : {std::pair{static_cast<const double*>(nullptr), train_rows},
                                  std::pair{static_cast<const double*>(te), test_rows}})
        for (std::size_t i = 0; i < rows.size(); ++i)
          if (!std::isfinite(values != nullptr ? values[i] : col[rows[i]]))
            throw DataError(source_ + ": feature " + Quote(names_[j]) + " has a missing value in data row " +
                            std::to_string(rows[i]) + "; drop or impute the row before training " + learner);
    }
    if (lo == hi)
      throw DataError(source_ + ": feature " + Quote(names_[j]) + " is constant on " + split_name_ +
                      " (all " + std::to_string(n_train_) + " values are " + FormatNumber(lo) +
                      "); drop the column");
    const double mean = sum / n;
    double theta[2] = {0.0, 0.0};
    if (nb)
      for (int c = 0; c < 2; ++c) theta[c] = sum_class[c] / class_count_[c];
    double ss = 0.0;
    double ss_class[2] = {0.0, 0.0};
    for (std::size_t i = 0; i < n_train_; ++i) {
      const double v = nb ? col[train_rows[i]] : tr[i];
      const double d = v - mean;
      ss += d * d;
      if (nb) {
        const double d1 = v - theta[1];
        const double d0 = v - theta[0];
        ss_class[1] += y[i] * (d1 * d1);
        ss_class[0] += (1.0 - y[i]) * (d0 * d0);
      }
    }
    total_var_[j] = ss / n;
    if (nb) {
      // sklearn GaussianNB._update_mean_variance with no past samples: np.mean, np.var.
      for (int c = 0; c < 2; ++c) {
        theta_[c * p_ + j] = theta[c];
        var_[c * p_ + j] = ss_class[c] / class_count_[c];
      }
      continue;
    }
    if (kind == LearnerKind::kLinear || standardize) center_[j] = mean;
    if (standardize) scale_[j] = std::sqrt(total_var_[j]);
    if (center_[j] != 0.0 || scale_[j] != 1.0) {
      for (std::size_t i = 0; i < n_train_; ++i) tr[i] = (tr[i] - center_[j]) / scale_[j];
      for (std::size_t i = 0; i < n_test_; ++i) te[i] = (te[i] - center_[j]) / scale_[j];
    }
    for (std::size_t i = 0; i < n_train_; ++i) abs_sum_[j] += std::abs(tr[i]);
  }

  if (kind == LearnerKind::kLinear) {
    double sum = 0.0;
    for (double v : train_label_) sum += v;
    label_mean_ = sum / n;
    const auto rows = static_cast<Eigen::Index>(n_train_);
    const auto cols = static_cast<Eigen::Index>(p_);
    gram_.resize(p_ * p_);
    xty_.resize(p_);
    ConstMatrixMap t(train_.data(), rows, cols);
    MatrixMap(gram_.data(), cols, cols).noalias() = t.transpose() * t;
    const Eigen::VectorXd centred = ConstVectorMap(train_label_.data(), rows).array() - label_mean_;
    VectorMap(xty_.data(), cols).noalias() = t.transpose() * centred;
  }
}

// gnb needs the test values and the moments of the training columns only: per player the
// ddof-0 variance over all training rows and per class the mean and ddof-0 variance, each
// summed in row order as numpy's axis-0 reductions do (so the reference's order of training
// rows gives its numbers bit for bit); the per-class sums run alongside, masked by the 0/1
// label (adding 0 * x leaves a sum unchanged). The rows are the outer loop and the players the
// inner one, so the players' sums advance together instead of one long chain of dependent
// additions per player; each player's own sums keep their order.
void PreparedSplit::PrepareGaussianNb(const Dataset& data, std::span<const std::size_t> columns,
                                      std::span<const std::size_t> train_rows,
                                      std::span<const std::size_t> test_rows) {
  const std::size_t p = p_;
  const std::string learner = LearnerName(kind_);
  test_.resize(p * n_test_);
  total_var_.assign(p, 0.0);
  theta_.assign(2 * p, 0.0);
  var_.assign(2 * p, 0.0);
  for (int c = 0; c < 2; ++c) log_prior_[c] = std::log(class_count_[c] / static_cast<double>(n_train_));
  std::vector<const double*> col(p);
  for (std::size_t j = 0; j < p; ++j) col[j] = data.column(columns[j]).data();
  std::vector<std::uint8_t> finite(p, 1);
  for (std::size_t j = 0; j < p; ++j) {
    double* te = test_.data() + j * n_test_;
    bool ok = true;
    for (std::size_t i = 0; i < n_test_; ++i) {
      te[i] = col[j][test_rows[i]];
      ok = ok && std::isfinite(te[i]);
    }
    finite[j] = ok ? 1 : 0;
  }
  // Pass 1: sums (overall, per class), whether the player varies, whether all is finite; up to
  // four players at a time, their sums kept in registers.
  std::vector<double> sum(p, 0.0), sum1(p, 0.0), sum0(p, 0.0), check(p, 0.0);
  std::vector<std::uint8_t> varies(p, 0);
  const double* y = train_label_.data();
#if defined(PERFSHAP_X86_KERNELS)
  const bool avx2 = HasAvx2();
#else
  [[maybe_unused]] const bool avx2 = false;
#endif
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
  // Errors in player order, as the gathering path reports them: a missing value (naming the
  // first such row, training rows first), else a constant player.
  for (std::size_t j = 0; j < p; ++j) {
    if (finite[j] == 0 || check[j] != 0.0) {
      for (auto rows : {train_rows, test_rows})
        for (std::size_t r : rows)
          if (!std::isfinite(col[j][r]))
            throw DataError(source_ + ": feature " + Quote(names_[j]) + " has a missing value in data row " +
                            std::to_string(r) + "; drop or impute the row before training " + learner);
    }
    if (varies[j] == 0)
      throw DataError(source_ + ": feature " + Quote(names_[j]) + " is constant on " + split_name_ + " (all " +
                      std::to_string(n_train_) + " values are " + FormatNumber(col[j][train_rows[0]]) +
                      "); drop the column");
  }
  // Pass 2: squared deviations from the overall and the class means.
  const double n = static_cast<double>(n_train_);
  std::vector<double> mean(p), theta1(p), theta0(p), ss(p, 0.0), ss1(p, 0.0), ss0(p, 0.0);
  for (std::size_t j = 0; j < p; ++j) {
    mean[j] = sum[j] / n;
    theta1[j] = sum1[j] / class_count_[1];
    theta0[j] = sum0[j] / class_count_[0];
  }
  for (std::size_t j0 = 0; j0 < p; j0 += 4) {
#if defined(PERFSHAP_X86_KERNELS)
    if (avx2 && p - j0 >= 4) {
      MomentSquaresAvx2(col.data() + j0, train_rows, y, mean.data() + j0, theta1.data() + j0, theta0.data() + j0,
                        ss.data() + j0, ss1.data() + j0, ss0.data() + j0);
      continue;
    }
#endif
    const auto pass2 = [&]<std::size_t W>(std::integral_constant<std::size_t, W>) {
      double q[W], q1[W], q0[W], mu[W], t1[W], t0[W];
      for (std::size_t k = 0; k < W; ++k) {
        q[k] = q1[k] = q0[k] = 0.0;
        mu[k] = mean[j0 + k];
        t1[k] = theta1[j0 + k];
        t0[k] = theta0[j0 + k];
      }
      ForTrainingValues<W>(col.data() + j0, train_rows, y, [&](std::size_t k, double v, double y1, double y0) {
        const double d = v - mu[k];
        const double d1 = v - t1[k];
        const double d0 = v - t0[k];
        q[k] += d * d;
        q1[k] += y1 * (d1 * d1);
        q0[k] += y0 * (d0 * d0);
      });
      for (std::size_t k = 0; k < W; ++k) {
        ss[j0 + k] = q[k];
        ss1[j0 + k] = q1[k];
        ss0[j0 + k] = q0[k];
      }
    };
    ForWidth(std::min<std::size_t>(4, p - j0), pass2);
  }
  // sklearn GaussianNB._update_mean_variance with no past samples: np.mean, np.var.
  for (std::size_t j = 0; j < p; ++j) {
    total_var_[j] = ss[j] / n;
    theta_[j] = theta0[j];
    theta_[p + j] = theta1[j];
    var_[j] = ss0[j] / class_count_[0];
    var_[p + j] = ss1[j] / class_count_[1];
  }
  center_.assign(p, 0.0);
  scale_.assign(p, 1.0);
  abs_sum_.assign(p, 0.0);
}

// ---------------------------------------------------------------------------------------
// CoalitionTrainer

CoalitionTrainer::CoalitionTrainer(const PreparedSplit& split) { Rebind(split); }

void CoalitionTrainer::Rebind(const PreparedSplit& split) {
  // Sizes follow the split; buffers only grow, so a trainer moved between splits of one shape
  // allocates (and touches) nothing new.
  split_ = &split;
  const std::size_t p = split.p_;
  const std::size_t n = split.n_train_;
  coalition_ = 0;
  added_ = -1;
  k_ = 0;
  members_.clear();
  members_.reserve(p);
  coef_.assign(p, 0.0);
  const bool newton = split.kind_ == LearnerKind::kLogistic || split.kind_ == LearnerKind::kProbit;
  if (newton) {
    design_.resize(n * (p + 1));
    weighted_.resize(n * (p + 1));
    eta_.resize(n);
    eta_try_.resize(n);
    direction_.resize(n);
    first_.resize(n);
    second_.resize(n);
  }
  beta_.resize(p + 1);
  beta_try_.resize(p + 1);
  grad_.resize(p + 1);
  hess_.resize((p + 1) * (p + 1));
  step_.resize(p + 1);
  nb_var_.resize(2 * p);
  row_scratch_.resize(split.n_test_);
  nb_owner_ = 0;
  nb_cached_.clear();
  if (split.kind_ == LearnerKind::kGaussianNb) {
    row_scratch2_.resize(split.n_test_);
    test_positive_.resize(split.n_test_);
    for (std::size_t r = 0; r < split.n_test_; ++r) test_positive_[r] = split.test_label_[r] == 1.0 ? 1 : 0;
    constexpr std::size_t kTermCacheDoubles = std::size_t{1} << 18;  // 2 MB
    const std::size_t terms = p * p * 2 * split.n_test_;
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
  } else {
    nb_terms_.reset();
    nb_terms_size_ = 0;
  }
  Reset();
}

void CoalitionTrainer::Reset() noexcept {
  intercept_ = 0.0;
  std::fill(coef_.begin(), coef_.end(), 0.0);
  fitted_ = false;
}

int CoalitionTrainer::Fit(Coalition s) {
  PERFSHAP_DCHECK(split_->p_ >= 64 || (s >> split_->p_) == 0);
  members_.clear();
  for (std::size_t j = 0; j < split_->p_; ++j)
    if (Contains(s, static_cast<int>(j))) members_.push_back(j);
  k_ = members_.size();
  // Players that left the coalition restart from 0 when they come back.
  for (std::size_t j = 0; j < split_->p_; ++j)
    if (!Contains(s, static_cast<int>(j))) coef_[j] = 0.0;
  // One player added to the last successfully fitted coalition: FitNewton may start it with
  // a one-dimensional Newton step from the derivatives it left behind.
  const Coalition added = s & ~coalition_;
  added_ = fitted_ && (coalition_ & ~s) == 0 && CoalitionSize(added) == 1 ? std::countr_zero(added) : -1;
  fitted_ = false;
  coalition_ = s;
  int iterations = 0;
  switch (split_->kind_) {
    case LearnerKind::kGaussianNb:
      FitGaussianNb();
      break;
    case LearnerKind::kLinear:
      FitLinear();
      break;
    case LearnerKind::kLogistic:
      iterations = FitNewton(false);
      break;
    case LearnerKind::kProbit:
      iterations = FitNewton(true);
      break;
  }
  fitted_ = true;
  return iterations;
}

void CoalitionTrainer::ThrowForCoalition(const std::string& what, const std::string& advice) const {
  std::string features;
  for (std::size_t i = 0; i < k_; ++i) features += (i ? ", " : "") + Quote(split_->names_[members_[i]]);
  throw DataError(split_->source_ + ": " + LearnerName(split_->kind_) + " on " + split_->split_name_ +
                  " with features {" + features + "}: " + what + "; " + advice);
}

// GaussianNB (sklearn 1.2 naive_bayes.py): var_ = class variance + epsilon with
// epsilon = var_smoothing * max_j var(X_j) over the model's columns, so epsilon and hence
// every per-feature term depend on the coalition: recomputed here from the split's moments.
void CoalitionTrainer::FitGaussianNb() {
  const std::size_t p = split_->p_;
  double max_var = 0.0;
  nb_owner_ = 0;
  for (std::size_t j : members_) {
    if (split_->total_var_[j] > max_var) nb_owner_ = j;
    max_var = std::max(max_var, split_->total_var_[j]);
  }
  const double epsilon = split_->options_.var_smoothing * max_var;
  for (int c = 0; c < 2; ++c) {
    double sum_log = 0.0;
    for (std::size_t i = 0; i < k_; ++i) {
      const double v = split_->var_[c * p + members_[i]] + epsilon;
      nb_var_[c * p + i] = v;
      sum_log += std::log(2.0 * std::numbers::pi * v);
    }
    nb_const_[c] = -0.5 * sum_log;
  }
  for (std::size_t i = 0; i < k_; ++i)
    if (!(nb_var_[i] > 0.0) || !(nb_var_[p + i] > 0.0))
      ThrowForCoalition("a class variance is 0 and var_smoothing is 0", "set var_smoothing > 0");
}

// Least squares from the Gram matrix of the (centred or standardised) training columns:
// beta = (G_SS + ridge I)^-1 X_S^T (y - ybar), intercept = ybar in the transformed space.
void CoalitionTrainer::FitLinear() {
  const std::size_t p = split_->p_;
  const std::size_t k = k_;
  for (std::size_t a = 0; a < k; ++a) {
    for (std::size_t b = 0; b < k; ++b) hess_[a * k + b] = split_->gram_[members_[a] * p + members_[b]];
    hess_[a * k + a] += split_->options_.ridge;
    step_[a] = split_->xty_[members_[a]];
  }
  const long bad = CholeskySolve(hess_.data(), k, step_.data(), 1e-12);
  if (bad >= 0)
    ThrowForCoalition("feature " + Quote(split_->names_[members_[static_cast<std::size_t>(bad)]]) +
                          " is a linear combination of the features before it on the training rows",
                      "drop one of the collinear columns, or set a ridge penalty");
  intercept_ = split_->label_mean_;
  for (std::size_t a = 0; a < k; ++a) coef_[members_[a]] = step_[a];
}

// Newton's method on the convex objective
//   logistic: f(b, w) = 0.5 ||w||^2 + C sum_i log(1 + exp(-q_i eta_i)), q_i = 2 y_i - 1,
//   probit:   f(b, w) = -sum_i log Phi(q_i eta_i),
// with eta = b + X_S w, warm-started from the previous coalition. A full Newton step is taken
// when it shrinks the scaled gradient; otherwise (rare: far from the optimum) Armijo
// backtracking on f decides, with a rounding slack so that steps whose decrease is below
// the rounding of f are still taken. The objective, whose logarithms cost as much as the
// rest of an iteration, is only evaluated then. Stops when |grad_j| <= tol * C sum_i |x_ij|.
int CoalitionTrainer::FitNewton(bool probit) {
  const std::size_t n = split_->n_train_;
  const std::size_t k1 = k_ + 1;
  const auto en = static_cast<Eigen::Index>(n);
  const auto ek1 = static_cast<Eigen::Index>(k1);
  const double c = probit ? 1.0 : split_->options_.C;
  const double penalty = probit ? 0.0 : 1.0;
  const double tol = split_->options_.gradient_tolerance;
  const double* y = split_->train_label_.data();

  // Design: a column of ones, then the coalition's (transformed) training columns.
  std::fill(design_.begin(), design_.begin() + static_cast<std::ptrdiff_t>(n), 1.0);
  for (std::size_t i = 0; i < k_; ++i)
    std::copy_n(split_->train_.data() + members_[i] * n, n, design_.data() + (i + 1) * n);
  beta_[0] = intercept_;
  for (std::size_t i = 0; i < k_; ++i) beta_[i + 1] = coef_[members_[i]];
  const MatrixMap x(design_.data(), en, ek1);
  if (added_ >= 0) {
    // first_ and second_ still hold the loss derivatives at the previous optimum, which is
    // where this fit starts with the added player at 0: one Newton step in its coordinate.
    const auto j = static_cast<std::size_t>(added_);
    const double* col = split_->train_.data() + j * n;
    double g = 0.0;
    double h = 0.0;
    for (std::size_t r = 0; r < n; ++r) {
      g += first_[r] * col[r];
      h += second_[r] * col[r] * col[r];
    }
    h = c * h + penalty;
    const auto pos =
        static_cast<std::size_t>(std::find(members_.begin(), members_.end(), j) - members_.begin());
    if (h > 0.0 && std::isfinite(g)) beta_[pos + 1] = -c * g / h;
  }

  // First and second derivatives of the per-row loss w.r.t. eta, into first_ / second_.
  auto derivatives = [&](const double* eta) {
    double min_margin = std::numeric_limits<double>::infinity();
    for (std::size_t r = 0; r < n; ++r) {
      const double q = y[r] == 1.0 ? 1.0 : -1.0;
      if (probit) {
        const double z = q * eta[r];
        const double mills = InverseMills(z);
        min_margin = std::min(min_margin, z);
        first_[r] = -q * mills;
        second_[r] = mills * (mills + z);
      } else {
        const double e = std::exp(-std::abs(eta[r]));
        const double inv = 1.0 / (1.0 + e);
        first_[r] = (eta[r] >= 0.0 ? inv : e * inv) - y[r];
        second_[r] = e * inv * inv;
      }
    }
    // Phi(6.4) > 1 - 1e-10: every fitted probability equals its label to 1e-10, a point that
    // exists only when the classes are separable.
    if (probit && min_margin > 6.4)
      ThrowForCoalition("the training labels are perfectly separated (every fitted probability is 0 or 1)",
                        "the maximum-likelihood coefficients are infinite: drop the separating feature or "
                        "use --model logistic");
  };
  // Gradient c X^T first + penalty * w into grad; returns max_j |grad_j| / scale_j.
  auto gradient = [&](const double* beta, double* grad) {
    VectorMap g(grad, ek1);
    g.noalias() = x.transpose() * VectorMap(first_.data(), en);
    double worst = 0.0;
    for (std::size_t i = 0; i < k1; ++i) {
      grad[i] *= c;
      if (i > 0) grad[i] += penalty * beta[i];
      const double scale = c * (i == 0 ? static_cast<double>(n) : split_->abs_sum_[members_[i - 1]]);
      worst = std::max(worst, std::abs(grad[i]) / scale);
    }
    return worst;
  };
  auto objective = [&](const double* eta, const double* beta) {
    double loss = 0.0;
    for (std::size_t r = 0; r < n; ++r) {
      const double margin = (y[r] == 1.0 ? 1.0 : -1.0) * eta[r];
      if (probit) {
        loss -= NormalLogCdf(margin);
      } else {
        loss += std::log1p(std::exp(-std::abs(margin))) + (margin < 0.0 ? -margin : 0.0);
      }
    }
    double reg = 0.0;
    for (std::size_t i = 1; i < k1; ++i) reg += beta[i] * beta[i];
    return c * loss + 0.5 * penalty * reg;
  };

  VectorMap(eta_.data(), en).noalias() = x * VectorMap(beta_.data(), ek1);
  derivatives(eta_.data());
  double gnorm = gradient(beta_.data(), grad_.data());
  for (int iteration = 0;; ++iteration) {
    if (gnorm <= tol) {
      intercept_ = beta_[0];
      for (std::size_t i = 0; i < k_; ++i) coef_[members_[i]] = beta_[i + 1];
      return iteration;
    }
    if (iteration == split_->options_.max_iterations) break;
    // Hessian c X^T diag(second) X + penalty on the slopes: lower triangle by column dot
    // products (cheaper than a GEMM at these sizes).
    MatrixMap weighted(weighted_.data(), en, ek1);
    weighted = x.array().colwise() * VectorMap(second_.data(), en).array();
    MatrixMap hess(hess_.data(), ek1, ek1);
    for (Eigen::Index b = 0; b < ek1; ++b)
      for (Eigen::Index a = b; a < ek1; ++a) hess(a, b) = c * x.col(a).dot(weighted.col(b));
    for (Eigen::Index i = 1; i < ek1; ++i) hess(i, i) += penalty;
    std::copy_n(grad_.data(), k1, step_.data());
    const long bad = CholeskySolve(hess_.data(), k1, step_.data(), 1e-14);
    if (bad >= 0) {
      const std::string who =
          bad == 0 ? std::string("the intercept")
                   : "feature " + Quote(split_->names_[members_[static_cast<std::size_t>(bad) - 1]]);
      ThrowForCoalition(
          "the Hessian is singular at " + who + " (collinear columns, or fitted probabilities all 0 or 1)",
          "drop a collinear or separating feature");
    }
    VectorMap(direction_.data(), en).noalias() = x * VectorMap(step_.data(), ek1);
    // Full step first.
    for (std::size_t i = 0; i < k1; ++i) beta_try_[i] = beta_[i] - step_[i];
    for (std::size_t r = 0; r < n; ++r) eta_try_[r] = eta_[r] - direction_[r];
    derivatives(eta_try_.data());
    double gnorm_try = gradient(beta_try_.data(), weighted_.data());  // weighted_ is free now
    if (!(gnorm_try < gnorm)) {
      // Backtrack on the objective (Armijo), from the full step.
      const double decrease = VectorMap(grad_.data(), ek1).dot(VectorMap(step_.data(), ek1));
      const double f = objective(eta_.data(), beta_.data());
      const double slack = 64.0 * std::numeric_limits<double>::epsilon() * std::abs(f);
      double t = 1.0;
      while (!(objective(eta_try_.data(), beta_try_.data()) <= f - 1e-4 * t * decrease + slack)) {
        t *= 0.5;
        if (t < 1e-20)
          ThrowForCoalition("Newton's method made no progress (the objective is flat or not finite)",
                            "check the feature scales, or use --model logistic");
        for (std::size_t i = 0; i < k1; ++i) beta_try_[i] = beta_[i] - t * step_[i];
        for (std::size_t r = 0; r < n; ++r) eta_try_[r] = eta_[r] - t * direction_[r];
      }
      if (t < 1.0) {
        derivatives(eta_try_.data());
        gnorm_try = gradient(beta_try_.data(), weighted_.data());
      }
    }
    std::swap(beta_, beta_try_);
    std::swap(eta_, eta_try_);
    std::copy_n(weighted_.data(), k1, grad_.data());
    gnorm = gnorm_try;
  }
  ThrowForCoalition("Newton's method did not converge in " + std::to_string(split_->options_.max_iterations) +
                        " iterations (quasi-separated classes?)",
                    "raise max_iterations, drop a separating feature, or use --model logistic");
}

void CoalitionTrainer::Index(std::span<double> out) const {
  const std::size_t m = split_->n_test_;
  std::fill(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(m), 0.0);
  // One pass per player in increasing order: every row sees the same operations.
  for (std::size_t j : members_) {
    const double w = coef_[j];
    const double* t = split_->test_.data() + j * m;
    for (std::size_t r = 0; r < m; ++r) out[r] += w * t[r];
  }
  for (std::size_t r = 0; r < m; ++r) out[r] += intercept_;
}

// Member `slot`'s quadratic term (x - theta_cj)^2 / var_cj (var smoothed by this coalition's
// epsilon) over the test rows: from the cache, filled on first use.
const double* CoalitionTrainer::GaussianNbTerms(std::size_t player, std::size_t slot, int c) {
  const std::size_t m = split_->n_test_;
  const std::size_t p = split_->p_;
  double* const t = nb_terms_.get() + ((nb_owner_ * p + player) * 2 + static_cast<std::size_t>(c)) * m;
  std::uint8_t& cached = nb_cached_[nb_owner_ * p + player];
  if ((cached >> c & 1) == 0) {
    const double theta = split_->theta_[static_cast<std::size_t>(c) * p + player];
    const double var = nb_var_[static_cast<std::size_t>(c) * p + slot];
    const double* x = split_->test_.data() + player * m;
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
// var), the quadratic term summed over the players in order (from 0: the first term is copied,
// 0 + t being t for t >= 0).
void CoalitionTrainer::JointLogLikelihoods(double* jll0, double* jll1) {
  const std::size_t m = split_->n_test_;
  const std::size_t p = split_->p_;
  double* quad[2] = {jll0, jll1};
  const bool cache = nb_terms_ != nullptr;
#if defined(PERFSHAP_X86_KERNELS)
  if (cache && HasAvx512() && k_ <= kMaxNbMembers) {
    const double* terms[kMaxNbMembers];
    for (int c = 0; c < 2; ++c) {
      for (std::size_t i = 0; i < k_; ++i) terms[i] = GaussianNbTerms(members_[i], i, c);
      NbJointFromTermsAvx512(terms, k_, split_->log_prior_[c], nb_const_[c], quad[c], m);
    }
    return;
  }
#endif
  for (int c = 0; c < 2; ++c) {
    double* const q = quad[c];
    if (k_ == 0) std::fill(q, q + m, 0.0);
    for (std::size_t i = 0; i < k_; ++i) {
      if (cache) {
        const double* t = GaussianNbTerms(members_[i], i, c);
        if (i == 0) {
          std::copy(t, t + m, q);
        } else {
          for (std::size_t r = 0; r < m; ++r) q[r] += t[r];
        }
        continue;
      }
      if (i == 0) std::fill(q, q + m, 0.0);
      const double theta = split_->theta_[static_cast<std::size_t>(c) * p + members_[i]];
      const double var = nb_var_[static_cast<std::size_t>(c) * p + i];
      const double* x = split_->test_.data() + members_[i] * m;
      for (std::size_t r = 0; r < m; ++r) {
        const double d = x[r] - theta;
        q[r] += d * d / var;
      }
    }
    const double head = split_->log_prior_[c];
    const double constant = nb_const_[c];
    for (std::size_t r = 0; r < m; ++r) q[r] = head + (constant - 0.5 * q[r]);
  }
}

bool CoalitionTrainer::RankTest(GaussianNbRanking& ranking, RankKernel kernel) {
  PERFSHAP_CHECK(split_->kind_ == LearnerKind::kGaussianNb, "RankTest: only for the gnb learner");
  PERFSHAP_DCHECK(fitted_);
  double* const jll0 = row_scratch_.data();
  double* const jll1 = row_scratch2_.data();
  JointLogLikelihoods(jll0, jll1);
  const std::size_t m = split_->n_test_;
  return RankGaussianNb(std::span<const double>(jll0, m), std::span<const double>(jll1, m), ranking, test_positive_,
                        kernel);
}

void CoalitionTrainer::ScoreTest(std::span<double> out, ScoreScale scale) {
  PERFSHAP_DCHECK(fitted_);
  const std::size_t m = split_->n_test_;
  PERFSHAP_CHECK(out.size() >= m, "ScoreTest: the output needs one value per test row");
  switch (split_->kind_) {
    case LearnerKind::kGaussianNb: {
      double* const jll0 = row_scratch_.data();
      double* const jll1 = row_scratch2_.data();
      JointLogLikelihoods(jll0, jll1);
      for (std::size_t r = 0; r < m; ++r)
        out[r] = scale == ScoreScale::kIndex ? jll1[r] - jll0[r] : GaussianNbProbability(jll0[r], jll1[r]);
      return;
    }
    case LearnerKind::kLinear:
      Index(out);
      return;
    case LearnerKind::kLogistic:
      Index(out);
      if (scale == ScoreScale::kProbability)
        for (std::size_t r = 0; r < m; ++r) out[r] = 1.0 / (1.0 + std::exp(-out[r]));  // scipy expit
      return;
    case LearnerKind::kProbit:
      Index(out);
      if (scale == ScoreScale::kProbability)
        for (std::size_t r = 0; r < m; ++r) out[r] = Ndtr(out[r]);
      return;
  }
}

std::unique_ptr<Model> CoalitionTrainer::MakeModel() const {
  PERFSHAP_DCHECK(fitted_);
  if (split_->kind_ == LearnerKind::kGaussianNb) {
    const std::size_t p = split_->p_;
    std::vector<double> theta(2 * k_);
    std::vector<double> var(2 * k_);
    for (int c = 0; c < 2; ++c)
      for (std::size_t i = 0; i < k_; ++i) {
        theta[c * k_ + i] = split_->theta_[c * p + members_[i]];
        var[c * k_ + i] = nb_var_[c * p + i];
      }
    return MakeGaussianNbModel(std::move(theta), std::move(var), split_->log_prior_[0], split_->log_prior_[1]);
  }
  // Back to the raw scale: w_raw = w / scale, b_raw = b - sum w_raw * center.
  std::vector<double> coef(k_ + 1);
  double intercept = intercept_;
  for (std::size_t i = 0; i < k_; ++i) {
    const std::size_t j = members_[i];
    coef[i + 1] = coef_[j] / split_->scale_[j];
    intercept -= coef[i + 1] * split_->center_[j];
  }
  coef[0] = intercept;
  switch (split_->kind_) {
    case LearnerKind::kLogistic:
      return MakeGlm(Link::kLogit, std::move(coef), true);
    case LearnerKind::kProbit:
      return MakeGlm(Link::kProbit, std::move(coef), true);
    default:
      return MakeGlm(Link::kIdentity, std::move(coef), false);
  }
}

}  // namespace perfshap::detail
