// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// Exact XPER of the AUC against the XPER package's published cost (shared/refs/xper/README.md,
// 2-core machine: exact AUC 71.1 s, Brier 0.45 s, accuracy 0.29 s at q = 3, n = 300):
// - reference size: the paper's Monte Carlo probit design (q = 3, 1,000 rows, the last 300
//   as the test sample), probit model with the design's true beta, permuted comparator;
// - paper size: 10 features, 2,232 test rows (the paper's auto-loan test sample size),
//   logistic model with fixed coefficients, full comparator (n^2 = 4.98 million comparison
//   points per coalition, 1,024 coalitions).
// The data come from this file's own generator (std::mt19937_64), not from perfshap's.
// Run: build/<dir>/bench/perfshap_bench --benchmark_filter=Xper
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "metrics/xper_rank.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/xper.hpp"

namespace {

// The probit design of the XPER paper's Monte Carlo section: x ~ N(0, diag(variances)),
// y = 1{beta_0 + x.beta + eps > 0}, eps ~ N(0, 1); returns the last n_test rows.
perfshap::Dataset ProbitDesignTestRows(std::size_t n_rows, std::size_t n_test,
                                       const std::vector<double>& variances, const std::vector<double>& beta,
                                       std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  const std::size_t q = variances.size();
  std::vector<std::vector<double>> cols(q, std::vector<double>(n_test));
  std::vector<double> y(n_test);
  std::vector<double> x(q);
  for (std::size_t r = 0; r < n_rows; ++r) {
    double index = beta[0];
    for (std::size_t j = 0; j < q; ++j) {
      x[j] = std::sqrt(variances[j]) * normal(rng);
      index += beta[j + 1] * x[j];
    }
    const double label = index + normal(rng) > 0 ? 1.0 : 0.0;
    if (r >= n_rows - n_test) {
      const std::size_t t = r - (n_rows - n_test);
      for (std::size_t j = 0; j < q; ++j) cols[j][t] = x[j];
      y[t] = label;
    }
  }
  std::vector<std::string> names;
  for (std::size_t j = 0; j < q; ++j) {
    std::string name = "x";
    name += std::to_string(j + 1);
    names.push_back(std::move(name));
  }
  return perfshap::Dataset(std::move(names), std::move(cols), std::move(y), "y");
}

const std::vector<double> kReferenceBeta{0.05, 0.5, 0.5, 0.0};

// Paper size: 10 features with unequal variances and effects.
const std::vector<double> kPaperVariances{1.2, 1.0, 1.0, 0.8, 1.5, 1.0, 0.5, 2.0, 1.0, 1.0};
const std::vector<double> kPaperBeta{-1.2, 0.6, 0.5, 0.0, 0.3, -0.4, 0.2, 0.25, -0.1, 0.15, 0.05};
const std::vector<double> kPaperLogit{-1.1, 0.55, 0.52, 0.02, 0.28, -0.41, 0.19, 0.24, -0.12, 0.13, 0.04};

void RunXper(benchmark::State& state, const perfshap::Model& model, const perfshap::Dataset& sample,
             std::string metric, perfshap::XperComparator comparator) {
  perfshap::XperOptions opt;
  opt.metric = metric;
  opt.comparator = comparator;
  opt.seed = 42;
  opt.execution.threads = static_cast<int>(state.range(0));
  double value = 0.0;
  for (auto _ : state) {
    const perfshap::XperResult r = perfshap::ExplainXper(model, sample, opt);
    value = r.value;
    benchmark::DoNotOptimize(r.phi.data());
  }
  state.counters["metric"] = value;
  state.counters["rows"] = static_cast<double>(sample.n_rows());
  state.counters["coalitions"] = std::ldexp(1.0, static_cast<int>(sample.n_features()));
}

void BM_Xper_ReferenceSize_AucPermuted(benchmark::State& state) {
  const auto sample = ProbitDesignTestRows(1000, 300, {1.2, 1.0, 1.0}, kReferenceBeta, 2024);
  const auto model = perfshap::MakeGlm(perfshap::Link::kProbit, kReferenceBeta, true);
  RunXper(state, *model, sample, "auc", perfshap::XperComparator::kPermuted);
  state.counters["package_s"] = 71.1;  // XPER package, exact AUC, same design (refs/xper/README.md)
}
BENCHMARK(BM_Xper_ReferenceSize_AucPermuted)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Xper_ReferenceSize_AucFull(benchmark::State& state) {
  const auto sample = ProbitDesignTestRows(1000, 300, {1.2, 1.0, 1.0}, kReferenceBeta, 2024);
  const auto model = perfshap::MakeGlm(perfshap::Link::kProbit, kReferenceBeta, true);
  RunXper(state, *model, sample, "auc", perfshap::XperComparator::kFull);
}
BENCHMARK(BM_Xper_ReferenceSize_AucFull)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// The generic batched-Predict path on the same job (a model seen only through Predict).
class PredictOnly final : public perfshap::Model {
 public:
  explicit PredictOnly(const perfshap::Model& inner) : inner_(inner) {}
  std::size_t n_features() const override { return inner_.n_features(); }
  bool is_classifier() const override { return true; }
  void Predict(std::span<const double> x, std::size_t n, std::span<double> out) const override {
    inner_.Predict(x, n, out);
  }
  std::string Describe() const override { return "predict-only"; }

 private:
  const perfshap::Model& inner_;
};

void BM_Xper_ReferenceSize_AucPermutedGeneric(benchmark::State& state) {
  const auto sample = ProbitDesignTestRows(1000, 300, {1.2, 1.0, 1.0}, kReferenceBeta, 2024);
  const auto model = perfshap::MakeGlm(perfshap::Link::kProbit, kReferenceBeta, true);
  const PredictOnly generic(*model);
  RunXper(state, generic, sample, "auc", perfshap::XperComparator::kPermuted);
}
BENCHMARK(BM_Xper_ReferenceSize_AucPermutedGeneric)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_Xper_ReferenceSize_Brier(benchmark::State& state) {
  const auto sample = ProbitDesignTestRows(1000, 300, {1.2, 1.0, 1.0}, kReferenceBeta, 2024);
  const auto model = perfshap::MakeGlm(perfshap::Link::kProbit, kReferenceBeta, true);
  RunXper(state, *model, sample, "brier", perfshap::XperComparator::kPermuted);
  state.counters["package_s"] = 0.45;
}
BENCHMARK(BM_Xper_ReferenceSize_Brier)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Xper_ReferenceSize_Accuracy(benchmark::State& state) {
  const auto sample = ProbitDesignTestRows(1000, 300, {1.2, 1.0, 1.0}, kReferenceBeta, 2024);
  const auto model = perfshap::MakeGlm(perfshap::Link::kProbit, kReferenceBeta, true);
  RunXper(state, *model, sample, "accuracy", perfshap::XperComparator::kPermuted);
  state.counters["package_s"] = 0.29;
}
BENCHMARK(BM_Xper_ReferenceSize_Accuracy)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

// Paper size: 10 features, 2,232 test rows (of 7,440), logistic model, exact AUC.
void BM_Xper_PaperSize_AucFull(benchmark::State& state) {
  const auto sample = ProbitDesignTestRows(7440, 2232, kPaperVariances, kPaperBeta, 7);
  const auto model = perfshap::MakeGlm(perfshap::Link::kLogit, kPaperLogit, true);
  RunXper(state, *model, sample, "auc", perfshap::XperComparator::kFull);
}
BENCHMARK(BM_Xper_PaperSize_AucFull)->Arg(2)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

void BM_Xper_PaperSize_AucPermuted(benchmark::State& state) {
  const auto sample = ProbitDesignTestRows(7440, 2232, kPaperVariances, kPaperBeta, 7);
  const auto model = perfshap::MakeGlm(perfshap::Link::kLogit, kPaperLogit, true);
  RunXper(state, *model, sample, "auc", perfshap::XperComparator::kPermuted);
}
BENCHMARK(BM_Xper_PaperSize_AucPermuted)->Arg(2)->Unit(benchmark::kSecond)->UseRealTime();

// Conditional XPER (issue 38): the reference size's AUC (full comparator) with the features off
// each coalition drawn given the row's values, 1,000 draws a coalition and row, the sample as the
// background; state.range(0) the value function (0 gaussian, 1 copula, 2 empirical, 3 ctree),
// range(1) the threads. 8 coalitions x 300 rows x 1,000 draws = 2.4 million predictions.
void BM_Xper_ReferenceSize_Conditional(benchmark::State& state) {
  const auto sample = ProbitDesignTestRows(1000, 300, {1.2, 1.0, 1.0}, kReferenceBeta, 2024);
  const auto model = perfshap::MakeGlm(perfshap::Link::kProbit, kReferenceBeta, true);
  const perfshap::ShapConditional kinds[] = {
      perfshap::ShapConditional::kGaussian, perfshap::ShapConditional::kCopula,
      perfshap::ShapConditional::kEmpirical, perfshap::ShapConditional::kCtree};
  perfshap::XperOptions opt;
  opt.metric = "auc";
  opt.comparator = perfshap::XperComparator::kFull;
  opt.conditional = kinds[state.range(0)];
  opt.conditional_samples = 1000;
  opt.execution.threads = static_cast<int>(state.range(1));
  double se = 0.0;
  for (auto _ : state) {
    const perfshap::XperResult r = perfshap::ExplainXper(*model, sample, opt);
    se = r.phi_se[0];
    benchmark::DoNotOptimize(r.phi.data());
  }
  state.SetLabel(perfshap::ShapConditionalName(opt.conditional));
  state.counters["se_x1"] = se;
}
BENCHMARK(BM_Xper_ReferenceSize_Conditional)
    ->ArgsProduct({{0, 1, 2, 3}, {1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The full-comparator kernel alone, one coalition's n^2 additive scores, one thread.
void BM_XperRank_FullGridAdditive(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::mt19937_64 rng(3);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> a(n), b(n);
  std::vector<std::uint8_t> positive(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = 0.8 * normal(rng);
    b[i] = 0.6 * normal(rng);
    positive[i] = a[i] + 0.5 * normal(rng) > 0 ? 1 : 0;
  }
  std::vector<std::uint64_t> totals(n);
  perfshap::detail::XperRankScratch scratch;
  for (auto _ : state) {
    perfshap::detail::FullGridRankAdditive(a, b, positive, totals, scratch);
    benchmark::DoNotOptimize(totals.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n * n));
}
BENCHMARK(BM_XperRank_FullGridAdditive)->Arg(300)->Arg(2232)->Unit(benchmark::kMillisecond);

}  // namespace
