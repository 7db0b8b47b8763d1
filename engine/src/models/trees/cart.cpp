// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// CART trees as scikit-learn's best splitter grows them (perfshap/blocks/tree_learners.hpp says what
// is the same and what is not), and FitTree. The impurity formulas are sklearn's, term for
// term, so that equal splits compare equal in both and ties go the same way where the order of
// the candidates is the same.
#include "models/trees/cart.hpp"

#include <algorithm>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common/enum_names.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

// ln 2, the divisor of sklearn's log2 (its `log(x)` is ln(x) / ln(2)).
constexpr double kLn2 = 0.69314718055994530942;

double Log2(double x) noexcept { return std::log(x) / kLn2; }

bool AllDigits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

MaxFeatures ParseMaxFeatures(const std::string& text, bool forest, bool regression, const std::string& who) {
  MaxFeatures m;
  const auto bad = [&](const std::string& why) {
    return InvalidArgument(who + " option max_features = '" + text + "' " + why +
                               " (use all, sqrt, log2, a count >= 1 or a fraction in (0, 1] such as 0.5)",
                           {"max_features"});
  };
  if (text.empty()) {
    m.kind = forest && !regression ? MaxFeatures::Kind::kSqrt : MaxFeatures::Kind::kAll;
  } else if (text == "all") {
    m.kind = MaxFeatures::Kind::kAll;
  } else if (text == "sqrt") {
    m.kind = MaxFeatures::Kind::kSqrt;
  } else if (text == "log2") {
    m.kind = MaxFeatures::Kind::kLog2;
  } else if (AllDigits(text)) {
    std::size_t k = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), k);
    if (ec != std::errc() || ptr != text.data() + text.size()) throw bad("is too large");
    if (k == 0) throw bad("is not a count >= 1");
    m.kind = MaxFeatures::Kind::kCount;
    m.count = k;
  } else {
    double f = 0.0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), f);
    if (ec != std::errc() || ptr != text.data() + text.size()) throw bad("is not understood");
    if (!(f > 0.0 && f <= 1.0)) throw bad("is not a fraction in (0, 1]");
    m.kind = MaxFeatures::Kind::kFraction;
    m.fraction = f;
  }
  return m;
}

}  // namespace

std::size_t MaxFeatures::Resolve(std::size_t n_features) const noexcept {
  const double f = static_cast<double>(n_features);
  std::size_t k = n_features;
  switch (kind) {
    case Kind::kAll:
      break;
    case Kind::kSqrt:
      k = static_cast<std::size_t>(std::sqrt(f));
      break;
    case Kind::kLog2:
      k = n_features == 0 ? 0 : static_cast<std::size_t>(std::log2(f));
      break;
    case Kind::kCount:
      k = count;
      break;
    case Kind::kFraction:
      k = static_cast<std::size_t>(fraction * f);
      break;
  }
  return std::min(std::max<std::size_t>(k, 1), std::max<std::size_t>(n_features, 1));
}

std::string MaxFeatures::Text() const {
  switch (kind) {
    case Kind::kAll:
      return "all";
    case Kind::kSqrt:
      return "sqrt";
    case Kind::kLog2:
      return "log2";
    case Kind::kCount:
      return std::to_string(count);
    case Kind::kFraction: {
      std::string s = LabelText(fraction);
      if (s.find_first_of(".eE") == std::string::npos) s += ".0";  // a fraction, not a count
      return s;
    }
  }
  return "all";
}

const char* CriterionName(CartCriterion criterion) noexcept {
  static constexpr EnumName<CartCriterion> kNames[] = {{CartCriterion::kGini, "gini"},
                                                       {CartCriterion::kEntropy, "entropy"},
                                                       {CartCriterion::kSquaredError, "squared_error"}};
  return NameOf(kNames, criterion, "gini");
}

CartSettings CheckTreeOptions(const TreeOptions& options, bool forest, const std::string& who) {
  CartSettings s;
  s.regression = options.regression;
  const std::string& c = options.criterion;
  if (options.regression) {
    PERFSHAP_CHECK(c.empty() || c == "squared_error",
                   who + " option criterion = '" + c + "' is not a regression criterion (use squared_error)",
                   {"criterion"});
    s.criterion = CartCriterion::kSquaredError;
  } else if (c.empty() || c == "gini") {
    s.criterion = CartCriterion::kGini;
  } else if (c == "entropy" || c == "log_loss") {
    s.criterion = CartCriterion::kEntropy;
  } else {
    throw InvalidArgument(who + " option criterion = '" + c +
                              "' is not a classification criterion (use gini or " +
                              "entropy; squared_error needs regression = true)",
                          {"criterion"});
  }
  PERFSHAP_CHECK(
      options.max_depth >= 0,
      who + " option max_depth must be >= 0 (0 = no limit), got " + std::to_string(options.max_depth),
      {"max_depth"});
  PERFSHAP_CHECK(
      options.min_samples_split >= 2,
      who + " option min_samples_split must be >= 2, got " + std::to_string(options.min_samples_split),
      {"min_samples_split"});
  PERFSHAP_CHECK(
      options.min_samples_leaf >= 1,
      who + " option min_samples_leaf must be >= 1, got " + std::to_string(options.min_samples_leaf),
      {"min_samples_leaf"});
  s.max_depth = options.max_depth;
  s.min_samples_split = options.min_samples_split;
  s.min_samples_leaf = options.min_samples_leaf;
  s.max_features = ParseMaxFeatures(options.max_features, forest, options.regression, who);
  return s;
}

std::string LabelText(double v) {
  char buf[32];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, ptr) : std::to_string(v);
}

// ---------------------------------------------------------------------------------------------
// The builder.

double CartBuilder::NodeStatistics(std::uint32_t start, std::uint32_t end) {
  const CartData& d = *data_;
  double w_total = 0.0;
  if (d.n_classes > 0) {
    std::fill(total_.begin(), total_.end(), 0.0);
    for (std::uint32_t p = start; p < end; ++p) {
      const std::uint32_t i = samples_[p];
      total_[static_cast<std::size_t>(d.classes[i])] += weight_[i];
      w_total += weight_[i];
    }
    node_weight_ = w_total;
    const std::size_t k = static_cast<std::size_t>(d.n_classes);
    if (k > 2) {
      for (std::size_t c = 0; c < k; ++c) values_[c] = total_[c] / w_total;
    } else {
      values_[0] = total_[k - 1] / w_total;
    }
    if (settings_->criterion == CartCriterion::kGini) {
      double sq = 0.0;
      for (std::size_t c = 0; c < k; ++c) sq += total_[c] * total_[c];
      return 1.0 - sq / (w_total * w_total);
    }
    double entropy = 0.0;
    for (std::size_t c = 0; c < k; ++c) {
      if (total_[c] > 0.0) {
        const double f = total_[c] / w_total;
        entropy -= f * Log2(f);
      }
    }
    return entropy;
  }
  double sum = 0.0;
  for (std::uint32_t p = start; p < end; ++p) {
    const std::uint32_t i = samples_[p];
    sum += weight_[i] * d.targets[i];
    w_total += weight_[i];
  }
  node_weight_ = w_total;
  node_sum_ = sum;
  const double mean = sum / w_total;
  values_[0] = mean;
  // Two passes: a node whose targets are all equal has variance 0 exactly (pure).
  double ss = 0.0;
  for (std::uint32_t p = start; p < end; ++p) {
    const std::uint32_t i = samples_[p];
    const double e = d.targets[i] - mean;
    ss += weight_[i] * (e * e);
  }
  return ss / w_total;
}

double CartBuilder::ClassProxy(double wl, double wr) const noexcept {
  const std::size_t k = static_cast<std::size_t>(data_->n_classes);
  double impurity_left = 0.0;
  double impurity_right = 0.0;
  if (settings_->criterion == CartCriterion::kGini) {
    double sq_left = 0.0;
    double sq_right = 0.0;
    for (std::size_t c = 0; c < k; ++c) {
      const double l = left_[c];
      const double r = total_[c] - l;
      sq_left += l * l;
      sq_right += r * r;
    }
    impurity_left = 1.0 - sq_left / (wl * wl);
    impurity_right = 1.0 - sq_right / (wr * wr);
  } else {
    for (std::size_t c = 0; c < k; ++c) {
      const double l = left_[c];
      const double r = total_[c] - l;
      if (l > 0.0) {
        const double f = l / wl;
        impurity_left -= f * Log2(f);
      }
      if (r > 0.0) {
        const double f = r / wr;
        impurity_right -= f * Log2(f);
      }
    }
  }
  return -wr * impurity_right - wl * impurity_left;
}

CartBuilder::Best CartBuilder::FindSplit(std::uint32_t start, std::uint32_t end, std::uint32_t n_known,
                                         std::uint32_t& n_found) {
  const CartData& d = *data_;
  const std::size_t n_features = d.columns.size();
  const std::uint32_t n = end - start;
  const auto min_leaf = static_cast<std::uint32_t>(settings_->min_samples_leaf);
  const bool classify = d.n_classes > 0;
  Best best;
  double best_proxy = -std::numeric_limits<double>::infinity();
  n_found = 0;

  // The candidates: the features known to be constant here first (drawing one counts as a draw),
  // then the others.
  for (std::uint32_t k = 0; k < n_known; ++k) known_[static_cast<std::size_t>(constants_[k])] = 1;
  std::size_t n_pool = 0;
  for (std::uint32_t k = 0; k < n_known; ++k) pool_[n_pool++] = constants_[k];
  for (std::size_t f = 0; f < n_features; ++f)
    if (known_[f] == 0) pool_[n_pool++] = static_cast<std::int32_t>(f);
  for (std::uint32_t k = 0; k < n_known; ++k) known_[static_cast<std::size_t>(constants_[k])] = 0;
  std::size_t n_pool_known = n_known;

  std::size_t visited = 0;
  std::size_t constant_visits = 0;
  while (n_pool > n_pool_known && (visited < max_features_ || visited == constant_visits)) {
    ++visited;
    const auto j = static_cast<std::size_t>(rng_->Below(n_pool));
    const std::int32_t feature = pool_[j];
    if (j < n_pool_known) {
      pool_[j] = pool_[n_pool_known - 1];
      pool_[n_pool_known - 1] = pool_[n_pool - 1];
      --n_pool_known;
      --n_pool;
      ++constant_visits;
      continue;
    }
    pool_[j] = pool_[n_pool - 1];
    --n_pool;

    const double* x = d.columns[static_cast<std::size_t>(feature)];
    for (std::uint32_t p = 0; p < n; ++p) {
      const std::uint32_t i = samples_[start + p];
      keyed_[p] = Keyed{x[i], i};
    }
    std::sort(keyed_.begin(), keyed_.begin() + n,
              [](const Keyed& a, const Keyed& b) { return a.value < b.value; });
    if (!(keyed_[n - 1].value > keyed_[0].value)) {
      constants_[n_known + n_found++] = feature;
      ++constant_visits;
      continue;
    }

    // Every boundary between distinct values, the left sums growing row by row.
    double wl = 0.0;
    double sum_left = 0.0;
    if (classify) std::fill(left_.begin(), left_.end(), 0.0);
    const std::uint32_t last = n - min_leaf;  // the largest left count allowed
    for (std::uint32_t p = 0; p + 1 < n; ++p) {
      const std::uint32_t i = keyed_[p].row;
      const double w = weight_[i];
      if (classify) {
        left_[static_cast<std::size_t>(d.classes[i])] += w;
      } else {
        sum_left += w * d.targets[i];
      }
      wl += w;
      const std::uint32_t pos = p + 1;
      if (pos > last) break;
      if (pos < min_leaf || !(keyed_[p + 1].value > keyed_[p].value)) continue;
      const double wr = node_weight_ - wl;
      double proxy;
      if (classify) {
        proxy = ClassProxy(wl, wr);
      } else {
        const double sum_right = node_sum_ - sum_left;
        proxy = sum_left * sum_left / wl + sum_right * sum_right / wr;
      }
      if (proxy > best_proxy) {
        best_proxy = proxy;
        const double a = keyed_[p].value;
        const double b = keyed_[p + 1].value;
        double threshold = a / 2.0 + b / 2.0;
        if (threshold == b || std::isinf(threshold)) threshold = a;
        best = Best{feature, pos, threshold, wl};
      }
    }
  }
  return best;
}

void CartBuilder::Grow(const CartData& data, const CartSettings& settings, std::span<const double> weights,
                       RandomStream& rng, Tree& tree) {
  data_ = &data;
  settings_ = &settings;
  rng_ = &rng;
  const std::size_t n_rows = data.n_rows;
  const std::size_t n_features = data.columns.size();
  PERFSHAP_DCHECK(n_features >= 1 && n_rows >= 1 && n_rows < std::numeric_limits<std::uint32_t>::max());
  PERFSHAP_DCHECK(weights.empty() || weights.size() == n_rows);
  max_features_ = settings.max_features.Resolve(n_features);
  if (weights.empty()) {
    if (ones_.size() < n_rows) ones_.assign(n_rows, 1.0);
    weight_ = ones_.data();
  } else {
    weight_ = weights.data();
  }
  samples_.clear();
  for (std::size_t i = 0; i < n_rows; ++i)
    if (weight_[i] > 0.0) samples_.push_back(static_cast<std::uint32_t>(i));
  PERFSHAP_DCHECK(!samples_.empty());
  right_.resize(samples_.size());
  keyed_.resize(samples_.size());
  constants_.resize(n_features);
  pool_.resize(n_features);
  known_.assign(n_features, 0);
  const auto k = static_cast<std::size_t>(std::max(data.n_classes, 1));
  total_.assign(k, 0.0);
  left_.assign(k, 0.0);
  const int width = CartWidth(data.n_classes);
  values_.assign(static_cast<std::size_t>(width), 0.0);

  tree.feature.clear();
  tree.threshold.clear();
  tree.left.clear();
  tree.right.clear();
  tree.default_left.clear();
  tree.cover.clear();
  tree.value.clear();
  tree.output = 0;
  tree.width = width;

  // Depth first, left child first: a node's number is its place in that order, as sklearn's.
  stack_.clear();
  stack_.push_back(Record{0, static_cast<std::uint32_t>(samples_.size()), 0, -1, 0, false});
  const std::span<const double> values(values_);
  while (!stack_.empty()) {
    const Record r = stack_.back();
    stack_.pop_back();
    const std::uint32_t n = r.end - r.start;
    const double impurity = NodeStatistics(r.start, r.end);
    bool leaf = (settings.max_depth > 0 && r.depth >= settings.max_depth) ||
                n < static_cast<std::uint32_t>(settings.min_samples_split) ||
                n < 2 * static_cast<std::uint32_t>(settings.min_samples_leaf) || impurity <= DBL_EPSILON;
    Best best;
    std::uint32_t n_found = 0;
    if (!leaf) {
      best = FindSplit(r.start, r.end, r.n_known_constants, n_found);
      leaf = best.feature < 0;
    }
    std::int32_t id;
    if (leaf) {
      id = tree.AddNode(-1, 0.0, true, node_weight_, values);
    } else {
      id = tree.AddNode(best.feature, best.threshold, best.weight_left >= node_weight_ - best.weight_left,
                        node_weight_, values);
    }
    if (r.parent >= 0) (r.is_left ? tree.left : tree.right)[static_cast<std::size_t>(r.parent)] = id;
    if (leaf) continue;
    // Rows x <= threshold to the left, in their order; the others after them.
    const double* x = data.columns[static_cast<std::size_t>(best.feature)];
    std::uint32_t w = r.start;
    std::uint32_t k_right = 0;
    for (std::uint32_t p = r.start; p < r.end; ++p) {
      const std::uint32_t i = samples_[p];
      if (x[i] <= best.threshold) {
        samples_[w++] = i;
      } else {
        right_[k_right++] = i;
      }
    }
    PERFSHAP_DCHECK(w - r.start == best.pos);
    std::copy(right_.begin(), right_.begin() + k_right, samples_.begin() + w);
    const std::uint32_t n_constants = r.n_known_constants + n_found;
    stack_.push_back(Record{w, r.end, r.depth + 1, id, n_constants, false});
    stack_.push_back(Record{r.start, w, r.depth + 1, id, n_constants, true});
  }
}

// ---------------------------------------------------------------------------------------------
// From a Dataset.

CartData CartTable::View() const {
  CartData d;
  d.n_rows = n_rows;
  d.columns = columns;
  d.classes = classes;
  d.targets = targets;
  d.n_classes = static_cast<int>(class_values.size());
  return d;
}

CartTable GatherTable(const Dataset& data, std::span<const std::size_t> rows,
                      std::span<const std::size_t> columns, bool regression, const std::string& who) {
  PERFSHAP_CHECK(!columns.empty(), who + ": need at least one feature column");
  PERFSHAP_CHECK(!rows.empty(), who + ": need at least one training row");
  PERFSHAP_CHECK(rows.size() < std::numeric_limits<std::uint32_t>::max(), who + ": too many training rows");
  for (std::size_t c : columns)
    PERFSHAP_CHECK(c < data.n_features(), who + ": feature column index " + std::to_string(c) +
                                              " is out of range (the data has " +
                                              std::to_string(data.n_features()) + " features)");
  for (std::size_t r : rows)
    PERFSHAP_CHECK(r < data.n_rows(), who + ": row index " + std::to_string(r) +
                                          " is out of range (the data has " + std::to_string(data.n_rows()) +
                                          " rows)");
  if (data.label().size() != data.n_rows())
    throw DataError(data.source() + ": the data has no label column; " + who + " needs one", {"label"});
  CartTable t;
  const std::size_t n = rows.size();
  t.n_rows = n;
  t.x.resize(n * columns.size());
  t.columns.resize(columns.size());
  for (std::size_t j = 0; j < columns.size(); ++j) {
    const auto col = data.column(columns[j]);
    double* out = t.x.data() + j * n;
    t.columns[j] = out;
    for (std::size_t i = 0; i < n; ++i) {
      out[i] = col[rows[i]];
      if (!std::isfinite(out[i]))
        throw DataError(data.source() + ": feature '" + data.feature_names()[columns[j]] +
                        "' has a missing value in data row " + std::to_string(rows[i]) +
                        "; drop or impute the row before training " + who);
    }
  }
  const auto label = data.label();
  std::vector<double> y(n);
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = label[rows[i]];
    if (!std::isfinite(y[i]))
      throw DataError(data.source() + ": label '" + data.label_name() + "' of data row " +
                      std::to_string(rows[i]) + " is not a finite number; " + who + " needs one");
  }
  if (regression) {
    t.targets = std::move(y);
    return t;
  }
  t.class_values = y;
  std::sort(t.class_values.begin(), t.class_values.end());
  t.class_values.erase(std::unique(t.class_values.begin(), t.class_values.end()), t.class_values.end());
  t.classes.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    t.classes[i] = static_cast<std::int32_t>(
        std::lower_bound(t.class_values.begin(), t.class_values.end(), y[i]) - t.class_values.begin());
  return t;
}

TreeEnsembleInfo CartInfo(const Dataset& data, std::span<const std::size_t> columns, const CartTable& table,
                          const CartSettings& settings, std::size_t n_trees) {
  TreeEnsembleInfo info;
  info.n_features = columns.size();
  for (std::size_t c : columns) info.feature_names.push_back(data.feature_names()[c]);
  const std::size_t k = table.class_values.size();
  info.n_outputs = static_cast<std::size_t>(CartWidth(static_cast<int>(k)));
  info.tree_scale = 1.0 / static_cast<double>(n_trees);
  info.transform = TreeTransform::kIdentity;
  info.rule = SplitRule::kLessEqual;
  info.classifier = !settings.regression;
  for (double v : table.class_values) info.class_names.push_back(LabelText(v));
  const std::string criterion = std::string("(") + CriterionName(settings.criterion) + ")";
  std::string d =
      n_trees == 1
          ? std::string(settings.regression ? "CART regression tree " : "CART classification tree ")
          : std::string(settings.regression ? "random forest regressor " : "random forest classifier ");
  d += criterion;
  if (n_trees != 1) d += ", " + std::to_string(n_trees) + " trees";
  d += ", " + std::to_string(columns.size()) + (columns.size() == 1 ? " feature" : " features");
  if (!settings.regression) d += ", " + std::to_string(k) + (k == 1 ? " class" : " classes");
  info.description = std::move(d);
  return info;
}

}}}  // namespace perfshap::detail

namespace perfshap { inline namespace v0 {

std::shared_ptr<const TreeEnsemble> FitTree(const TreeOptions& options, const Dataset& data,
                                            std::span<const std::size_t> rows,
                                            std::span<const std::size_t> columns) {
  const detail::CartSettings settings = detail::CheckTreeOptions(options, false, "tree");
  const detail::CartTable table = detail::GatherTable(data, rows, columns, options.regression, "tree");
  detail::CartBuilder builder;
  std::vector<Tree> trees(1);
  RandomStream rng(options.seed, 0);
  builder.Grow(table.View(), settings, {}, rng, trees[0]);
  return std::make_shared<const TreeEnsemble>(std::move(trees),
                                              detail::CartInfo(data, columns, table, settings, 1));
}

}}  // namespace perfshap
