// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The GLMs fitted by Newton's method: "logistic" (L2-penalised, as sklearn LogisticRegression)
// and "probit" (maximum likelihood, as statsmodels Probit), warm-started along Gray-code steps.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "models/glm/glm_split.hpp"
#include "models/glm/normal.hpp"
#include "models/learner_params.hpp"
#include "models/linear_algebra.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/learners.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

using MatrixMap = Eigen::Map<Eigen::MatrixXd>;
using VectorMap = Eigen::Map<Eigen::VectorXd>;

/** What distinguishes the two objectives. */
struct NewtonSettings {
  bool probit = false;
  double C = 1.0;  // logistic: inverse L2 strength; probit: 1, no penalty
  bool standardize = true;
  NewtonOptions newton;
};

class NewtonSplit final : public GlmSplit {
 public:
  NewtonSplit(const std::string& name, const NewtonSettings& settings, const Dataset& data,
              std::span<const Player> players, std::span<const std::size_t> train_rows,
              std::span<const std::size_t> test_rows, const std::string& split_name)
      : settings_(settings) {
    Gather(name, settings.probit ? Link::kProbit : Link::kLogit, true, data, players, train_rows, test_rows,
           split_name, settings.standardize, false);
  }
  const NewtonSettings& settings() const noexcept { return settings_; }
  std::unique_ptr<CoalitionFitter> MakeFitter() const override;

 private:
  NewtonSettings settings_;
};

/** The constants of one coalition's fit that FitNewton's steps share. */
struct NewtonProblem {
  std::size_t n = 0;   // training rows
  std::size_t k = 0;   // the coalition's columns
  std::size_t k1 = 1;  // k + 1 coefficients, the intercept first
  Eigen::Index en = 0;
  Eigen::Index ek1 = 1;
  bool probit = false;
  double c = 1.0;
  double penalty = 1.0;  // on the slopes: 1 for logistic, 0 for probit
  const double* y = nullptr;
  const double* train = nullptr;
  const double* abs_sum = nullptr;
};

/**
 * Newton's method on the convex objective
 *   logistic: f(b, w) = 0.5 ||w||^2 + C sum_i log(1 + exp(-q_i eta_i)), q_i = 2 y_i - 1,
 *   probit:   f(b, w) = -sum_i log Phi(q_i eta_i),
 * with eta = b + X_S w, warm-started from the previous coalition's coefficients (its columns
 * keep theirs; a column added to it starts from a one-dimensional Newton step at the previous
 * optimum, any other newcomer at 0). A full step is taken when it halves the smallest scaled
 * gradient seen so far; otherwise (far from the optimum) Armijo backtracking on f decides, with a rounding
 * slack so that steps whose decrease is below the rounding of f are still taken. The objective,
 * whose logarithms cost as much as the rest of an iteration, is only evaluated then. Stops
 * when |grad_j| <= tol * C sum_i |x_ij| (1e-12: warm and cold starts then agree to about 1e-11
 * in the index).
 */
class NewtonFitter final : public GlmFitterBase {
 public:
  explicit NewtonFitter(const NewtonSplit& split) { Bind(split); }

  bool Rebind(const PreparedSplit& split) override {
    // The previous split may be gone (freed once its game was solved): compare with what this
    // fitter keeps of it, never through it.
    const auto* s = dynamic_cast<const NewtonSplit*>(&split);
    if (s == nullptr || s->settings().probit != probit_) return false;
    Bind(*s);
    return true;
  }

  int Fit(std::span<const std::uint32_t> players) override {
    StartFit(players);
    const int iterations = FitNewton();
    fitted_ = true;
    return iterations;
  }

 private:
  void Bind(const NewtonSplit& split) {
    // Sizes follow the split; buffers only grow, so a fitter moved between splits of one
    // shape allocates (and touches) nothing new.
    split_ = &split;
    probit_ = split.settings().probit;
    BindGlm(split);
    const std::size_t p = split.n_columns();
    const std::size_t n = split.n_train();
    design_.resize(n * (p + 1));
    weighted_.resize(n * (p + 1));
    eta_.resize(n);
    eta_try_.resize(n);
    direction_.resize(n);
    first_.resize(n);
    second_.resize(n);
    beta_.resize(p + 1);
    beta_try_.resize(p + 1);
    grad_.resize(p + 1);
    hess_.resize((p + 1) * (p + 1));
    step_.resize(p + 1);
  }

  int FitNewton();
  /// The fit's constants, from the split's settings and the coalition.
  NewtonProblem MakeProblem(const NewtonSettings& settings) const;
  /// The design (n x k1, a column of ones first) over design_.
  MatrixMap Design(const NewtonProblem& pb) { return MatrixMap(design_.data(), pb.en, pb.ek1); }
  /// Fills the design and the starting coefficients beta_ (warm start, see the class comment).
  void StartFromPrevious(const NewtonProblem& pb);
  /// First and second derivatives of the per-row loss w.r.t. eta, into first_ / second_.
  void Derivatives(const NewtonProblem& pb, const double* eta);
  /// Gradient c X^T first + penalty * w into grad; returns max_j |grad_j| / scale_j.
  double Gradient(const NewtonProblem& pb, const double* beta, double* grad);
  /// The objective f at index eta and coefficients beta.
  double Objective(const NewtonProblem& pb, const double* eta, const double* beta) const;
  /// The Newton step H^-1 grad into step_, and its change of the index X step into direction_.
  void SolveNewtonStep(const NewtonProblem& pb);
  /// Armijo backtracking on f from the full step in beta_try_ / eta_try_; returns the scaled
  /// gradient at the accepted point (gnorm_try when the full step is kept).
  double Backtrack(const NewtonProblem& pb, double gnorm_try);

  const NewtonSplit* split_ = nullptr;
  bool probit_ = false;
  // Scratch: design (n_train x (k+1)), weighted design, index, per-row derivatives, gradient,
  // Hessian, step, trial coefficients.
  std::vector<double> design_, weighted_, eta_, eta_try_, direction_, first_, second_;
  std::vector<double> beta_, beta_try_, grad_, hess_, step_;
};

std::unique_ptr<CoalitionFitter> NewtonSplit::MakeFitter() const { return std::make_unique<NewtonFitter>(*this); }

NewtonProblem NewtonFitter::MakeProblem(const NewtonSettings& settings) const {
  NewtonProblem pb;
  pb.probit = settings.probit;
  pb.n = split_->n_train();
  pb.k = members_.size();
  pb.k1 = pb.k + 1;
  pb.en = static_cast<Eigen::Index>(pb.n);
  pb.ek1 = static_cast<Eigen::Index>(pb.k1);
  pb.c = settings.C;
  pb.penalty = pb.probit ? 0.0 : 1.0;
  pb.y = split_->train_labels().data();
  pb.train = split_->train().data();
  pb.abs_sum = split_->abs_sum().data();
  return pb;
}

void NewtonFitter::StartFromPrevious(const NewtonProblem& pb) {
  const std::size_t n = pb.n;
  const std::size_t k = pb.k;
  const double c = pb.c;
  // Design: a column of ones, then the coalition's (transformed) training columns.
  std::fill(design_.begin(), design_.begin() + static_cast<std::ptrdiff_t>(n), 1.0);
  for (std::size_t i = 0; i < k; ++i) std::copy_n(pb.train + members_[i] * n, n, design_.data() + (i + 1) * n);
  beta_[0] = intercept_;
  for (std::size_t i = 0; i < k; ++i) beta_[i + 1] = coef_[members_[i]];
  if (added_ >= 0) {
    // first_ and second_ still hold the loss derivatives at the previous optimum, which is
    // where this fit starts with the added column at 0: one Newton step in its coordinate.
    const auto j = static_cast<std::size_t>(added_);
    const double* col = pb.train + j * n;
    double g = 0.0;
    double h = 0.0;
    for (std::size_t r = 0; r < n; ++r) {
      g += first_[r] * col[r];
      h += second_[r] * col[r] * col[r];
    }
    h = c * h + pb.penalty;
    const auto pos = static_cast<std::size_t>(std::find(members_.begin(), members_.end(), j) - members_.begin());
    if (h > 0.0 && std::isfinite(g)) beta_[pos + 1] = -c * g / h;
  }
}

void NewtonFitter::Derivatives(const NewtonProblem& pb, const double* eta) {
  const std::size_t n = pb.n;
  const bool probit = pb.probit;
  const double* y = pb.y;
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
                      "use the logistic learner",
                      {"learner"});
}

double NewtonFitter::Gradient(const NewtonProblem& pb, const double* beta, double* grad) {
  const double c = pb.c;
  const MatrixMap x = Design(pb);
  VectorMap g(grad, pb.ek1);
  g.noalias() = x.transpose() * VectorMap(first_.data(), pb.en);
  double worst = 0.0;
  for (std::size_t i = 0; i < pb.k1; ++i) {
    grad[i] *= c;
    if (i > 0) grad[i] += pb.penalty * beta[i];
    const double scale = c * (i == 0 ? static_cast<double>(pb.n) : pb.abs_sum[members_[i - 1]]);
    worst = std::max(worst, std::abs(grad[i]) / scale);
  }
  return worst;
}

double NewtonFitter::Objective(const NewtonProblem& pb, const double* eta, const double* beta) const {
  const double* y = pb.y;
  double loss = 0.0;
  for (std::size_t r = 0; r < pb.n; ++r) {
    const double margin = (y[r] == 1.0 ? 1.0 : -1.0) * eta[r];
    if (pb.probit) {
      loss -= NormalLogCdf(margin);
    } else {
      loss += std::log1p(std::exp(-std::abs(margin))) + (margin < 0.0 ? -margin : 0.0);
    }
  }
  double reg = 0.0;
  for (std::size_t i = 1; i < pb.k1; ++i) reg += beta[i] * beta[i];
  return pb.c * loss + 0.5 * pb.penalty * reg;
}

void NewtonFitter::SolveNewtonStep(const NewtonProblem& pb) {
  const Eigen::Index en = pb.en;
  const Eigen::Index ek1 = pb.ek1;
  const double c = pb.c;
  const MatrixMap x = Design(pb);
  // Hessian c X^T diag(second) X + penalty on the slopes: lower triangle by column dot
  // products (cheaper than a GEMM at these sizes).
  MatrixMap weighted(weighted_.data(), en, ek1);
  weighted = x.array().colwise() * VectorMap(second_.data(), en).array();
  MatrixMap hess(hess_.data(), ek1, ek1);
  for (Eigen::Index b = 0; b < ek1; ++b)
    for (Eigen::Index a = b; a < ek1; ++a) hess(a, b) = c * x.col(a).dot(weighted.col(b));
  for (Eigen::Index i = 1; i < ek1; ++i) hess(i, i) += pb.penalty;
  std::copy_n(grad_.data(), pb.k1, step_.data());
  const long bad = CholeskySolve(hess_.data(), pb.k1, step_.data(), 1e-14);
  if (bad >= 0) {
    const std::string who = bad == 0 ? std::string("the intercept")
                                     : "feature " + Quote(split_->column_name(members_[static_cast<std::size_t>(bad) - 1]));
    ThrowForCoalition(
        "the Hessian is singular at " + who + " (collinear columns, or fitted probabilities all 0 or 1)",
        "drop a collinear or separating feature");
  }
  VectorMap(direction_.data(), en).noalias() = x * VectorMap(step_.data(), ek1);
}

double NewtonFitter::Backtrack(const NewtonProblem& pb, double gnorm_try) {
  const std::size_t k1 = pb.k1;
  const std::size_t n = pb.n;
  const double decrease = VectorMap(grad_.data(), pb.ek1).dot(VectorMap(step_.data(), pb.ek1));
  const double f = Objective(pb, eta_.data(), beta_.data());
  const double slack = 64.0 * std::numeric_limits<double>::epsilon() * std::abs(f);
  double t = 1.0;
  while (!(Objective(pb, eta_try_.data(), beta_try_.data()) <= f - 1e-4 * t * decrease + slack)) {
    t *= 0.5;
    if (t < 1e-20)
      ThrowForCoalition("Newton's method made no progress (the objective is flat or not finite)",
                        "check the feature scales, or use the logistic learner", {"learner"});
    for (std::size_t i = 0; i < k1; ++i) beta_try_[i] = beta_[i] - t * step_[i];
    for (std::size_t r = 0; r < n; ++r) eta_try_[r] = eta_[r] - t * direction_[r];
  }
  if (t < 1.0) {
    Derivatives(pb, eta_try_.data());
    gnorm_try = Gradient(pb, beta_try_.data(), weighted_.data());
  }
  return gnorm_try;
}

int NewtonFitter::FitNewton() {
  const NewtonSettings& settings = split_->settings();
  const NewtonProblem pb = MakeProblem(settings);
  const std::size_t n = pb.n;
  const std::size_t k = pb.k;
  const std::size_t k1 = pb.k1;
  const double tol = settings.newton.gradient_tolerance;

  StartFromPrevious(pb);
  VectorMap(eta_.data(), pb.en).noalias() = Design(pb) * VectorMap(beta_.data(), pb.ek1);
  Derivatives(pb, eta_.data());
  double gnorm = Gradient(pb, beta_.data(), grad_.data());
  double best = gnorm;  // the smallest scaled gradient so far
  for (int iteration = 0;; ++iteration) {
    if (gnorm <= tol) {
      intercept_ = beta_[0];
      for (std::size_t i = 0; i < k; ++i) coef_[members_[i]] = beta_[i + 1];
      return iteration;
    }
    if (iteration == settings.newton.max_iterations) break;
    SolveNewtonStep(pb);
    // Full step first.
    for (std::size_t i = 0; i < k1; ++i) beta_try_[i] = beta_[i] - step_[i];
    for (std::size_t r = 0; r < n; ++r) eta_try_[r] = eta_[r] - direction_[r];
    Derivatives(pb, eta_try_.data());
    double gnorm_try = Gradient(pb, beta_try_.data(), weighted_.data());  // weighted_ is free now
    // A full step that halves the best gradient so far is taken without evaluating f. That
    // can happen only finitely often before the tolerance, so the iteration cannot cycle
    // (judging each step against the previous gradient alone can: a step accepted on f raises
    // the gradient, the next one lowers it and raises f back). Otherwise (far from the
    // optimum) backtrack on the objective (Armijo), from the full step.
    if (!(gnorm_try < 0.5 * best)) gnorm_try = Backtrack(pb, gnorm_try);
    std::swap(beta_, beta_try_);
    std::swap(eta_, eta_try_);
    std::copy_n(weighted_.data(), k1, grad_.data());
    gnorm = gnorm_try;
    best = std::min(best, gnorm);
  }
  ThrowForCoalition("Newton's method did not converge in " + std::to_string(settings.newton.max_iterations) +
                        " iterations (quasi-separated classes?)",
                    "raise max_iterations, drop a separating feature, or use the logistic learner",
                    {"max_iterations", "learner"});
}

class NewtonLearner final : public Learner {
 public:
  NewtonLearner(std::string name, NewtonSettings settings) : name_(std::move(name)), settings_(settings) {
    const NewtonOptions& n = settings_.newton;
    PERFSHAP_CHECK(std::isfinite(settings_.C) && settings_.C > 0.0,
                   "learner option C must be a finite number > 0, got " + FormatNumber(settings_.C), {"C"});
    PERFSHAP_CHECK(n.gradient_tolerance > 0.0 && n.gradient_tolerance <= 0.01,
                   "learner option gradient_tolerance must lie in (0, 0.01], got " + FormatNumber(n.gradient_tolerance),
                   {"gradient_tolerance"});
    PERFSHAP_CHECK(n.max_iterations >= 1, "learner option max_iterations must be >= 1", {"max_iterations"});
  }
  const std::string& name() const noexcept override { return name_; }
  bool is_classifier() const noexcept override { return true; }
  bool makes_additive_models() const noexcept override { return true; }
  /** A Newton step builds and factors the columns x columns Hessian: rows x columns^2 operations
   *  (about ten steps to the optimum), the Hessian and its factor held. */
  FitCost EstimateFit(std::size_t rows, std::size_t columns) const override {
    const double c = static_cast<double>(columns);
    return {10.0 * (static_cast<double>(rows) * c * c + c * c * c), 3.0 * c * c * sizeof(double)};
  }
  LearnerParams params() const override {
    LearnerParams p;
    if (!settings_.probit) p["C"] = ParamText(settings_.C);
    p["standardize"] = settings_.standardize ? "true" : "false";
    p["gradient_tolerance"] = ParamText(settings_.newton.gradient_tolerance);
    p["max_iterations"] = std::to_string(settings_.newton.max_iterations);
    return p;
  }
  std::unique_ptr<PreparedSplit> Prepare(const Dataset& data, std::span<const Player> players,
                                         std::span<const std::size_t> train_rows,
                                         std::span<const std::size_t> test_rows,
                                         const std::string& split_name) const override {
    return std::make_unique<NewtonSplit>(name_, settings_, data, players, train_rows, test_rows, split_name);
  }

 private:
  std::string name_;
  NewtonSettings settings_;
};

// The Newton options every GLM learner declares (T has a NewtonOptions `newton`).
template <class T>
void DeclareNewton(OptionTable<T>& t) {
  t.template AddVia<double>("gradient_tolerance", [](T& o) -> double& { return o.newton.gradient_tolerance; })
      .Help("Newton stopping rule, relative")
      .Above(0.0)
      .AtMost(0.01);
  t.template AddVia<int>("max_iterations", [](T& o) -> int& { return o.newton.max_iterations; })
      .Help("Newton iteration limit")
      .AtLeast(1);
}

const OptionTable<LogisticOptions>& LogisticOptionTable() {
  static const OptionTable<LogisticOptions> table = [] {
    OptionTable<LogisticOptions> t("learner logistic");
    t.Add("C", &LogisticOptions::C).Help("inverse L2 strength").Above(0.0);
    t.Add("standardize", &LogisticOptions::standardize).Help("fit on standardised columns");
    DeclareNewton(t);
    return t;
  }();
  return table;
}

const OptionTable<ProbitOptions>& ProbitOptionTable() {
  static const OptionTable<ProbitOptions> table = [] {
    OptionTable<ProbitOptions> t("learner probit");
    t.Add("standardize", &ProbitOptions::standardize).Help("fit on standardised columns (the optimum is invariant)");
    DeclareNewton(t);
    return t;
  }();
  return table;
}

}  // namespace

LearnerEntry LogisticEntry() {
  return DeclaredLearnerEntry(
      "logistic",
      "L2 logistic regression at its optimum (sklearn StandardScaler + LogisticRegression(C)), by Newton",
      LogisticOptionTable(), [](const LogisticOptions& o) { return MakeLogisticLearner(o); });
}

LearnerEntry ProbitEntry() {
  return DeclaredLearnerEntry(
      "probit",
      "maximum-likelihood probit (statsmodels Probit), by Newton",
      ProbitOptionTable(), [](const ProbitOptions& o) { return MakeProbitLearner(o); });
}

}}}  // namespace perfshap::detail

namespace perfshap { inline namespace v0 {

std::shared_ptr<const Learner> MakeLogisticLearner(const LogisticOptions& options) {
  return std::make_shared<detail::NewtonLearner>(
      "logistic", detail::NewtonSettings{false, options.C, options.standardize, options.newton});
}

std::shared_ptr<const Learner> MakeProbitLearner(const ProbitOptions& options) {
  return std::make_shared<detail::NewtonLearner>("probit",
                                                 detail::NewtonSettings{true, 1.0, options.standardize, options.newton});
}

}}  // namespace perfshap
