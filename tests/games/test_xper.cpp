// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// XPER: the reference numbers of the XPER package (tests/fixtures/refs/xper), efficiency for every
// metric and individual, a brute-force O(n^3)-per-coalition implementation of the definitions
// (both comparators, additive and generic models), generic path == fast path, thread-count
// independence, and the input errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "perfshap/blocks/generators.hpp"
#include "perfshap/blocks/metric.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/random.hpp"
#include "perfshap/error.hpp"
#include "perfshap/xper.hpp"
#include "support/synthetic_games.hpp"
#include "support/test_paths.hpp"
#include "support/xper_reference.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::FixturePath;

const std::string kAllMetrics[] = {
    "auc",         "brier",       "accuracy",  "balanced_accuracy",
    "sensitivity", "specificity", "precision", "cost",
    "mse",         "mae",         "r2"};

// ---------------------------------------------------------------------------------------------
// Reading the reference files.

// Cells of a small CSV file with double-quoted fields ("{x1,x2}"); header included.
std::vector<std::vector<std::string>> ReadCells(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (char c : line) {
      if (c == '"')
        quoted = !quoted;
      else if (c == ',' && !quoted)
        cells.emplace_back();
      else
        cells.back() += c;
    }
    rows.push_back(std::move(cells));
  }
  return rows;
}

// "{x1,x3}" -> bit mask over x1..x3.
Coalition MaskOf(const std::string& set) {
  Coalition s = 0;
  const char* names[] = {"x1", "x2", "x3"};
  for (int j = 0; j < 3; ++j)
    if (set.find(names[j]) != std::string::npos) s |= Coalition{1} << j;
  return s;
}

struct Reference {
  Dataset sample;
  std::unique_ptr<Model> model;
};

// The sample (x1, x2, x3 and the label) and the fitted model of the reference case.
Reference LoadReference(bool regression) {
  const std::string data_path =
      FixturePath(regression ? "refs/xper/test_set_regression.csv" : "refs/xper/test_set.csv");
  const std::string coef_path =
      FixturePath(regression ? "refs/xper/ols_coefficients.csv" : "refs/xper/probit_coefficients.csv");
  CsvOptions csv;
  csv.label = regression ? "y_cont" : "y";
  csv.regression = regression;
  const Dataset all = ReadCsv(data_path, csv);
  std::vector<std::string> names{"x1", "x2", "x3"};
  std::vector<std::vector<double>> cols;
  for (const auto& name : names) {
    const auto c = all.column(all.FeatureIndex(name));
    cols.emplace_back(c.begin(), c.end());
  }
  Reference ref;
  ref.sample =
      Dataset(names, std::move(cols), std::vector<double>(all.label().begin(), all.label().end()), csv.label);
  const auto cells = ReadCells(coef_path);
  std::vector<double> coef;
  for (std::size_t r = 1; r < cells.size(); ++r) coef.push_back(std::stod(cells[r][1]));  // const, x1, x2, x3
  EXPECT_EQ(cells[1][0], "const");
  ref.model = MakeGlm(regression ? Link::kIdentity : Link::kProbit, coef, !regression);
  return ref;
}

std::vector<std::size_t> LoadPermutation() {
  const auto cells = ReadCells(FixturePath("refs/xper/auc_shuffle_permutation_seed42_n300.csv"));
  std::vector<std::size_t> pi;
  for (std::size_t r = 1; r < cells.size(); ++r) {
    EXPECT_EQ(std::stoul(cells[r][0]), r - 1);
    pi.push_back(std::stoul(cells[r][1]));
  }
  return pi;
}

// A GLM seen only through Predict: forces the generic batched path on an additive model.
class PredictOnly final : public Model {
 public:
  explicit PredictOnly(const Model& inner) : inner_(inner) {}
  std::size_t n_features() const override { return inner_.n_features(); }
  bool is_classifier() const override { return inner_.is_classifier(); }
  void Predict(std::span<const double> x, std::size_t n, std::span<double> out) const override {
    inner_.Predict(x, n, out);
  }
  std::string Describe() const override { return "predict-only " + inner_.Describe(); }

 private:
  const Model& inner_;
};

// Checks one metric of the reference case: value, phi_0, phi, every individual phi_i0 and
// phi_ij, and, for AUC and BS (the package's files hold them for these two), every v(S) and
// v_i(S). Returns the largest error.
double CheckAgainstReference(std::string metric, const std::string& key, bool regression, bool generic) {
  const Reference ref = LoadReference(regression);
  XperOptions opt;
  opt.metric = metric;
  opt.permutation = LoadPermutation();
  opt.store_coalition_values = true;
  const PredictOnly predict_only(*ref.model);
  const XperResult r =
      generic ? ExplainXper(predict_only, ref.sample, opt) : ExplainXper(*ref.model, ref.sample, opt);
  EXPECT_EQ(r.additive_fast_path, !generic);
  const std::size_t n = r.n_rows;
  EXPECT_EQ(n, 300u);
  double worst = 0.0;
  auto check = [&worst](double got, double want, const std::string& what) {
    EXPECT_NEAR(got, want, 1e-10) << what;
    worst = std::max(worst, std::abs(got - want));
  };

  std::ifstream in(FixturePath("refs/xper/exact_outputs.json"));
  const auto json = nlohmann::json::parse(in);
  const auto& m = json.at(key);
  // The package reports +MSE but decomposes -MSE (phi_0 + sum phi = -MSE).
  const double sign = metric == "mse" ? -1.0 : 1.0;
  check(r.value, sign * m.at("metric_value").get<double>(), key + " value");
  check(r.base, m.at("phi0").get<double>(), key + " phi0");
  for (std::size_t j = 0; j < 3; ++j)
    check(r.phi[j], m.at("phi")[j].get<double>(), key + " phi_" + std::to_string(j));

  const auto ind = ReadCells(FixturePath("refs/xper/phi_individual_" + key + "_exact.csv"));
  EXPECT_EQ(ind.size(), n + 1);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& row = ind[i + 1];
    check(r.individual_base[i], std::stod(row[1]), key + " phi_i0 row " + std::to_string(i));
    for (std::size_t j = 0; j < 3; ++j)
      check(r.individual(i, j), std::stod(row[2 + j]), key + " phi_ij row " + std::to_string(i));
  }

  if (key == "AUC" || key == "BS") {
    const auto global = ReadCells(FixturePath("refs/xper/coalition_values_" + key + ".csv"));
    EXPECT_EQ(global.size(), 9u);
    for (std::size_t t = 1; t < global.size(); ++t) {
      const Coalition s = MaskOf(global[t][0]);
      check(r.coalition_values[s * (n + 1)], std::stod(global[t][1]), key + " v(" + global[t][0] + ")");
    }
    const auto indiv = ReadCells(FixturePath("refs/xper/coalition_values_individual_" + key + ".csv"));
    EXPECT_EQ(indiv.size(), n + 1);
    for (std::size_t c = 1; c < indiv[0].size(); ++c) {
      const Coalition s = MaskOf(indiv[0][c]);
      for (std::size_t i = 0; i < n; ++i)
        check(r.coalition_values[s * (n + 1) + 1 + i], std::stod(indiv[i + 1][c]),
              key + " v_i(" + indiv[0][c] + ") row " + std::to_string(i));
    }
  }
  return worst;
}

TEST(XperReference, AucMatchesPackage) {
  // Fast path (compares indices) and generic path (compares Predict's probabilities).
  std::printf("[ref] AUC max abs error %.3g (additive), %.3g (generic)\n",
              CheckAgainstReference("auc", "AUC", false, false),
              CheckAgainstReference("auc", "AUC", false, true));
}

TEST(XperReference, BrierMatchesPackage) {
  std::printf("[ref] BS max abs error %.3g (additive), %.3g (generic)\n",
              CheckAgainstReference("brier", "BS", false, false),
              CheckAgainstReference("brier", "BS", false, true));
}

TEST(XperReference, AccuracyMatchesPackage) {
  std::printf("[ref] Accuracy max abs error %.3g (additive), %.3g (generic)\n",
              CheckAgainstReference("accuracy", "Accuracy", false, false),
              CheckAgainstReference("accuracy", "Accuracy", false, true));
}

TEST(XperReference, MseMatchesPackage) {
  std::printf("[ref] MSE max abs error %.3g (additive), %.3g (generic)\n",
              CheckAgainstReference("mse", "MSE", true, false),
              CheckAgainstReference("mse", "MSE", true, true));
}

TEST(XperReference, R2MatchesPackage) {
  std::printf("[ref] R2 max abs error %.3g (additive), %.3g (generic)\n",
              CheckAgainstReference("r2", "R2", true, false),
              CheckAgainstReference("r2", "R2", true, true));
}

// Efficiency (Shapley): phi_0 + sum phi = metric, globally and for every individual, for every
// metric and both comparators.
TEST(XperReference, EfficiencyForEveryMetricAndIndividual) {
  const Reference cls = LoadReference(false);
  const Reference reg = LoadReference(true);
  for (std::string metric : kAllMetrics) {
    for (XperComparator comparator : {XperComparator::kPermuted, XperComparator::kFull}) {
      const Reference& ref = FindMetric(metric, "xper").regression() ? reg : cls;
      XperOptions opt;
      opt.metric = metric;
      opt.comparator = comparator;
      opt.permutation = LoadPermutation();
      opt.cfp = 2.0;
      opt.cfn = 5.0;
      const XperResult r = ExplainXper(*ref.model, ref.sample, opt);
      const std::string what = std::string(metric) + "/" + XperComparatorName(comparator);
      double sum = r.base;
      for (double v : r.phi) sum += v;
      EXPECT_NEAR(sum, r.value, 1e-12) << what;
      double worst = 0.0;
      for (std::size_t i = 0; i < r.n_rows; ++i) {
        double s = r.individual_base[i];
        for (double v : r.individual_row(i)) s += v;
        worst = std::max(worst, std::abs(s - r.individual_value[i]));
      }
      EXPECT_LE(worst, 1e-12) << what;
      // The global values are the means of the individual ones.
      double mean_phi0 = 0.0;
      for (double v : r.individual_base) mean_phi0 += v;
      EXPECT_NEAR(mean_phi0 / static_cast<double>(r.n_rows), r.base, 1e-12) << what;
    }
  }
}

// At S = all features the AUC term averages to the sample AUC with ties counted one half, i.e.
// sklearn.metrics.roc_auc_score(y, p_hat); here checked against perfshap's RocAuc (which
// matches sklearn 1.2.1 to 1e-12, tests/metrics/test_metric.cpp).
TEST(XperReference, AucValueIsTheSampleAuc) {
  const Reference ref = LoadReference(false);
  const std::size_t n = ref.sample.n_rows();
  std::vector<double> x(3 * n), p(n);
  for (std::size_t j = 0; j < 3; ++j)
    std::copy_n(ref.sample.column(j).begin(), n, x.begin() + static_cast<std::ptrdiff_t>(j * n));
  ref.model->Predict(x, n, p);
  for (XperComparator comparator : {XperComparator::kPermuted, XperComparator::kFull}) {
    XperOptions opt;
    opt.comparator = comparator;
    opt.seed = 3;
    EXPECT_NEAR(ExplainXper(*ref.model, ref.sample, opt).value, RocAuc(ref.sample.label(), p), 1e-14);
  }
}

// ---------------------------------------------------------------------------------------------
// Brute force: the definitions of ARCHITECTURE.md, written out with explicit loops over the
// hybrid points (O(n^3) per coalition for the permuted sample, O(n^4) for the full one), and
// Shapley values by enumerating all p! feature orders.

// A model with interactions and no additive terms: probabilities through the generic path.
class InteractionModel final : public Model {
 public:
  explicit InteractionModel(bool classifier) : classifier_(classifier) {}
  std::size_t n_features() const override { return 3; }
  bool is_classifier() const override { return classifier_; }
  void Predict(std::span<const double> x, std::size_t n, std::span<double> out) const override {
    for (std::size_t r = 0; r < n; ++r) {
      const double x1 = x[r], x2 = x[n + r], x3 = x[2 * n + r];
      const double index = 0.2 + 0.8 * x1 * x2 - 0.5 * x3 + 0.3 * std::sin(3.0 * x1);
      out[r] = classifier_ ? ApplyLink(Link::kLogit, index) : index;
    }
  }
  std::string Describe() const override { return "interaction model"; }

 private:
  bool classifier_;
};

// Predicts one row (p values).
double PredictOne(const Model& model, const std::vector<double>& row) {
  double out = 0.0;
  model.Predict(row, 1, std::span<double>(&out, 1));
  return out;
}

struct BruteXper {
  std::vector<double> v;  // 2^p x (n + 1): v(S), v_i(S)
};

BruteXper BruteForceValues(const Model& model, const Dataset& d, std::string metric, XperComparator comparator,
                           const std::vector<std::size_t>& pi, double cfp, double cfn) {
  const std::size_t n = d.n_rows(), p = d.n_features();
  const auto y = d.label();
  double ybar = 0;
  for (double v : y) ybar += v;
  ybar /= static_cast<double>(n);
  double var = 0;
  for (double v : y) var += (v - ybar) * (v - ybar);
  var /= static_cast<double>(n);
  auto hybrid = [&](std::size_t i, std::size_t u, Coalition s) {
    std::vector<double> row(p);
    for (std::size_t j = 0; j < p; ++j) row[j] = d.column(j)[Contains(s, static_cast<int>(j)) ? i : u];
    return PredictOne(model, row);
  };
  BruteXper out;
  out.v.assign((std::size_t{1} << p) * (n + 1), 0.0);
  for (Coalition s = 0; s < (Coalition{1} << p); ++s) {
    // f(z_iu) for all i, u.
    std::vector<double> f(n * n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t u = 0; u < n; ++u) f[i * n + u] = hybrid(i, u, s);
    // Comparison sample: (score, label).
    std::vector<std::pair<double, double>> w;
    if (comparator == XperComparator::kPermuted) {
      for (std::size_t k = 0; k < n; ++k) w.emplace_back(hybrid(k, pi[k], s), y[k]);
    } else {
      for (std::size_t k = 0; k < n; ++k)
        for (std::size_t l = 0; l < n; ++l) w.emplace_back(f[k * n + l], y[k]);
    }
    double delta = 0;  // precision: mean yhat over the comparison sample
    for (const auto& [score, label] : w) delta += score > 0.5 ? 1.0 : 0.0;
    delta /= static_cast<double>(w.size());
    testing::XperTermInputs in{ybar, var, &w, delta, cfp, cfn};
    double global = 0;
    for (std::size_t i = 0; i < n; ++i) {
      double vi = 0;
      for (std::size_t u = 0; u < n; ++u) {
        const double g = testing::XperTermByDefinition(metric, y[i], f[i * n + u], in);
        vi += g;
      }
      vi /= static_cast<double>(n);
      out.v[s * (n + 1) + 1 + i] = vi;
      global += vi;
    }
    out.v[s * (n + 1)] = global / static_cast<double>(n);
  }
  return out;
}

// Small samples of the probit design for the brute force.
Dataset SmallSample(std::size_t n, bool regression, std::uint64_t seed) {
  ProbitDesign design;
  design.n_rows = n;
  design.seed = seed;
  Dataset d = GenerateProbitDesign(design);
  if (!regression) return d;
  // A real target: the probit index plus noise from the label (deterministic).
  std::vector<double> y(n);
  for (std::size_t i = 0; i < n; ++i)
    y[i] = 0.05 + 0.5 * d.column(0)[i] + 0.5 * d.column(1)[i] + 0.7 * d.label()[i] - 0.35;
  std::vector<std::vector<double>> cols;
  for (std::size_t j = 0; j < 3; ++j) cols.emplace_back(d.column(j).begin(), d.column(j).end());
  return Dataset(d.feature_names(), std::move(cols), std::move(y), "y_cont");
}

void ExpectMatchesBruteForce(const Model& model, const Dataset& d, std::string metric,
                             XperComparator comparator, double tol) {
  const std::size_t n = d.n_rows();
  std::vector<std::size_t> pi(n);
  for (std::size_t k = 0; k < n; ++k) pi[k] = (7 * k + 3) % n;  // n coprime with 7
  XperOptions opt;
  opt.metric = metric;
  opt.comparator = comparator;
  opt.permutation = pi;
  opt.cfp = 1.5;
  opt.cfn = 4.0;
  opt.store_coalition_values = true;
  const XperResult r = ExplainXper(model, d, opt);
  const BruteXper brute = BruteForceValues(model, d, metric, comparator, pi, opt.cfp, opt.cfn);
  const std::string what =
      std::string(metric) + "/" + XperComparatorName(comparator) + "/" + model.Describe();
  ASSERT_EQ(r.coalition_values.size(), brute.v.size());
  for (std::size_t t = 0; t < brute.v.size(); ++t)
    ASSERT_NEAR(r.coalition_values[t], brute.v[t], tol) << what << " v " << t;
  // Shapley values by enumerating the 3! feature orders over the brute-force v table.
  const std::size_t k = n + 1;
  testing::FunctionGame table(3, k, [&](Coalition s, std::span<double> out) {
    std::copy_n(brute.v.begin() + static_cast<std::ptrdiff_t>(s * k), k, out.begin());
  });
  const std::vector<double> phi = testing::BruteForcePermutationShapley(table);
  for (std::size_t j = 0; j < 3; ++j) {
    EXPECT_NEAR(r.phi[j], phi[j * k], tol) << what << " phi " << j;
    for (std::size_t i = 0; i < n; ++i)
      EXPECT_NEAR(r.individual(i, j), phi[j * k + 1 + i], tol) << what << " phi_ij";
  }
  EXPECT_NEAR(r.base, brute.v[0], tol) << what;
}

TEST(XperBruteForce, EveryMetricMatchesDefinitionsOnAdditiveModel) {
  const Dataset cls = SmallSample(40, false, 11);
  const Dataset reg = SmallSample(40, true, 11);
  const auto probit = MakeGlm(Link::kProbit, {0.1, 0.6, -0.4, 0.3}, true);
  const auto linear = MakeGlm(Link::kIdentity, {0.1, 0.45, 0.5, 0.05}, false);
  for (std::string metric : kAllMetrics)
    for (XperComparator comparator : {XperComparator::kPermuted, XperComparator::kFull})
      ExpectMatchesBruteForce(FindMetric(metric, "xper").regression() ? *linear : *probit,
                              FindMetric(metric, "xper").regression() ? reg : cls, metric, comparator, 1e-12);
}

TEST(XperBruteForce, EveryMetricMatchesDefinitionsOnGenericModel) {
  const Dataset cls = SmallSample(36, false, 5);
  const Dataset reg = SmallSample(36, true, 5);
  const InteractionModel classifier(true), regressor(false);
  for (std::string metric : kAllMetrics)
    for (XperComparator comparator : {XperComparator::kPermuted, XperComparator::kFull})
      ExpectMatchesBruteForce(FindMetric(metric, "xper").regression() ? static_cast<const Model&>(regressor) : classifier,
                              FindMetric(metric, "xper").regression() ? reg : cls, metric, comparator, 1e-12);
}

// Ties: binary features make many hybrid scores exactly equal; both comparators must count
// them as the definitions do (strict for positives, non-strict for negatives).
TEST(XperBruteForce, TiedScoresFromDiscreteFeatures) {
  const std::size_t n = 30;
  RandomStream rng(17, 0);
  std::vector<std::vector<double>> cols(3, std::vector<double>(n));
  std::vector<double> y(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (auto& c : cols) c[i] = static_cast<double>(rng.Below(2));
    y[i] = static_cast<double>(rng.Below(2));
  }
  y[0] = 0;
  y[1] = 1;
  const Dataset d({"x1", "x2", "x3"}, std::move(cols), std::move(y), "y");
  const auto logit = MakeGlm(Link::kLogit, {-0.5, 1.0, 1.0, 0.5}, true);
  for (XperComparator comparator : {XperComparator::kPermuted, XperComparator::kFull}) {
    ExpectMatchesBruteForce(*logit, d, "auc", comparator, 1e-12);
    ExpectMatchesBruteForce(*logit, d, "precision", comparator, 1e-12);
  }
}

// ---------------------------------------------------------------------------------------------
// Paths, threads, permutations.

TEST(XperPaths, GenericPredictEqualsAdditiveFastPath) {
  ProbitDesign design;
  design.n_rows = 400;  // more rows than one Predict batch holds (several row blocks)
  design.variances = {1.2, 1.0, 1.0, 0.5};
  design.beta = {0.05, 0.5, 0.5, 0.0, 0.3};
  design.seed = 99;
  const Dataset d = GenerateProbitDesign(design);
  const auto logit = MakeGlm(Link::kLogit, {0.1, 0.8, 0.7, 0.05, 0.4}, true);
  const PredictOnly generic(*logit);
  for (std::string metric : kAllMetrics) {
    if (FindMetric(metric, "xper").regression()) continue;
    for (XperComparator comparator : {XperComparator::kPermuted, XperComparator::kFull}) {
      XperOptions opt;
      opt.metric = metric;
      opt.comparator = comparator;
      opt.seed = 5;
      const XperResult fast = ExplainXper(*logit, d, opt);
      const XperResult slow = ExplainXper(generic, d, opt);
      ASSERT_TRUE(fast.additive_fast_path);
      ASSERT_FALSE(slow.additive_fast_path);
      const std::string what = std::string(metric) + "/" + XperComparatorName(comparator);
      EXPECT_NEAR(fast.value, slow.value, 1e-12) << what;
      EXPECT_NEAR(fast.base, slow.base, 1e-12) << what;
      for (std::size_t j = 0; j < fast.phi.size(); ++j) EXPECT_NEAR(fast.phi[j], slow.phi[j], 1e-12) << what;
      double worst = 0;
      for (std::size_t t = 0; t < fast.individual_phi.size(); ++t)
        worst = std::max(worst, std::abs(fast.individual_phi[t] - slow.individual_phi[t]));
      EXPECT_LE(worst, 1e-12) << what;
    }
  }
  // Regression metrics on the identity link.
  const auto linear = MakeGlm(Link::kIdentity, {0.1, 0.8, 0.7, 0.05, 0.4}, false);
  const PredictOnly generic_linear(*linear);
  for (std::string metric : {"mse", "mae", "r2"}) {
    XperOptions opt;
    opt.metric = metric;
    const XperResult fast = ExplainXper(*linear, d, opt);
    const XperResult slow = ExplainXper(generic_linear, d, opt);
    for (std::size_t j = 0; j < fast.phi.size(); ++j) EXPECT_NEAR(fast.phi[j], slow.phi[j], 1e-12);
    for (std::size_t t = 0; t < fast.individual_phi.size(); ++t)
      ASSERT_NEAR(fast.individual_phi[t], slow.individual_phi[t], 1e-12);
  }
}

TEST(XperThreads, BitwiseIdenticalForOneTwoFourThreads) {
  ProbitDesign design;
  design.n_rows = 150;
  design.variances = {1.2, 1.0, 1.0, 0.7, 2.0, 1.0};
  design.beta = {0.05, 0.5, 0.5, 0.0, 0.2, -0.3, 0.1};
  design.seed = 4;
  const Dataset d = GenerateProbitDesign(design);
  const auto probit = MakeGlm(Link::kProbit, {0.0, 0.5, 0.4, 0.1, 0.2, -0.3, 0.1}, true);
  const PredictOnly generic(*probit);
  for (const Model* model : {static_cast<const Model*>(probit.get()), static_cast<const Model*>(&generic)}) {
    for (std::string metric : {"auc", "brier", "precision"}) {
      for (XperComparator comparator : {XperComparator::kPermuted, XperComparator::kFull}) {
        std::vector<XperResult> results;
        for (int threads : {1, 2, 4}) {
          XperOptions opt;
          opt.metric = metric;
          opt.comparator = comparator;
          opt.seed = 8;
          opt.execution.threads = threads;
          results.push_back(ExplainXper(*model, d, opt));
        }
        for (std::size_t t = 1; t < results.size(); ++t) {
          const auto& a = results[0];
          const auto& b = results[t];
          EXPECT_EQ(std::memcmp(a.phi.data(), b.phi.data(), a.phi.size() * sizeof(double)), 0);
          EXPECT_EQ(std::memcmp(a.individual_phi.data(), b.individual_phi.data(),
                                a.individual_phi.size() * sizeof(double)),
                    0);
          EXPECT_EQ(std::memcmp(&a.base, &b.base, sizeof(double)), 0);
          EXPECT_EQ(std::memcmp(&a.value, &b.value, sizeof(double)), 0);
        }
      }
    }
  }
}

TEST(XperPermutation, DrawnFromSeedIsAPermutationAndReproducible) {
  const Dataset d = SmallSample(50, false, 2);
  const auto probit = MakeGlm(Link::kProbit, {0.0, 0.5, 0.5, 0.0}, true);
  XperOptions opt;
  opt.seed = 12;
  const XperResult a = ExplainXper(*probit, d, opt);
  const XperResult b = ExplainXper(*probit, d, opt);
  ASSERT_EQ(a.permutation.size(), 50u);
  EXPECT_EQ(a.permutation, b.permutation);
  auto sorted = a.permutation;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t k = 0; k < sorted.size(); ++k) EXPECT_EQ(sorted[k], k);
  opt.seed = 13;
  EXPECT_NE(ExplainXper(*probit, d, opt).permutation, a.permutation);
  // The full comparator has no permutation.
  opt.comparator = XperComparator::kFull;
  EXPECT_TRUE(ExplainXper(*probit, d, opt).permutation.empty());
}

// ---------------------------------------------------------------------------------------------
// Errors.

TEST(XperErrors, OneClassSampleIsAnErrorNotNaN) {
  std::vector<std::vector<double>> cols{{0.1, 0.5, -0.3, 1.0}, {1, 2, 3, 4}, {0, 0, 1, 1}};
  const Dataset d({"x1", "x2", "x3"}, cols, {1, 1, 1, 1}, "y");
  const auto probit = MakeGlm(Link::kProbit, {0.0, 0.5, 0.5, 0.0}, true);
  for (std::string m : {"auc", "balanced_accuracy", "specificity"}) {
    XperOptions opt;
    opt.metric = m;
    try {
      ExplainXper(*probit, d, opt);
      ADD_FAILURE() << "no error for " << m;
    } catch (const DataError& e) {
      EXPECT_NE(std::string(e.what()).find("label"), std::string::npos) << e.what();
    }
  }
  // Sensitivity is defined (all rows positive).
  XperOptions opt;
  opt.metric = "sensitivity";
  EXPECT_NO_THROW(ExplainXper(*probit, d, opt));
}

TEST(XperErrors, BadPermutationsAndShapes) {
  const Dataset d = SmallSample(10, false, 1);
  const auto probit = MakeGlm(Link::kProbit, {0.0, 0.5, 0.5, 0.0}, true);
  XperOptions opt;
  opt.permutation = {0, 1, 2};
  EXPECT_THROW(ExplainXper(*probit, d, opt), InvalidArgument);
  opt.permutation = {0, 1, 2, 3, 4, 5, 6, 7, 8, 8};
  EXPECT_THROW(ExplainXper(*probit, d, opt), InvalidArgument);
  opt.permutation = {0, 1, 2, 3, 4, 5, 6, 7, 8, 10};
  EXPECT_THROW(ExplainXper(*probit, d, opt), InvalidArgument);
  opt.permutation.clear();
  const auto wrong = MakeGlm(Link::kProbit, {0.0, 0.5, 0.5}, true);
  EXPECT_THROW(ExplainXper(*wrong, d, opt), InvalidArgument);
  opt.max_features = 2;
  EXPECT_THROW(ExplainXper(*probit, d, opt), InvalidArgument);
  // A label that is not 0/1 for a classification metric.
  const Dataset reg = SmallSample(10, true, 1);
  XperOptions acc;
  acc.metric = "accuracy";
  EXPECT_THROW(ExplainXper(*probit, reg, acc), DataError);
  EXPECT_THROW(FindMetric("f1", "xper"), InvalidArgument);
  EXPECT_EQ(FindMetric("balanced_accuracy", "xper").name, "balanced_accuracy");
  EXPECT_EQ(MetricNames("xper"), std::vector<std::string>(std::begin(kAllMetrics), std::end(kAllMetrics)));
  EXPECT_THROW(ParseXperComparator("exact"), InvalidArgument);
}

}  // namespace
}}  // namespace perfshap
