// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "support/tree_reference.hpp"

#include <cmath>
#include <limits>
#include <span>
#include <utility>

#include "perfshap/blocks/random.hpp"

namespace perfshap { inline namespace v0 { namespace testing {
namespace {

/** The split decision, written out independently of Tree::Leaf. */
bool GoesLeft(const Tree& t, std::size_t node, double x, SplitRule rule) {
  if (std::isnan(x)) return t.default_left[node] != 0;
  if (rule == SplitRule::kLessEqual) return x <= t.threshold[node];
  return static_cast<float>(x) < static_cast<float>(t.threshold[node]);
}

void Grow(Tree& t, std::int32_t node, int depth, const RandomTreeSpec& spec, RandomStream& rng) {
  // A node no training weight reached is not split (its conditional expectation would be 0 / 0).
  const bool leaf = depth >= spec.max_depth || (depth > 0 && rng.Uniform() < 0.2) ||
                    !(t.cover[static_cast<std::size_t>(node)] > 0.0);
  const std::size_t width = static_cast<std::size_t>(t.width);
  if (leaf) return;
  const auto f = static_cast<std::int32_t>(rng.Below(spec.n_features));
  double threshold = static_cast<double>(static_cast<int>(rng.Below(9)) - 4) / 2.0;
  if (spec.rule == SplitRule::kLessFloat) threshold = static_cast<double>(static_cast<float>(threshold + 0.1));
  const double cover = t.cover[static_cast<std::size_t>(node)];
  double share = 0.1 + 0.8 * rng.Uniform();
  if (spec.zero_covers && rng.Uniform() < 0.15) share = rng.Uniform() < 0.5 ? 0.0 : 1.0;
  std::vector<double> values(width);
  auto make_child = [&](double c) {
    for (double& v : values) v = rng.Normal();
    return t.AddNode(-1, 0.0, false, c, values);
  };
  t.feature[static_cast<std::size_t>(node)] = f;
  t.threshold[static_cast<std::size_t>(node)] = threshold;
  t.default_left[static_cast<std::size_t>(node)] = rng.Uniform() < 0.5 ? 1 : 0;
  const std::int32_t l = make_child(cover * share);
  const std::int32_t r = make_child(cover - cover * share);
  t.left[static_cast<std::size_t>(node)] = l;
  t.right[static_cast<std::size_t>(node)] = r;
  Grow(t, l, depth + 1, spec, rng);
  Grow(t, r, depth + 1, spec, rng);
}

double ExpValue(const Tree& t, std::size_t node, const std::vector<double>& row, Coalition s, SplitRule rule,
                std::size_t k) {
  if (t.is_leaf(node)) return t.value[node * static_cast<std::size_t>(t.width) + k];
  const auto l = static_cast<std::size_t>(t.left[node]);
  const auto r = static_cast<std::size_t>(t.right[node]);
  const int f = t.feature[node];
  if (Contains(s, f)) return ExpValue(t, GoesLeft(t, node, row[static_cast<std::size_t>(f)], rule) ? l : r, row, s, rule, k);
  return (t.cover[l] * ExpValue(t, l, row, s, rule, k) + t.cover[r] * ExpValue(t, r, row, s, rule, k)) / t.cover[node];
}

struct PathEntry {
  int feature;
  double zero;
  double one;
  double weight;
};

void Extend(std::vector<PathEntry>& m, double zero, double one, int feature) {
  const std::size_t l = m.size();
  m.push_back({feature, zero, one, l == 0 ? 1.0 : 0.0});
  for (std::size_t i = l; i-- > 0;) {
    m[i + 1].weight += one * m[i].weight * static_cast<double>(i + 1) / static_cast<double>(l + 1);
    m[i].weight = zero * m[i].weight * static_cast<double>(l - i) / static_cast<double>(l + 1);
  }
}

void Unwind(std::vector<PathEntry>& m, std::size_t index) {
  const std::size_t l = m.size() - 1;
  const double one = m[index].one;
  const double zero = m[index].zero;
  double next = m[l].weight;
  for (std::size_t i = l; i-- > 0;) {
    if (one != 0.0) {
      const double tmp = m[i].weight;
      m[i].weight = next * static_cast<double>(l + 1) / (static_cast<double>(i + 1) * one);
      next = tmp - m[i].weight * zero * static_cast<double>(l - i) / static_cast<double>(l + 1);
    } else {
      m[i].weight = m[i].weight * static_cast<double>(l + 1) / (zero * static_cast<double>(l - i));
    }
  }
  for (std::size_t i = index; i < l; ++i) {
    m[i].feature = m[i + 1].feature;
    m[i].zero = m[i + 1].zero;
    m[i].one = m[i + 1].one;
  }
  m.pop_back();
}

double UnwoundSum(std::vector<PathEntry> m, std::size_t index) {
  Unwind(m, index);
  double total = 0.0;
  for (const PathEntry& e : m) total += e.weight;
  return total;
}

void Recurse(const Tree& t, std::size_t node, std::vector<PathEntry> m, double zero, double one, int feature,
             const std::vector<double>& row, SplitRule rule, double scale, std::size_t n_features,
             std::vector<double>& phi) {
  Extend(m, zero, one, feature);
  if (t.is_leaf(node)) {
    for (std::size_t i = 1; i < m.size(); ++i) {
      const double w = UnwoundSum(m, i);
      for (int k = 0; k < t.width; ++k) {
        const double v = scale * t.value[node * static_cast<std::size_t>(t.width) + static_cast<std::size_t>(k)];
        phi[static_cast<std::size_t>(t.output + k) * (n_features + 1) + static_cast<std::size_t>(m[i].feature)] +=
            w * (m[i].one - m[i].zero) * v;
      }
    }
    return;
  }
  const int f = t.feature[node];
  const bool left = GoesLeft(t, node, row[static_cast<std::size_t>(f)], rule);
  const auto hot = static_cast<std::size_t>(left ? t.left[node] : t.right[node]);
  const auto cold = static_cast<std::size_t>(left ? t.right[node] : t.left[node]);
  double in_zero = 1.0;
  double in_one = 1.0;
  for (std::size_t k = 1; k < m.size(); ++k) {
    if (m[k].feature == f) {
      in_zero = m[k].zero;
      in_one = m[k].one;
      Unwind(m, k);
      break;
    }
  }
  // A branch with zero and one fractions both 0 adds nothing for any coalition (and its weights
  // could not be unwound): skip it.
  const double hot_zero = in_zero * t.cover[hot] / t.cover[node];
  if (hot_zero != 0.0 || in_one != 0.0) Recurse(t, hot, m, hot_zero, in_one, f, row, rule, scale, n_features, phi);
  const double cold_zero = in_zero * t.cover[cold] / t.cover[node];
  if (cold_zero != 0.0) Recurse(t, cold, m, cold_zero, 0.0, f, row, rule, scale, n_features, phi);
}

}  // namespace

std::shared_ptr<const TreeEnsemble> RandomEnsemble(const RandomTreeSpec& spec) {
  RandomStream rng(spec.seed, 77);
  std::vector<Tree> trees;
  for (std::size_t i = 0; i < spec.n_trees; ++i) {
    Tree t;
    t.width = spec.vector_leaves ? static_cast<int>(spec.n_outputs) : 1;
    t.output = spec.vector_leaves ? 0 : static_cast<int>(i % spec.n_outputs);
    std::vector<double> values(static_cast<std::size_t>(t.width));
    for (double& v : values) v = rng.Normal();
    t.AddNode(-1, 0.0, false, 20.0 + 80.0 * rng.Uniform(), values);
    Grow(t, 0, 0, spec, rng);
    trees.push_back(std::move(t));
  }
  TreeEnsembleInfo info;
  info.n_features = spec.n_features;
  info.n_outputs = spec.n_outputs;
  info.rule = spec.rule;
  info.tree_scale = spec.tree_scale;
  for (std::size_t o = 0; o < spec.n_outputs; ++o) info.base_margin.push_back(0.25 * static_cast<double>(o) - 0.1);
  return std::make_shared<TreeEnsemble>(std::move(trees), std::move(info));
}

std::vector<double> RandomRows(std::size_t n_features, std::size_t n, double missing, std::uint64_t seed) {
  RandomStream rng(seed, 78);
  std::vector<double> x(n_features * n);
  for (double& v : x) {
    const double u = rng.Uniform();
    if (u < missing) {
      v = std::numeric_limits<double>::quiet_NaN();
    } else if (u < 0.5) {
      v = static_cast<double>(static_cast<int>(rng.Below(9)) - 4) / 2.0;  // on a threshold
    } else if (u < 0.6) {
      // Within a float's rounding of a float threshold (k / 2 + 0.1 rounded to float).
      v = static_cast<double>(static_cast<float>(static_cast<double>(static_cast<int>(rng.Below(9)) - 4) / 2.0 + 0.1)) +
          (rng.Uniform() - 0.5) * 1e-9;
    } else {
      v = 5.0 * (rng.Uniform() - 0.5);
    }
  }
  return x;
}

std::vector<double> RowOf(const std::vector<double>& x, std::size_t n_features, std::size_t n, std::size_t r) {
  std::vector<double> row(n_features);
  for (std::size_t j = 0; j < n_features; ++j) row[j] = x[j * n + r];
  return row;
}

std::vector<double> RecursiveTreeShap(const TreeEnsemble& model, const std::vector<double>& row) {
  const std::size_t F = model.n_features();
  const std::size_t K = model.n_outputs();
  std::vector<double> phi(K * (F + 1), 0.0);
  for (const Tree& t : model.trees()) {
    Recurse(t, 0, {}, 1.0, 1.0, -1, row, model.info().rule, model.info().tree_scale, F, phi);
    for (int k = 0; k < t.width; ++k)
      phi[static_cast<std::size_t>(t.output + k) * (F + 1) + F] +=
          model.info().tree_scale * ExpValue(t, 0, row, 0, model.info().rule, static_cast<std::size_t>(k));
  }
  for (std::size_t o = 0; o < K; ++o) phi[o * (F + 1) + F] += model.base_margin(o);
  return phi;
}

FunctionGame PathDependentGame(std::shared_ptr<const TreeEnsemble> model, std::vector<double> row) {
  const int n = static_cast<int>(model->n_features());
  const std::size_t k = model->n_outputs();
  return FunctionGame(n, k, [model, row](Coalition s, std::span<double> out) {
    for (std::size_t o = 0; o < out.size(); ++o) out[o] = model->base_margin(o);
    for (const Tree& t : model->trees())
      for (int w = 0; w < t.width; ++w)
        out[static_cast<std::size_t>(t.output + w)] +=
            model->info().tree_scale * ExpValue(t, 0, row, s, model->info().rule, static_cast<std::size_t>(w));
  });
}

FunctionGame InterventionalGame(std::shared_ptr<const TreeEnsemble> model, std::vector<double> row,
                                std::vector<std::vector<double>> background) {
  const int n = static_cast<int>(model->n_features());
  const std::size_t k = model->n_outputs();
  return FunctionGame(n, k, [model, row, background](Coalition s, std::span<double> out) {
    const std::size_t F = row.size();
    std::vector<double> hybrid(F);
    std::vector<double> margin(out.size());
    std::fill(out.begin(), out.end(), 0.0);
    for (const auto& b : background) {
      for (std::size_t j = 0; j < F; ++j) hybrid[j] = Contains(s, static_cast<int>(j)) ? row[j] : b[j];
      model->PredictMargin(hybrid, 1, margin);
      for (std::size_t o = 0; o < out.size(); ++o) out[o] += margin[o];
    }
    for (double& v : out) v /= static_cast<double>(background.size());
  });
}

}}}  // namespace perfshap::testing
