// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// "tree" and "forest": CART trees and random forests retrained on every coalition of players.
// The split copies its players' columns over the training and the test rows once; a fitter
// grows the coalition's trees on the coalition's columns in place (no copy per coalition),
// scores the test rows as TreeEnsemble::Predict does (the same traversal and the same sum,
// so MakeModel's predictions equal ScoreTest's bit for bit) and keeps its trees' memory for
// the next coalition.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/learner_params.hpp"
#include "models/split_base.hpp"
#include "models/trees/cart.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/tree_learners.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

/** What a tree or forest learner trains with, checked. */
struct TreeLearnerSettings {
  std::string name;
  bool forest = false;
  CartSettings cart;
  int n_trees = 1;
  bool bootstrap = false;
  std::uint64_t seed = 0;
  ExecutionOptions execution;
  /** The factor on the trees' sum, as TreeEnsembleInfo::tree_scale. */
  double tree_scale() const noexcept { return 1.0 / static_cast<double>(n_trees); }
};

/** The model of the empty coalition: the training prior (or mean), no feature. */
class ConstantModel final : public Model {
 public:
  ConstantModel(double value, bool classifier) : value_(value), classifier_(classifier) {}
  std::size_t n_features() const override { return 0; }
  bool is_classifier() const override { return classifier_; }
  void Predict(std::span<const double> x, std::size_t n_rows, std::span<double> out) const override {
    PERFSHAP_CHECK(x.empty() && out.size() == n_rows, "ConstantModel::Predict: wrong sizes");
    std::fill(out.begin(), out.end(), value_);
  }
  std::string Describe() const override {
    return std::string(classifier_ ? "constant training prior P(y = 1) = " : "constant training mean ") +
           FormatNumber(value_);
  }

 private:
  double value_;
  bool classifier_;
};

/** The split: the players' columns over the training rows and over the test rows (column-major
 *  by position), the labels as classes (classifier) or targets, and the prior. */
class TreeSplit final : public SplitBase {
 public:
  TreeSplit(const TreeLearnerSettings& learner, const Dataset& data, std::span<const Player> players,
            std::span<const std::size_t> train_rows, std::span<const std::size_t> test_rows,
            const std::string& split_name)
      : settings(learner) {
    const bool classifier = !settings.cart.regression;
    InitCommon(settings.name, classifier, data, players, train_rows, test_rows, split_name);
    const std::size_t p = n_columns();
    const std::size_t n = n_train_;
    const std::size_t m = test_rows.size();
    train.resize(p * n);
    test.resize(p * m);
    for (std::size_t q = 0; q < p; ++q) {
      const auto col = data.column(columns_[q]);
      bool finite = true;
      double* tr = train.data() + q * n;
      for (std::size_t i = 0; i < n; ++i) {
        tr[i] = col[train_rows[i]];
        finite = finite && std::isfinite(tr[i]);
      }
      double* te = test.data() + q * m;
      for (std::size_t i = 0; i < m; ++i) {
        te[i] = col[test_rows[i]];
        finite = finite && std::isfinite(te[i]);
      }
      if (!finite) ThrowMissing(data, q, train_rows, test_rows);
    }
    if (classifier) {
      classes.resize(n);
      for (std::size_t i = 0; i < n; ++i) classes[i] = train_label_[i] == 1.0 ? 1 : 0;
      prior = class_count_[1] / static_cast<double>(n);
    } else {
      double sum = 0.0;
      for (double v : train_label_) sum += v;
      prior = sum / static_cast<double>(n);
    }
  }
  std::unique_ptr<CoalitionFitter> MakeFitter() const override;

  TreeLearnerSettings settings;
  std::vector<double> train;
  std::vector<double> test;
  std::vector<std::int32_t> classes;
  double prior = 0.0;
};

class TreeFitter final : public FitterBase {
 public:
  explicit TreeFitter(const TreeSplit& split) { Bind(split); }

  bool Rebind(const PreparedSplit& split) override {
    return RebindIf<TreeSplit>(split, [this](const TreeSplit& s) { Bind(s); });
  }

  void Reset() noexcept override { fitted_ = false; }

  int Fit(std::span<const std::uint32_t> players) override {
    SetCoalition(players);
    const TreeSplit& s = *split_;
    const std::size_t n = s.n_train();
    const std::size_t k = members_.size();
    if (k > 0) {
      for (std::size_t j = 0; j < k; ++j) columns_[j] = s.train.data() + members_[j] * n;
      CartData data;
      data.n_rows = n;
      data.columns = std::span<const double* const>(columns_.data(), k);
      data.classes = s.classes;
      data.targets = s.train_labels();
      data.n_classes = s.settings.cart.regression ? 0 : 2;
      if (s.settings.forest) {
        trainer_.Train(data, s.settings.cart, s.settings.n_trees, s.settings.bootstrap, s.settings.seed,
                       s.settings.execution, trees_);
      } else {
        trees_.resize(1);
        RandomStream rng(s.settings.seed, 0);
        builder_.Grow(data, s.settings.cart, {}, rng, trees_[0]);
      }
    }
    fitted_ = true;
    return 0;
  }

  void ScoreTest(std::span<double> out, ScoreScale) override {
    PERFSHAP_DCHECK(fitted_);
    const TreeSplit& s = *split_;
    const std::size_t m = s.n_test();
    PERFSHAP_CHECK(out.size() >= m, "ScoreTest: the output needs one value per test row");
    const std::size_t k = members_.size();
    if (k == 0) {
      std::fill(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(m), s.prior);
      return;
    }
    // TreeEnsemble::PredictMargin's arithmetic: the leaves summed in tree order from 0, then
    // base margin (0) + tree_scale * sum; the transform is the identity.
    const double scale = s.settings.tree_scale();
    const std::span<const double> row(row_.data(), k);
    for (std::size_t r = 0; r < m; ++r) {
      for (std::size_t j = 0; j < k; ++j) row_[j] = s.test[members_[j] * m + r];
      double sum = 0.0;
      for (const Tree& t : trees_) sum += t.value[t.Leaf(row, SplitRule::kLessEqual)];
      out[r] = 0.0 + scale * sum;
    }
  }

  std::unique_ptr<Model> MakeModel() const override {
    PERFSHAP_DCHECK(fitted_);
    const TreeSplit& s = *split_;
    const bool classifier = !s.settings.cart.regression;
    if (members_.empty()) return std::make_unique<ConstantModel>(s.prior, classifier);
    TreeEnsembleInfo info;
    info.n_features = members_.size();
    for (std::size_t q : members_) info.feature_names.push_back(s.column_name(q));
    info.n_outputs = 1;
    info.tree_scale = s.settings.tree_scale();
    info.transform = TreeTransform::kIdentity;
    info.rule = SplitRule::kLessEqual;
    info.classifier = classifier;
    if (classifier) info.class_names = {"0", "1"};
    std::string d = s.settings.forest
                        ? (classifier ? "random forest classifier (" : "random forest regressor (")
                        : (classifier ? "CART classification tree (" : "CART regression tree (");
    d += std::string(CriterionName(s.settings.cart.criterion)) + ")";
    if (s.settings.forest) d += ", " + std::to_string(s.settings.n_trees) + " trees";
    d += ", " + std::to_string(members_.size()) + (members_.size() == 1 ? " feature" : " features");
    info.description = std::move(d);
    return std::make_unique<TreeEnsemble>(trees_, std::move(info));
  }

 private:
  void Bind(const TreeSplit& split) {
    split_ = &split;
    BindBase(split);
    columns_.resize(split.n_columns());
    row_.resize(split.n_columns());
    fitted_ = false;
  }

  const TreeSplit* split_ = nullptr;
  std::vector<const double*> columns_;
  std::vector<double> row_;
  std::vector<Tree> trees_;
  CartBuilder builder_;
  ForestTrainer trainer_;
};

std::unique_ptr<CoalitionFitter> TreeSplit::MakeFitter() const { return std::make_unique<TreeFitter>(*this); }

class TreeLearner final : public Learner {
 public:
  explicit TreeLearner(TreeLearnerSettings settings) : settings_(std::move(settings)) {}
  const std::string& name() const noexcept override { return settings_.name; }
  bool is_classifier() const noexcept override { return !settings_.cart.regression; }
  /** Trees split on sorted codes as on any number: a code's order is the levels' byte order. */
  TextColumns text_columns() const noexcept override { return TextColumns::kCodes; }
  /** Every tree sorts its rows on each column it tries (rows log2 rows a column and level, at
   *  most log2 rows levels when balanced, rows levels when not: the estimate takes a balanced
   *  tree) and keeps a sorted index per column. */
  FitCost EstimateFit(std::size_t rows, std::size_t columns) const override {
    const double n = static_cast<double>(std::max<std::size_t>(rows, 2));
    const double trees = settings_.forest ? static_cast<double>(settings_.n_trees) : 1.0;
    const double levels = std::log2(n);
    return {trees * n * levels * levels * static_cast<double>(columns),
            n * static_cast<double>(columns) * (sizeof(std::uint32_t) + sizeof(double))};
  }
  LearnerParams params() const override {
    const CartSettings& c = settings_.cart;
    LearnerParams p{{"criterion", CriterionName(c.criterion)},
                    {"regression", c.regression ? "true" : "false"},
                    {"max_depth", std::to_string(c.max_depth)},
                    {"min_samples_split", std::to_string(c.min_samples_split)},
                    {"min_samples_leaf", std::to_string(c.min_samples_leaf)},
                    {"max_features", c.max_features.Text()},
                    {"seed", std::to_string(settings_.seed)}};
    if (settings_.forest) {
      p["n_estimators"] = std::to_string(settings_.n_trees);
      p["bootstrap"] = settings_.bootstrap ? "true" : "false";
    }
    return p;
  }
  std::unique_ptr<PreparedSplit> Prepare(const Dataset& data, std::span<const Player> players,
                                         std::span<const std::size_t> train_rows,
                                         std::span<const std::size_t> test_rows,
                                         const std::string& split_name) const override {
    return std::make_unique<TreeSplit>(settings_, data, players, train_rows, test_rows, split_name);
  }

 private:
  TreeLearnerSettings settings_;
};

// The options a tree and a forest share, then the forest's own: declared once for both.
template <class T>
OptionTable<T> TreeOptionTable(const std::string& learner, bool forest) {
  OptionTable<T> t("learner " + learner);
  t.template Add<std::string>("criterion", static_cast<std::string T::*>(&TreeOptions::criterion))
      .Help("split criterion: gini or entropy, squared_error for regression (default gini / squared_error)");
  t.template Add<bool>("regression", static_cast<bool T::*>(&TreeOptions::regression))
      .Help("a regression tree of the raw label instead of a 0/1 classifier");
  t.template Add<int>("max_depth", static_cast<int T::*>(&TreeOptions::max_depth))
      .Help("deepest node depth, 0 = no limit")
      .AtLeast(0);
  t.template Add<int>("min_samples_split", static_cast<int T::*>(&TreeOptions::min_samples_split))
      .Help("rows a node needs to be split")
      .AtLeast(2);
  t.template Add<int>("min_samples_leaf", static_cast<int T::*>(&TreeOptions::min_samples_leaf))
      .Help("rows each child of a split keeps")
      .AtLeast(1);
  t.template Add<std::string>("max_features", static_cast<std::string T::*>(&TreeOptions::max_features))
      .Help(std::string("candidate features per node: all, sqrt, log2, a count or a fraction such as 0.5 (default ") +
            (forest ? "sqrt; all for regression)" : "all)"));
  t.template Add<std::uint64_t>("seed", static_cast<std::uint64_t T::*>(&TreeOptions::seed))
      .Help(forest ? "seed of the bootstraps and the feature draws" : "seed of the feature draws");
  return t;
}

const OptionTable<TreeOptions>& TreeOnlyOptionTable() {
  static const OptionTable<TreeOptions> table = TreeOptionTable<TreeOptions>("tree", false);
  return table;
}

const OptionTable<ForestOptions>& ForestOptionTable() {
  static const OptionTable<ForestOptions> table = [] {
    OptionTable<ForestOptions> t = TreeOptionTable<ForestOptions>("forest", true);
    t.Add("n_estimators", &ForestOptions::n_estimators).Help("trees").AtLeast(1);
    t.Add("bootstrap", &ForestOptions::bootstrap).Help("each tree on a bootstrap sample of the training rows");
    return t;
  }();
  return table;
}

}  // namespace

LearnerEntry TreeEntry() {
  return DeclaredLearnerEntry(
      "tree",
      "CART decision tree (scikit-learn's DecisionTreeClassifier / DecisionTreeRegressor, best splits)",
      TreeOnlyOptionTable(), [](const TreeOptions& o) { return MakeTreeLearner(o); });
}

LearnerEntry ForestEntry() {
  return DeclaredLearnerEntry(
      "forest",
      "random forest of CART trees on bootstrap samples (scikit-learn's RandomForestClassifier / Regressor)",
      ForestOptionTable(), [](const ForestOptions& o) { return MakeForestLearner(o); });
}

}}}  // namespace perfshap::detail

namespace perfshap { inline namespace v0 {

std::shared_ptr<const Learner> MakeTreeLearner(const TreeOptions& options) {
  detail::TreeLearnerSettings s;
  s.name = "tree";
  s.cart = detail::CheckTreeOptions(options, false, "tree");
  s.seed = options.seed;
  return std::make_shared<detail::TreeLearner>(std::move(s));
}

std::shared_ptr<const Learner> MakeForestLearner(const ForestOptions& options) {
  detail::TreeLearnerSettings s;
  s.name = "forest";
  s.forest = true;
  s.cart = detail::CheckTreeOptions(options, true, "forest");
  PERFSHAP_CHECK(options.n_estimators >= 1,
                 "forest option n_estimators must be >= 1, got " + std::to_string(options.n_estimators),
                 {"n_estimators"});
  PERFSHAP_CHECK(options.execution.threads >= 0, "threads must be >= 0 (0 = all cores)", {"threads"});
  s.n_trees = options.n_estimators;
  s.bootstrap = options.bootstrap;
  s.seed = options.seed;
  s.execution = options.execution;
  return std::make_shared<detail::TreeLearner>(std::move(s));
}

}}  // namespace perfshap
