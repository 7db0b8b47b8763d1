// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "values/ctree_conditional.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <limits>
#include <numeric>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

constexpr double kNothing = -std::numeric_limits<double>::max();

// log P(chi2_df <= c).
double LogConfidence(double c, std::size_t df) {
  if (df == 0) return kNothing;
  const double p = boost::math::gamma_q(0.5 * static_cast<double>(df), 0.5 * std::max(c, 0.0));
  return p >= 1.0 ? kNothing : std::log1p(-p);
}

// The eigenvalues of a symmetric positive semi-definite matrix kept as partykit's Moore-Penrose
// inverse keeps singular values: those above sqrt(eps) of the largest.
Eigen::Index KeptFrom(const Eigen::VectorXd& ascending) {
  const Eigen::Index q = ascending.size();
  if (q == 0 || !(ascending(q - 1) > 0.0)) return q;
  const double floor = std::sqrt(std::numeric_limits<double>::epsilon()) * ascending(q - 1);
  Eigen::Index first = 0;
  while (first < q && !(ascending(first) > floor)) ++first;
  return first;
}

// The permutation statistic of scores g against h by the plain formulas: (T - mu)^T Sigma^+ (T - mu).
CtreeTest PlainStatistic(std::span<const double> g, const Eigen::MatrixXd& h) {
  const auto n = static_cast<double>(g.size());
  const Eigen::Map<const Eigen::VectorXd> gv(g.data(), static_cast<Eigen::Index>(g.size()));
  const Eigen::VectorXd hbar = h.colwise().mean().transpose();
  const Eigen::MatrixXd centred = h.rowwise() - hbar.transpose();
  const Eigen::MatrixXd V = centred.transpose() * centred / n;
  const double sg = gv.sum();
  const Eigen::VectorXd t_minus_mu = h.transpose() * gv - sg * hbar;
  const Eigen::MatrixXd sigma = V * (n * gv.squaredNorm() - sg * sg) / (n - 1.0);
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(sigma, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Eigen::VectorXd s = svd.singularValues();
  CtreeTest test;
  if (s.size() == 0 || !(s(0) > 0.0)) return test;
  const double floor = std::sqrt(std::numeric_limits<double>::epsilon()) * s(0);
  Eigen::VectorXd inverse = Eigen::VectorXd::Zero(s.size());
  for (Eigen::Index i = 0; i < s.size(); ++i)
    if (s(i) > floor) {
      inverse(i) = 1.0 / s(i);
      ++test.df;
    }
  const Eigen::VectorXd u = svd.matrixU().transpose() * t_minus_mu;
  const Eigen::VectorXd v = svd.matrixV().transpose() * t_minus_mu;
  test.statistic = std::max(0.0, (u.array() * inverse.array() * v.array()).sum());
  test.log_confidence = LogConfidence(test.statistic, test.df);
  return test;
}

// A tree's fit: the per-input orders of the rows laid out by node ranges, and a node's
// whitened responses.
class CtreeFitter {
 public:
  CtreeFitter(const Eigen::MatrixXd& b, std::span<const std::uint8_t> inside, const CtreeSettings& settings)
      : b_(b), settings_(settings), n_(static_cast<std::size_t>(b.rows())) {
    for (std::size_t j = 0; j < inside.size(); ++j)
      (inside[j] != 0 ? in_ : out_).push_back(static_cast<int>(j));
    order_.assign(std::max<std::size_t>(in_.size(), 1), std::vector<std::uint32_t>(n_));
    for (std::size_t a = 0; a < order_.size(); ++a) {
      std::iota(order_[a].begin(), order_[a].end(), 0u);
      if (a < in_.size()) {
        const auto col = b_.col(in_[a]);
        std::stable_sort(order_[a].begin(), order_[a].end(),
                         [&](std::uint32_t p, std::uint32_t q) { return col(p) < col(q); });
      }
    }
    responses_ = b_(Eigen::all, out_).transpose();  // q x n, row i's responses in column i
    white_.resize(static_cast<Eigen::Index>(out_.size()), static_cast<Eigen::Index>(n_));
    left_.assign(n_, 0);
    scratch_.resize(n_);
  }

  CtreeTree Fit() {
    CtreeTree tree;
    struct Task {
      int node;
      std::uint32_t begin, end;
    };
    tree.nodes.push_back({});
    std::vector<Task> tasks{{0, 0, static_cast<std::uint32_t>(n_)}};
    while (!tasks.empty()) {
      const Task t = tasks.back();
      tasks.pop_back();
      int input = -1;
      double cut = 0.0;
      std::uint32_t n_left = 0;
      if (!in_.empty() && !out_.empty() && t.end - t.begin >= settings_.minsplit)
        Choose(t.begin, t.end, input, cut, n_left);
      CtreeTree::Node& node = tree.nodes[static_cast<std::size_t>(t.node)];
      node.first = t.begin;
      node.count = t.end - t.begin;
      if (input < 0) continue;
      node.input = in_[static_cast<std::size_t>(input)];
      node.cut = cut;
      Partition(t.begin, t.end, node.input, cut);
      const int left = static_cast<int>(tree.nodes.size());
      tree.nodes[static_cast<std::size_t>(t.node)].left = left;
      tree.nodes[static_cast<std::size_t>(t.node)].right = left + 1;
      tree.nodes.push_back({});
      tree.nodes.push_back({});
      tasks.push_back({left + 1, t.begin + n_left, t.end});
      tasks.push_back({left, t.begin, t.begin + n_left});
    }
    // Each leaf's rows by index, so that the draws depend on the leaf's rows only, not on the
    // input that ordered them.
    tree.rows = std::move(order_[0]);
    for (const CtreeTree::Node& node : tree.nodes)
      if (node.input < 0)
        std::sort(tree.rows.begin() + node.first, tree.rows.begin() + node.first + node.count);
    return tree;
  }

 private:
  // The node's split: the inputs by their adjusted test, the first splittry of them that pass
  // mincriterion tried for a cut. input stays -1 when none splits.
  void Choose(std::uint32_t begin, std::uint32_t end, int& input, double& cut, std::uint32_t& n_left) {
    const std::size_t m = end - begin;
    const Eigen::Index r = Whiten(begin, end);
    if (r == 0) return;
    const std::size_t k = in_.size();
    std::vector<CtreeTest> tests(k);
    for (std::size_t a = 0; a < k; ++a) tests[a] = Test(a, begin, end, r);
    std::vector<std::size_t> by(k);
    std::iota(by.begin(), by.end(), std::size_t{0});
    std::stable_sort(by.begin(), by.end(), [&](std::size_t p, std::size_t q) {
      if (tests[p].log_confidence != tests[q].log_confidence)
        return tests[p].log_confidence > tests[q].log_confidence;
      return tests[p].statistic > tests[q].statistic;
    });
    const double threshold = std::log(settings_.mincriterion);
    const auto bucket = std::max<std::size_t>(
        settings_.minbucket, static_cast<std::size_t>(std::ceil(static_cast<double>(m) * settings_.minprob)));
    for (std::size_t tried = 0; tried < std::min(settings_.splittry, k); ++tried) {
      const std::size_t a = by[tried];
      if (!(static_cast<double>(k) * tests[a].log_confidence > threshold)) return;
      const CtreeCut best = Cut(a, begin, end, r, bucket, n_left);
      if (best.found) {
        input = static_cast<int>(a);
        cut = best.cut;
        return;
      }
    }
  }

  // white_'s columns of the node's rows: W (h_i - hbar) with V^+ = W^T W; returns rank(V).
  Eigen::Index Whiten(std::uint32_t begin, std::uint32_t end) {
    const auto q = static_cast<Eigen::Index>(out_.size());
    const auto m = static_cast<double>(end - begin);
    Eigen::VectorXd hbar = Eigen::VectorXd::Zero(q);
    for (std::uint32_t i = begin; i < end; ++i) hbar += responses_.col(order_[0][i]);
    hbar /= m;
    Eigen::MatrixXd V = Eigen::MatrixXd::Zero(q, q);
    for (std::uint32_t i = begin; i < end; ++i) {
      diff_ = responses_.col(order_[0][i]) - hbar;
      V.selfadjointView<Eigen::Lower>().rankUpdate(diff_);
    }
    V = V.selfadjointView<Eigen::Lower>();
    V /= m;
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(V);
    const Eigen::Index first = KeptFrom(eig.eigenvalues());
    const Eigen::Index r = q - first;
    if (r == 0) return 0;
    const Eigen::MatrixXd W = (eig.eigenvalues().tail(r).cwiseSqrt().cwiseInverse()).asDiagonal() *
                              eig.eigenvectors().rightCols(r).transpose();
    for (std::uint32_t i = begin; i < end; ++i) {
      const std::uint32_t row = order_[0][i];
      diff_ = responses_.col(row) - hbar;
      white_.col(row).head(r).noalias() = W * diff_;
    }
    return r;
  }

  // Input a's test: c = (m - 1) / (m Sxx) |sum (x_i - xbar) w_i|^2.
  CtreeTest Test(std::size_t a, std::uint32_t begin, std::uint32_t end, Eigen::Index r) {
    const auto col = b_.col(in_[a]);
    const auto m = static_cast<double>(end - begin);
    double xbar = 0.0;
    for (std::uint32_t i = begin; i < end; ++i) xbar += col(order_[a][i]);
    xbar /= m;
    double sxx = 0.0;
    Eigen::VectorXd& d = sum_;
    d.setZero(r);
    for (std::uint32_t i = begin; i < end; ++i) {
      const std::uint32_t row = order_[a][i];
      const double dx = col(row) - xbar;
      sxx += dx * dx;
      d += dx * white_.col(row).head(r);
    }
    CtreeTest test;
    if (col(order_[a][begin]) == col(order_[a][end - 1]) || !(sxx > 0.0)) return test;
    test.df = static_cast<std::size_t>(r);
    test.statistic = (m - 1.0) / (m * sxx) * d.squaredNorm();
    test.log_confidence = LogConfidence(test.statistic, test.df);
    return test;
  }

  // Input a's best cut along its order: (m - 1) / (n_L n_R) |cumulative sum of w_i|^2.
  CtreeCut Cut(std::size_t a, std::uint32_t begin, std::uint32_t end, Eigen::Index r, std::size_t bucket,
               std::uint32_t& n_left) {
    const auto col = b_.col(in_[a]);
    const std::size_t m = end - begin;
    Eigen::VectorXd& sum = sum_;
    sum.setZero(r);
    CtreeCut best;
    for (std::size_t t = 0; t + 1 < m; ++t) {
      const std::uint32_t row = order_[a][begin + t];
      sum += white_.col(row).head(r);
      const std::size_t nl = t + 1, nr = m - nl;
      const double x = col(row), next = col(order_[a][begin + t + 1]);
      if (nl < bucket || nr < bucket || !(x < next)) continue;
      const double c = static_cast<double>(m - 1) / (static_cast<double>(nl) * static_cast<double>(nr)) *
                       sum.squaredNorm();
      if (!best.found || c > best.statistic) {
        best = {true, x, c};
        n_left = static_cast<std::uint32_t>(nl);
      }
    }
    return best;
  }

  // Every input's order in [begin, end) split stably into the rows that go left, then the others.
  void Partition(std::uint32_t begin, std::uint32_t end, int feature, double cut) {
    const auto col = b_.col(feature);
    for (std::uint32_t i = begin; i < end; ++i) left_[order_[0][i]] = col(order_[0][i]) <= cut ? 1 : 0;
    for (std::vector<std::uint32_t>& order : order_) {
      std::uint32_t l = begin, r = 0;
      for (std::uint32_t i = begin; i < end; ++i) {
        const std::uint32_t row = order[i];
        if (left_[row] != 0)
          order[l++] = row;
        else
          scratch_[r++] = row;
      }
      std::copy_n(scratch_.begin(), r, order.begin() + l);
    }
  }

  const Eigen::MatrixXd& b_;
  const CtreeSettings& settings_;
  std::size_t n_;
  std::vector<int> in_, out_;
  std::vector<std::vector<std::uint32_t>> order_;
  Eigen::MatrixXd responses_, white_;
  Eigen::VectorXd diff_, sum_;  // a row's centred responses; a sum of whitened ones
  std::vector<std::uint8_t> left_;
  std::vector<std::uint32_t> scratch_;
};

// A coalition's draws: the leaf of the row, then its rows by the stratified uniforms.
class CtreeDraws final : public CoalitionDraws {
 public:
  CtreeDraws(const CtreeFeatures& c, std::span<const std::uint8_t> inside, std::span<const double> z,
             std::size_t n_draws)
      : c_(c), tree_(c.Tree(inside)), n_draws_(n_draws), uniform_(n_draws) {
    const std::size_t F = c.n_features();
    for (std::size_t j = 0; j < F; ++j) (inside[j] != 0 ? in_ : out_).push_back(static_cast<int>(j));
    const boost::math::normal standard;
    for (std::size_t k = 0; k < n_draws; ++k) uniform_[k] = boost::math::cdf(standard, z[k * F]);
  }

  void Draw(std::span<const double> x, std::span<double> draws) override {
    const CtreeTree::Node& leaf = tree_->Leaf(x);
    const auto m = static_cast<double>(leaf.count);
    for (std::size_t k = 0; k < n_draws_; ++k) {
      const double at = (static_cast<double>(k) + uniform_[k]) / static_cast<double>(n_draws_) * m;
      const auto i = std::min<std::size_t>(static_cast<std::size_t>(at), leaf.count - 1);
      const auto row = static_cast<Eigen::Index>(tree_->rows[leaf.first + i]);
      for (const int j : out_) draws[static_cast<std::size_t>(j) * n_draws_ + k] = c_.rows()(row, j);
    }
    for (const int j : in_)
      std::fill_n(draws.begin() + static_cast<std::ptrdiff_t>(j * n_draws_), n_draws_, x[j]);
  }

 private:
  const CtreeFeatures& c_;
  std::shared_ptr<const CtreeTree> tree_;
  std::size_t n_draws_;
  std::vector<int> in_, out_;
  std::vector<double> uniform_;
};

}  // namespace

CtreeTest CtreeIndependenceTest(std::span<const double> x, const Eigen::MatrixXd& h) {
  PERFSHAP_CHECK(static_cast<Eigen::Index>(x.size()) == h.rows() && x.size() >= 2,
                 "CtreeIndependenceTest: the input and the responses differ in rows");
  if (*std::min_element(x.begin(), x.end()) == *std::max_element(x.begin(), x.end())) return {};
  return PlainStatistic(x, h);
}

CtreeCut CtreeBestCut(std::span<const double> x, const Eigen::MatrixXd& h, std::size_t minbucket) {
  std::vector<double> values(x.begin(), x.end());
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  CtreeCut best;
  std::vector<double> g(x.size());
  for (std::size_t v = 0; v + 1 < values.size(); ++v) {
    std::size_t left = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      g[i] = x[i] <= values[v] ? 1.0 : 0.0;
      left += x[i] <= values[v] ? 1 : 0;
    }
    if (left < minbucket || x.size() - left < minbucket) continue;
    const double c = PlainStatistic(g, h).statistic;
    if (!best.found || c > best.statistic) best = {true, values[v], c};
  }
  return best;
}

const CtreeTree::Node& CtreeTree::Leaf(std::span<const double> x) const {
  const Node* node = &nodes[0];
  while (node->input >= 0)
    node = &nodes[static_cast<std::size_t>(
        x[static_cast<std::size_t>(node->input)] <= node->cut ? node->left : node->right)];
  return *node;
}

CtreeTree FitCtree(const Eigen::MatrixXd& background, std::span<const std::uint8_t> inside,
                   const CtreeSettings& settings) {
  PERFSHAP_CHECK(static_cast<Eigen::Index>(inside.size()) == background.cols() && background.rows() >= 1,
                 "FitCtree: the coalition and the background differ in features");
  return CtreeFitter(background, inside, settings).Fit();
}

CtreeFeatures::CtreeFeatures(ColumnMatrix background, std::size_t n_features, CtreeSettings settings)
    : n_features_(n_features), settings_(settings) {
  if (background.n_rows < 2)
    throw InvalidArgument(
        "a conditional value function needs at least 2 background rows; give more background rows",
        {"background"});
  PERFSHAP_CHECK(background.values.size() == background.n_rows * n_features,
                 "CtreeFeatures: the background's size");
  rows_ = Eigen::Map<const Eigen::MatrixXd>(background.values.data(),
                                            static_cast<Eigen::Index>(background.n_rows),
                                            static_cast<Eigen::Index>(n_features));
  if (!rows_.allFinite())
    throw InvalidArgument(
        "a conditional value function needs finite background values (a missing value is not one): "
        "impute them or give another background",
        {"background"});
}

std::shared_ptr<const CtreeTree> CtreeFeatures::Tree(std::span<const std::uint8_t> inside) const {
  std::string key(inside.size(), '0');
  for (std::size_t j = 0; j < inside.size(); ++j) key[j] = inside[j] != 0 ? '1' : '0';
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (const auto it = cache_.find(key); it != cache_.end()) return it->second;
  }
  auto tree = std::make_shared<const CtreeTree>(FitCtree(rows_, inside, settings_));
  const std::lock_guard<std::mutex> lock(mutex_);
  if (const auto it = cache_.find(key); it != cache_.end()) return it->second;
  if (cached_rows_ + tree->rows.size() <= kCacheRows) {
    cached_rows_ += tree->rows.size();
    cache_.emplace(std::move(key), tree);
  }
  return tree;
}

std::unique_ptr<CoalitionDraws> CtreeFeatures::Given(std::span<const std::uint8_t> inside,
                                                     std::span<const double> z, std::size_t n_draws) const {
  return std::make_unique<CtreeDraws>(*this, inside, z, n_draws);
}

}}}  // namespace perfshap::detail
