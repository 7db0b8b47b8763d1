// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// "linear": least squares with intercept (OLS, or ridge), every coalition solved from the
// split's Gram matrix (the Cholesky factorisation of the coalition's principal sub-matrix).
#include <Eigen/Dense>
#include <cmath>
#include <string>

#include "models/glm/glm_split.hpp"
#include "models/learner_params.hpp"
#include "models/linear_algebra.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/learners.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

using MatrixMap = Eigen::Map<Eigen::MatrixXd>;
using VectorMap = Eigen::Map<Eigen::VectorXd>;
using ConstMatrixMap = Eigen::Map<const Eigen::MatrixXd>;
using ConstVectorMap = Eigen::Map<const Eigen::VectorXd>;

/** The split's centred (or standardised) columns, their Gram matrix (p x p, column-major),
 *  their products with the centred label, and the label mean. */
class LeastSquaresSplit final : public GlmSplit {
 public:
  LeastSquaresSplit(const LinearOptions& options, const Dataset& data, std::span<const Player> players,
                    std::span<const std::size_t> train_rows, std::span<const std::size_t> test_rows,
                    const std::string& split_name)
      : ridge_(options.ridge) {
    Gather("linear", Link::kIdentity, false, data, players, train_rows, test_rows, split_name, options.standardize,
           true);
    const std::size_t p = n_columns();
    double sum = 0.0;
    for (double v : train_label_) sum += v;
    label_mean_ = sum / static_cast<double>(n_train_);
    const auto rows = static_cast<Eigen::Index>(n_train_);
    const auto cols = static_cast<Eigen::Index>(p);
    gram_.resize(p * p);
    xty_.resize(p);
    ConstMatrixMap t(train_.data(), rows, cols);
    MatrixMap(gram_.data(), cols, cols).noalias() = t.transpose() * t;
    const Eigen::VectorXd centred = ConstVectorMap(train_label_.data(), rows).array() - label_mean_;
    VectorMap(xty_.data(), cols).noalias() = t.transpose() * centred;
  }
  std::unique_ptr<CoalitionFitter> MakeFitter() const override;

  double ridge_ = 0.0;
  double label_mean_ = 0.0;
  std::vector<double> gram_;
  std::vector<double> xty_;
};

class LeastSquaresFitter final : public GlmFitterBase {
 public:
  explicit LeastSquaresFitter(const LeastSquaresSplit& split) { Bind(split); }

  bool Rebind(const PreparedSplit& split) override {
    return RebindIf<LeastSquaresSplit>(split, [this](const LeastSquaresSplit& s) { Bind(s); });
  }

  // beta = (G_SS + ridge I)^-1 X_S^T (y - ybar), intercept = ybar in the transformed space.
  int Fit(std::span<const std::uint32_t> players) override {
    StartFit(players);
    const std::size_t p = split_->n_columns();
    const std::size_t k = members_.size();
    for (std::size_t a = 0; a < k; ++a) {
      for (std::size_t b = 0; b < k; ++b) hess_[a * k + b] = split_->gram_[members_[a] * p + members_[b]];
      hess_[a * k + a] += split_->ridge_;
      step_[a] = split_->xty_[members_[a]];
    }
    const long bad = CholeskySolve(hess_.data(), k, step_.data(), 1e-12);
    if (bad >= 0)
      ThrowForCoalition("feature " + Quote(split_->column_name(members_[static_cast<std::size_t>(bad)])) +
                            " is a linear combination of the features before it on the training rows",
                        "drop one of the collinear columns, or set a ridge penalty", {"ridge"});
    intercept_ = split_->label_mean_;
    for (std::size_t a = 0; a < k; ++a) coef_[members_[a]] = step_[a];
    fitted_ = true;
    return 0;
  }

 private:
  void Bind(const LeastSquaresSplit& split) {
    split_ = &split;
    BindGlm(split);
    const std::size_t p = split.n_columns();
    hess_.resize(p * p);
    step_.resize(p);
  }

  const LeastSquaresSplit* split_ = nullptr;
  std::vector<double> hess_, step_;
};

std::unique_ptr<CoalitionFitter> LeastSquaresSplit::MakeFitter() const {
  return std::make_unique<LeastSquaresFitter>(*this);
}

class LeastSquaresLearner final : public Learner {
 public:
  explicit LeastSquaresLearner(const LinearOptions& options) : options_(options) {
    PERFSHAP_CHECK(std::isfinite(options.ridge) && options.ridge >= 0.0,
                   "learner option ridge must be a finite number >= 0, got " + FormatNumber(options.ridge), {"ridge"});
  }
  const std::string& name() const noexcept override { return name_; }
  bool is_classifier() const noexcept override { return false; }
  bool makes_additive_models() const noexcept override { return true; }
  /** The Gram matrix (rows x columns^2) and its Cholesky factor (columns^3 / 3). */
  FitCost EstimateFit(std::size_t rows, std::size_t columns) const override {
    const double c = static_cast<double>(columns);
    return {static_cast<double>(rows) * c * c + c * c * c / 3.0, 2.0 * c * c * sizeof(double)};
  }
  LearnerParams params() const override {
    return {{"ridge", ParamText(options_.ridge)}, {"standardize", options_.standardize ? "true" : "false"}};
  }
  std::unique_ptr<PreparedSplit> Prepare(const Dataset& data, std::span<const Player> players,
                                         std::span<const std::size_t> train_rows,
                                         std::span<const std::size_t> test_rows,
                                         const std::string& split_name) const override {
    return std::make_unique<LeastSquaresSplit>(options_, data, players, train_rows, test_rows, split_name);
  }

 private:
  std::string name_ = "linear";
  LinearOptions options_;
};

}  // namespace

const OptionTable<LinearOptions>& LinearOptionTable() {
  static const OptionTable<LinearOptions> table = [] {
    OptionTable<LinearOptions> t("learner linear");
    t.Add("ridge", &LinearOptions::ridge).Help("ridge penalty alpha on ||w||^2 (0: OLS)").AtLeast(0.0);
    t.Add("standardize", &LinearOptions::standardize)
        .Help("fit on standardised columns (changes only the ridge optimum)");
    return t;
  }();
  return table;
}

LearnerEntry LinearEntry() {
  return DeclaredLearnerEntry(
      "linear",
      "least squares with intercept (OLS; ridge with `ridge` > 0), from the Gram matrix",
      LinearOptionTable(), [](const LinearOptions& o) { return MakeLinearLearner(o); });
}

}}}  // namespace perfshap::detail

namespace perfshap { inline namespace v0 {
std::shared_ptr<const Learner> MakeLinearLearner(const LinearOptions& options) {
  return std::make_shared<detail::LeastSquaresLearner>(options);
}
}}  // namespace perfshap
