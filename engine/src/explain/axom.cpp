// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// AXOM explanations and the robustness of explanations (perfshap/axom.hpp).
//
// The cache of EvaluateExplanationRobustness. A tree's path-dependent SHAP values at x depend on
// x only through the bit patterns of its paths (solvers/tree_paths.hpp), i.e. through the side
// of each of the tree's thresholds x lies on; so do its leaf and its label. In the eps-box around
// a test point only the thresholds inside the box can differ from one neighbour to the next (we
// take those within 2 eps, which covers any rounding of the draws); a neighbour's "cut pattern"
// (its side of each of them) is the key of that tree's values. Note that the decision path alone
// would not do: two rows reaching the same leaf can differ on a threshold of another branch,
// which moves their SHAP values. Values come from one neighbour of the pattern and equal, bit
// for bit, what any other row of the pattern would give.
#include "perfshap/axom.hpp"
#include "perfshap/cost_estimates.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "explain/finite_result.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/random.hpp"
#include "schedule/schedule.hpp"
#include "solvers/tree_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

/** Classes of a classification tree model: 2 for one output (the fraction of class 1). */
std::size_t Classes(const TreeEnsemble& m) { return m.n_outputs() == 1 ? 2 : m.n_outputs(); }

void CheckForest(const TreeEnsemble& m, const char* what) {
  PERFSHAP_CHECK(m.is_classifier() && m.info().transform == TreeTransform::kIdentity && !m.trees().empty(),
                 std::string(what) + " must be a classification tree or forest whose leaves hold class fractions (" +
                     m.Describe() + " is not)");
  for (const Tree& t : m.trees())
    PERFSHAP_CHECK(t.output == 0 && static_cast<std::size_t>(t.width) == m.n_outputs(),
                   std::string(what) + " must have trees whose leaves hold every class's fraction");
}

/** The class of the largest fraction (the first on ties); one output = the fraction of class 1. */
int LabelOf(const double* fractions, std::size_t k_out) {
  if (k_out == 1) return fractions[0] > 0.5 ? 1 : 0;
  std::size_t best = 0;
  for (std::size_t k = 1; k < k_out; ++k)
    if (fractions[k] > fractions[best]) best = k;
  return static_cast<int>(best);
}

/** Adds weight x the SHAP values of class c (from per-output values k_out x F) into g (F). */
void AddClass(const double* phi, std::size_t k_out, std::size_t F, int c, double weight, double* g) {
  if (k_out == 1) {
    const double sign = c == 1 ? weight : -weight;
    for (std::size_t j = 0; j < F; ++j) g[j] += sign * phi[j];
    return;
  }
  const double* p = phi + static_cast<std::size_t>(c) * F;
  for (std::size_t j = 0; j < F; ++j) g[j] += weight * p[j];
}

/** Adds weight x every class's values (classes x F) into g. */
void AddAll(const double* phi, std::size_t k_out, std::size_t F, double weight, double* g) {
  const std::size_t K = k_out == 1 ? 2 : k_out;
  for (std::size_t c = 0; c < K; ++c) AddClass(phi, k_out, F, static_cast<int>(c), weight, g + c * F);
}

/** The neighbourhood of a point: half-width eps in each feature's unit (scale[j], or 1 for
 *  every feature when scale is empty), distances measured in those units. With no scale the
 *  arithmetic is the paper's on normalised features, bit for bit. */
struct Box {
  double eps = 0.0;
  const std::vector<double>* scale = nullptr;

  double HalfWidth(std::size_t j) const { return scale->empty() ? eps : eps * (*scale)[j]; }
  /** Point x's neighbour: x + half-width (2u - 1) per feature, from `rng`. */
  void Draw(RandomStream& rng, const double* x, std::size_t F, double* out) const {
    if (scale->empty()) {
      for (std::size_t j = 0; j < F; ++j) out[j] = x[j] + eps * (2.0 * rng.Uniform() - 1.0);
      return;
    }
    for (std::size_t j = 0; j < F; ++j) out[j] = x[j] + eps * (*scale)[j] * (2.0 * rng.Uniform() - 1.0);
  }
  /** ||a - b|| in the features' units. */
  double Distance(const double* a, const double* b, std::size_t F) const {
    double s = 0.0;
    if (scale->empty()) {
      for (std::size_t j = 0; j < F; ++j) s += (a[j] - b[j]) * (a[j] - b[j]);
    } else {
      for (std::size_t j = 0; j < F; ++j) {
        const double d = (a[j] - b[j]) / (*scale)[j];
        s += d * d;
      }
    }
    return std::sqrt(s);
  }
};

/** One tree's label, fractions and SHAP values per cut pattern around one point. */
class TreeCache {
 public:
  void Reset(const Tree& tree, const double* x, const Box& box) {
    cuts_.clear();
    for (std::size_t i = 0; i < tree.n_nodes(); ++i) {
      if (tree.is_leaf(i)) continue;
      const int f = tree.feature[i];
      const double t = tree.threshold[i];
      if (std::fabs(t - x[f]) > 2.0 * box.HalfWidth(static_cast<std::size_t>(f))) continue;
      if (std::find(cuts_.begin(), cuts_.end(), std::make_pair(f, t)) == cuts_.end()) cuts_.emplace_back(f, t);
    }
    labels_.clear();
    fractions_.clear();
    phi_.clear();
    map_.clear();
    const std::size_t m = cuts_.size();
    slot_.assign(m <= kDirectCuts ? std::size_t{1} << m : 0, -1);
  }
  bool constant() const noexcept { return cuts_.empty(); }

  /** The entry of row x (computing it on first sight). */
  int Entry(const detail::PathSet& paths, std::size_t t, const Tree& tree, const double* x, std::size_t F,
            std::size_t k_out, double* q, double* w) {
    std::uint64_t key = 0;
    const bool hashed = cuts_.size() > kDirectCuts;
    for (std::size_t c = 0; c < cuts_.size() && c < 64; ++c)
      key |= static_cast<std::uint64_t>(x[cuts_[c].first] <= cuts_[c].second) << c;
    if (cuts_.size() > 64) return Compute(paths, t, tree, x, F, k_out, q, w);  // too many to key: no cache
    if (!hashed) {
      std::int32_t& s = slot_[key];
      if (s < 0) s = Compute(paths, t, tree, x, F, k_out, q, w);
      return s;
    }
    const auto it = map_.find(key);
    if (it != map_.end()) return it->second;
    const int e = Compute(paths, t, tree, x, F, k_out, q, w);
    map_.emplace(key, e);
    return e;
  }
  int label(int e) const { return labels_[static_cast<std::size_t>(e)]; }
  const double* fractions(int e, std::size_t k_out) const { return fractions_.data() + static_cast<std::size_t>(e) * k_out; }
  const double* phi(int e, std::size_t k_out, std::size_t F) const {
    return phi_.data() + static_cast<std::size_t>(e) * k_out * F;
  }

 private:
  static constexpr std::size_t kDirectCuts = 12;

  int Compute(const detail::PathSet& paths, std::size_t t, const Tree& tree, const double* x, std::size_t F,
              std::size_t k_out, double* q, double* w) {
    const std::size_t leaf = tree.Leaf(std::span<const double>(x, F), SplitRule::kLessEqual);
    const double* v = tree.value.data() + leaf * k_out;
    fractions_.insert(fractions_.end(), v, v + k_out);
    labels_.push_back(LabelOf(v, k_out));
    const std::size_t at = phi_.size();
    phi_.resize(at + k_out * F, 0.0);
    detail::AddTreeShap(paths, t, x, 1.0, q, w, phi_.data() + at);
    return static_cast<int>(labels_.size() - 1);
  }

  std::vector<std::pair<int, double>> cuts_;
  std::vector<std::int32_t> slot_;
  std::unordered_map<std::uint64_t, int> map_;
  std::vector<int> labels_;
  std::vector<double> fractions_;
  std::vector<double> phi_;
};

/** Explanations of one model around one point: the trees' caches and the sums. */
class ModelAtPoint {
 public:
  ModelAtPoint(const TreeEnsemble& model, bool axom)
      : model_(model), paths_(detail::BuildPaths(model, true, false)), axom_(axom) {
    caches_.resize(model.trees().size());
  }
  const TreeEnsemble& model() const noexcept { return model_; }

  /** Prepares the caches for the box around x; returns x's label. */
  int Reset(const double* x, const Box& box, std::size_t g_size, bool full) {
    const std::size_t F = model_.n_features();
    for (std::size_t t = 0; t < caches_.size(); ++t) caches_[t].Reset(model_.trees()[t], x, box);
    entries_.assign(caches_.size(), 0);
    fractions_.assign(model_.n_outputs(), 0.0);
    full_ = full;
    g_size_ = g_size;
    // Labels first: the point's label decides which trees AXOM keeps and which class g shows.
    Visit(x, F);
    label_ = LabelOf(fractions_.data(), model_.n_outputs());
    // The trees constant over the box contribute the same at every neighbour: once here.
    constant_forest_.assign(g_size, 0.0);
    constant_axom_.assign(g_size, 0.0);
    constant_kept_ = 0;
    for (std::size_t t = 0; t < caches_.size(); ++t) {
      if (!caches_[t].constant()) continue;
      AddTree(t, constant_forest_.data(), constant_axom_.data(), constant_kept_);
    }
    return label_;
  }

  int label() const noexcept { return label_; }

  /**
   * @brief The label at x and, when it is the point's, the explanations: g_forest (the mean over
   * all trees) and g_axom (over the trees voting the point's label); kept = those trees.
   */
  int Explain(const double* x, double* g_forest, double* g_axom, std::size_t& kept) {
    const std::size_t F = model_.n_features();
    Visit(x, F);
    const int label = LabelOf(fractions_.data(), model_.n_outputs());
    if (label != label_) return label;
    std::copy(constant_forest_.begin(), constant_forest_.end(), g_forest);
    if (g_axom != nullptr) std::copy(constant_axom_.begin(), constant_axom_.end(), g_axom);
    kept = constant_kept_;
    for (std::size_t t = 0; t < caches_.size(); ++t)
      if (!caches_[t].constant()) AddTree(t, g_forest, g_axom, kept);
    const double n_trees = static_cast<double>(caches_.size());
    for (std::size_t i = 0; i < g_size_; ++i) g_forest[i] /= n_trees;
    if (g_axom != nullptr)
      for (std::size_t i = 0; i < g_size_; ++i) g_axom[i] /= static_cast<double>(std::max<std::size_t>(kept, 1));
    return label;
  }

 private:
  /** Every tree's entry at x, and the mean fractions. */
  void Visit(const double* x, std::size_t F) {
    const std::size_t k_out = model_.n_outputs();
    std::fill(fractions_.begin(), fractions_.end(), 0.0);
    for (std::size_t t = 0; t < caches_.size(); ++t) {
      entries_[t] = caches_[t].Entry(paths_, t, model_.trees()[t], x, F, k_out, q_, w_);
      const double* v = caches_[t].fractions(entries_[t], k_out);
      for (std::size_t k = 0; k < k_out; ++k) fractions_[k] += v[k];
    }
    for (double& v : fractions_) v /= static_cast<double>(caches_.size());
  }

  /** Adds tree t's values (its last visited entry) to the forest's sum and, voting the point's
   *  label, to AXOM's. */
  void AddTree(std::size_t t, double* g_forest, double* g_axom, std::size_t& kept) {
    const std::size_t F = model_.n_features();
    const std::size_t k_out = model_.n_outputs();
    const int e = entries_[t];
    const double* phi = caches_[t].phi(e, k_out, F);
    const bool votes = caches_[t].label(e) == label_;
    if (full_) {
      AddAll(phi, k_out, F, 1.0, g_forest);
      if (axom_ && votes && g_axom != nullptr) AddAll(phi, k_out, F, 1.0, g_axom);
    } else {
      AddClass(phi, k_out, F, label_, 1.0, g_forest);
      if (axom_ && votes && g_axom != nullptr) AddClass(phi, k_out, F, label_, 1.0, g_axom);
    }
    if (votes) ++kept;
  }

  const TreeEnsemble& model_;
  detail::PathSet paths_;
  bool axom_;
  std::vector<TreeCache> caches_;
  std::vector<int> entries_;
  std::vector<double> fractions_;
  std::vector<double> constant_forest_;
  std::vector<double> constant_axom_;
  std::size_t constant_kept_ = 0;
  bool full_ = false;
  std::size_t g_size_ = 0;
  int label_ = 0;
  double q_[detail::kMaxPathFeatures + 1] = {};
  double w_[detail::kMaxPathFeatures + 1] = {};
};

double Distance(const double* a, const double* b, std::size_t n) {
  double s = 0.0;
  for (std::size_t i = 0; i < n; ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(s);
}

void CheckOptions(const ExplanationRobustnessOptions& o, std::size_t n_features) {
  PERFSHAP_CHECK(o.eps > 0.0 && o.eps <= 0.5,
                 "the neighbourhood's half-width eps must be in (0, 0.5] (features min-max normalised), got " +
                     std::to_string(o.eps),
                 {"eps"});
  PERFSHAP_CHECK(o.neighbours >= 1, "the robustness of explanations needs at least one neighbour per point",
                 {"neighbours"});
  PERFSHAP_CHECK(o.scale.empty() || o.scale.size() == n_features,
                 "the features' units (scale) hold " + std::to_string(o.scale.size()) + " values for " +
                     std::to_string(n_features) + " features; give one per feature or none",
                 {"scale"});
  for (std::size_t j = 0; j < o.scale.size(); ++j)
    PERFSHAP_CHECK(std::isfinite(o.scale[j]) && o.scale[j] > 0.0,
                   "feature " + std::to_string(j) + "'s unit (scale) is " + std::to_string(o.scale[j]) +
                       "; a unit is finite and > 0 (a constant feature's range counts as 1)",
                   {"scale"});
}

/** Running L_bar and L_hat of one method at one point. */
struct Ratios {
  double sum = 0.0;
  double max = 0.0;
  std::size_t kept = 0;
  void Add(double ratio) {
    sum += ratio;
    max = std::max(max, ratio);
    ++kept;
  }
  void Store(ExplanationRobustness& r, std::size_t i) const {
    r.l_bar[i] = kept > 0 ? sum / static_cast<double>(kept) : std::numeric_limits<double>::quiet_NaN();
    r.l_hat[i] = kept > 0 ? max : std::numeric_limits<double>::quiet_NaN();
    r.kept[i] = kept;
  }
};

void Resize(ExplanationRobustness& r, std::size_t n) {
  r.l_bar.assign(n, 0.0);
  r.l_hat.assign(n, 0.0);
  r.kept.assign(n, 0);
}

std::vector<double> RowOf(ColumnMatrix m, std::size_t F, std::size_t r) {
  std::vector<double> row(F);
  for (std::size_t j = 0; j < F; ++j) row[j] = m.values[j * m.n_rows + r];
  return row;
}

}  // namespace

AxomExplanation ExplainAxom(const TreeEnsemble& forest, ColumnMatrix rows, const ExecutionOptions& execution) {
  CheckForest(forest, "AXOM's model");
  const std::size_t F = forest.n_features();
  PERFSHAP_CHECK(rows.values.size() == F * rows.n_rows, "AXOM: the rows do not hold the model's features");
  const std::size_t k_out = forest.n_outputs();
  const std::size_t K = Classes(forest);
  const detail::PathSet paths = detail::BuildPaths(forest, true, false);
  AxomExplanation e;
  e.n_rows = rows.n_rows;
  e.n_features = F;
  e.n_classes = K;
  e.n_trees = forest.trees().size();
  e.label.assign(rows.n_rows, 0);
  e.kept_trees.assign(rows.n_rows, 0);
  e.axom.assign(rows.n_rows * K * F, 0.0);
  e.forest.assign(rows.n_rows * K * F, 0.0);
  detail::Schedule schedule(execution);
  schedule.ForEachBlock(rows.n_rows, 1, [&](std::size_t r) {
    const std::vector<double> x = RowOf(rows, F, r);
    std::vector<double> phi(forest.trees().size() * k_out * F, 0.0);
    std::vector<double> fractions(k_out, 0.0);
    std::vector<int> labels(forest.trees().size());
    double q[detail::kMaxPathFeatures + 1];
    double w[detail::kMaxPathFeatures + 1];
    for (std::size_t t = 0; t < forest.trees().size(); ++t) {
      const Tree& tree = forest.trees()[t];
      const std::size_t leaf = tree.Leaf(x, SplitRule::kLessEqual);
      labels[t] = LabelOf(tree.value.data() + leaf * k_out, k_out);
      for (std::size_t k = 0; k < k_out; ++k) fractions[k] += tree.value[leaf * k_out + k];
      detail::AddTreeShap(paths, t, x.data(), 1.0, q, w, phi.data() + t * k_out * F);
    }
    for (double& v : fractions) v /= static_cast<double>(forest.trees().size());
    const int label = LabelOf(fractions.data(), k_out);
    e.label[r] = label;
    double* axom = e.axom.data() + r * K * F;
    double* all = e.forest.data() + r * K * F;
    std::size_t kept = 0;
    for (std::size_t t = 0; t < forest.trees().size(); ++t) {
      AddAll(phi.data() + t * k_out * F, k_out, F, 1.0, all);
      if (labels[t] == label) {
        AddAll(phi.data() + t * k_out * F, k_out, F, 1.0, axom);
        ++kept;
      }
    }
    for (std::size_t i = 0; i < K * F; ++i) {
      all[i] /= static_cast<double>(forest.trees().size());
      axom[i] /= static_cast<double>(kept);  // the forest's label has at least one tree's vote
    }
    e.kept_trees[r] = kept;
  });
  // The last guard of the result path (explain/finite_result.hpp).
  const auto where = [&](std::size_t t) {
    return "row " + std::to_string(t / (K * F)) + ", class " + std::to_string(t / F % K) + ", feature " +
           std::to_string(t % F);
  };
  detail::RequireFinite("AXOM", "an AXOM value", e.axom, where);
  detail::RequireFinite("AXOM", "a forest SHAP value", e.forest, where);
  return e;
}

AxomRobustness EvaluateExplanationRobustness(const TreeEnsemble* tree, const TreeEnsemble& forest, ColumnMatrix points,
                                             const ExplanationRobustnessOptions& options) {
  CheckOptions(options, forest.n_features());
  CheckForest(forest, "the forest");
  if (tree != nullptr) {
    CheckForest(*tree, "the decision tree");
    PERFSHAP_CHECK(tree->n_features() == forest.n_features() && tree->n_outputs() == forest.n_outputs(),
                   "the decision tree and the forest must have the same features and classes");
  }
  const std::size_t F = forest.n_features();
  PERFSHAP_CHECK(points.values.size() == F * points.n_rows, "the test points do not hold the model's features");
  const std::size_t n = points.n_rows;
  CheckCost(EstimateAxomCost(n, options.neighbours, forest.trees().size() + (tree != nullptr ? 1 : 0), F,
                             static_cast<std::size_t>(forest.max_depth()), 1),
            options.execution, kAxomRemedy, {"neighbours", "trees"});
  const std::size_t g_size = options.full_matrix ? Classes(forest) * F : F;
  const Box box{options.eps, &options.scale};
  AxomRobustness out;
  Resize(out.tree, n);
  Resize(out.forest, n);
  Resize(out.axom, n);
  out.mislabelling.assign(n, 0.0);
  struct Scratch {
    std::unique_ptr<ModelAtPoint> forest;
    std::unique_ptr<ModelAtPoint> tree;
    std::vector<double> x, xj, g_tree_i, g_forest_i, g_axom_i, g_tree, g_forest, g_axom, unused;
  };
  detail::Schedule schedule(options.execution);
  schedule.ForEachBlock<Scratch>(
      n, 1,
      [&] {
        auto s = std::make_unique<Scratch>();
        s->forest = std::make_unique<ModelAtPoint>(forest, true);
        if (tree != nullptr) s->tree = std::make_unique<ModelAtPoint>(*tree, false);
        for (auto* v : {&s->g_tree_i, &s->g_forest_i, &s->g_axom_i, &s->g_tree, &s->g_forest, &s->g_axom, &s->unused})
          v->resize(g_size);
        s->xj.resize(F);
        return s;
      },
      [&](std::size_t i, Scratch& s) {
        s.x = RowOf(points, F, i);
        const double* x = s.x.data();
        std::size_t kept_trees = 0;
        s.forest->Reset(x, box, g_size, options.full_matrix);
        s.forest->Explain(x, s.g_forest_i.data(), s.g_axom_i.data(), kept_trees);
        out.mislabelling[i] =
            1.0 - static_cast<double>(kept_trees) / static_cast<double>(forest.trees().size());
        if (s.tree) {
          std::size_t unused = 0;
          s.tree->Reset(x, box, g_size, options.full_matrix);
          s.tree->Explain(x, s.g_tree_i.data(), nullptr, unused);
        }
        Ratios r_tree, r_forest, r_axom;
        RandomStream rng(options.seed, i);
        for (std::size_t k = 0; k < options.neighbours; ++k) {
          box.Draw(rng, x, F, s.xj.data());
          const double d = box.Distance(x, s.xj.data(), F);
          if (!(d > 0.0)) continue;  // the point itself (probability 0): no ratio
          std::size_t kept = 0;
          if (s.forest->Explain(s.xj.data(), s.g_forest.data(), s.g_axom.data(), kept) == s.forest->label()) {
            r_forest.Add(Distance(s.g_forest_i.data(), s.g_forest.data(), g_size) / d);
            r_axom.Add(Distance(s.g_axom_i.data(), s.g_axom.data(), g_size) / d);
          }
          if (s.tree) {
            std::size_t unused = 0;
            if (s.tree->Explain(s.xj.data(), s.g_tree.data(), nullptr, unused) == s.tree->label())
              r_tree.Add(Distance(s.g_tree_i.data(), s.g_tree.data(), g_size) / d);
          }
        }
        r_forest.Store(out.forest, i);
        r_axom.Store(out.axom, i);
        if (s.tree) r_tree.Store(out.tree, i);
      });
  if (tree == nullptr) out.tree = {};
  return out;
}

ExplanationRobustness PlainExplanationRobustness(const ExplainerFunction& f, ColumnMatrix points,
                                                 const ExplanationRobustnessOptions& options) {
  CheckOptions(options, f.n_features);
  const std::size_t F = f.n_features;
  const Box box{options.eps, &options.scale};
  PERFSHAP_CHECK(points.values.size() == F * points.n_rows, "the test points do not hold the explainer's features");
  ExplanationRobustness out;
  Resize(out, points.n_rows);
  std::vector<double> gi(f.size), gj(f.size), xj(F);
  for (std::size_t i = 0; i < points.n_rows; ++i) {
    const std::vector<double> x = RowOf(points, F, i);
    f.explain(x.data(), gi.data());
    const int label = f.label(x.data());
    Ratios r;
    RandomStream rng(options.seed, i);
    for (std::size_t k = 0; k < options.neighbours; ++k) {
      box.Draw(rng, x.data(), F, xj.data());
      const double d = box.Distance(x.data(), xj.data(), F);
      if (!(d > 0.0) || f.label(xj.data()) != label) continue;
      f.explain(xj.data(), gj.data());
      r.Add(Distance(gi.data(), gj.data(), f.size) / d);
    }
    r.Store(out, i);
  }
  return out;
}

ExplanationHeatmaps ComputeExplanationHeatmaps(const TreeEnsemble* tree, const TreeEnsemble& forest, ColumnMatrix points,
                                               std::size_t center, int feature_a, int feature_b, double eps,
                                               std::size_t grid, const ExecutionOptions& execution,
                                               const std::vector<double>& scale) {
  CheckForest(forest, "the forest");
  if (tree != nullptr) CheckForest(*tree, "the decision tree");
  const std::size_t F = forest.n_features();
  PERFSHAP_CHECK(points.values.size() == F * points.n_rows && points.n_rows > 0,
                 "the heat maps need test points with the model's features");
  PERFSHAP_CHECK(center < points.n_rows, "the heat maps' centre " + std::to_string(center) + " is not a test point");
  PERFSHAP_CHECK(feature_a >= 0 && feature_b >= 0 && static_cast<std::size_t>(feature_a) < F &&
                     static_cast<std::size_t>(feature_b) < F && feature_a != feature_b,
                 "the heat maps need two different features of the model", {"features"});
  PERFSHAP_CHECK(grid >= 2, "the heat maps need a grid of at least 2 x 2 points");
  ExplanationRobustnessOptions check;
  check.eps = eps;
  check.scale = scale;
  CheckOptions(check, F);
  const Box box{eps, &scale};
  ExplanationHeatmaps h;
  h.grid = grid;
  h.feature_a = feature_a;
  h.feature_b = feature_b;
  h.eps = eps;
  const std::size_t cells = grid * grid;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Every point's three ratio maps (and the centre's difference maps), then the mean in point order.
  std::vector<double> ratios(points.n_rows * 3 * cells, nan);
  for (auto& d : h.difference) d.assign(cells, nan);
  struct Scratch {
    std::unique_ptr<ModelAtPoint> forest;
    std::unique_ptr<ModelAtPoint> tree;
    std::vector<double> g_i[3], g[3], xm;
  };
  detail::Schedule schedule(execution);
  schedule.ForEachBlock<Scratch>(
      points.n_rows, 1,
      [&] {
        auto s = std::make_unique<Scratch>();
        s->forest = std::make_unique<ModelAtPoint>(forest, true);
        if (tree != nullptr) s->tree = std::make_unique<ModelAtPoint>(*tree, false);
        for (int m = 0; m < 3; ++m) {
          s->g_i[m].resize(F);
          s->g[m].resize(F);
        }
        return s;
      },
      [&](std::size_t i, Scratch& s) {
        const std::vector<double> x = RowOf(points, F, i);
        std::size_t kept = 0;
        s.forest->Reset(x.data(), box, F, false);
        s.forest->Explain(x.data(), s.g_i[1].data(), s.g_i[2].data(), kept);
        if (s.tree) {
          s.tree->Reset(x.data(), box, F, false);
          s.tree->Explain(x.data(), s.g_i[0].data(), nullptr, kept);
        }
        s.xm = x;
        const auto a = static_cast<std::size_t>(feature_a);
        const auto b = static_cast<std::size_t>(feature_b);
        const double wa = box.HalfWidth(a);
        const double wb = box.HalfWidth(b);
        for (std::size_t r = 0; r < grid; ++r)
          for (std::size_t c = 0; c < grid; ++c) {
            s.xm[a] = x[a] - wa + 2.0 * wa * static_cast<double>(c) / static_cast<double>(grid - 1);
            s.xm[b] = x[b] - wb + 2.0 * wb * static_cast<double>(r) / static_cast<double>(grid - 1);
            const double d = box.Distance(x.data(), s.xm.data(), F);
            bool same[3] = {false, false, false};
            same[1] = same[2] = s.forest->Explain(s.xm.data(), s.g[1].data(), s.g[2].data(), kept) == s.forest->label();
            if (s.tree) same[0] = s.tree->Explain(s.xm.data(), s.g[0].data(), nullptr, kept) == s.tree->label();
            for (int m = 0; m < 3; ++m) {
              if (!same[m]) continue;
              const double diff = Distance(s.g_i[m].data(), s.g[m].data(), F);
              if (i == center) h.difference[m][r * grid + c] = diff;
              if (d > 0.0) ratios[(i * 3 + static_cast<std::size_t>(m)) * cells + r * grid + c] = diff / d;
            }
          }
      });
  for (int m = 0; m < 3; ++m) {
    h.ratio[m].assign(ratios.begin() + static_cast<std::ptrdiff_t>((center * 3 + static_cast<std::size_t>(m)) * cells),
                      ratios.begin() + static_cast<std::ptrdiff_t>((center * 3 + static_cast<std::size_t>(m) + 1) * cells));
    h.mean_ratio[m].assign(cells, nan);
    for (std::size_t k = 0; k < cells; ++k) {
      double sum = 0.0;
      std::size_t count = 0;
      for (std::size_t i = 0; i < points.n_rows; ++i) {
        const double v = ratios[(i * 3 + static_cast<std::size_t>(m)) * cells + k];
        if (std::isnan(v)) continue;
        sum += v;
        ++count;
      }
      if (count > 0) h.mean_ratio[m][k] = sum / static_cast<double>(count);
    }
  }
  if (tree == nullptr) {
    h.difference[0].clear();
    h.ratio[0].clear();
    h.mean_ratio[0].clear();
  }
  return h;
}

}}  // namespace perfshap
