// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The XPER paper's Monte Carlo experiment: one block of the schedule per pseudo-sample, each
// writing its own row of the result (so results do not depend on the thread count).
#include "xper_montecarlo/xper_montecarlo.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "perfshap/blocks/random.hpp"
#include "perfshap/cost_estimates.hpp"
#include "perfshap/error.hpp"
#include "perfshap/processes.hpp"
#include "schedule/agreement.hpp"
#include "schedule/distribute.hpp"
#include "schedule/schedule.hpp"

namespace perfshap { inline namespace v0 {

namespace {

// Rows [first, last) of `all` as a data set (features and label).
Dataset Slice(const Dataset& all, std::size_t first, std::size_t last) {
  std::vector<std::size_t> rows(last - first);
  for (std::size_t r = first; r < last; ++r) rows[r - first] = r;
  return all.SelectRows(rows);
}

// Type-7 quantile of sorted values.
double Quantile(const std::vector<double>& sorted, double q) {
  const double h = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

}  // namespace

std::uint64_t XperMonteCarloSampleSeed(std::uint64_t seed, std::size_t k) {
  RandomStream rng(seed, kXperMonteCarloStream + static_cast<std::uint64_t>(k));
  return rng();
}

namespace {
/** Over the processes of an MPI run: every one was given the same options, or the job ends here. */
void AgreeOnOptions(const XperMonteCarloOptions& options) {
  detail::InputDigests digests(options.execution);
  if (digests.active()) {
    detail::ByteWriter& w = digests.Part("options");
    w.PutString(options.execution.invocation);
    w.Put(options.samples);
    w.Put(options.rows);
    w.Put(options.train_rows);
    w.Put(options.seed);
    w.Put(options.comparator);
  }
  detail::AgreeOnInputs(options.execution, digests);
}
}  // namespace

XperMonteCarloResult RunXperMonteCarlo(const XperMonteCarloOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  if (options.samples == 0)
    throw InvalidArgument("Monte Carlo XPER: the number of samples must be at least 1", {"samples"});
  if (options.train_rows < 2 || options.train_rows + 2 > options.rows)
    throw InvalidArgument("Monte Carlo XPER: " + std::to_string(options.train_rows) +
                              " training rows must leave at least 2 test rows of the " +
                              std::to_string(options.rows) + " rows (and be at least 2)",
                          {"train_rows", "rows"});
  const std::size_t q = options.design.variances.size();
  if (options.design.beta.size() != q + 1 || q == 0)
    throw InvalidArgument("Monte Carlo XPER: the design needs q >= 1 variances and q + 1 coefficients");

  CheckCost(EstimateXperMonteCarloCost(options.samples, options.rows, options.train_rows,
                                       options.comparator == XperComparator::kFull,
                                       ResolvedThreads(options.execution)),
            options.execution, kXperMonteCarloRemedy, {"samples", "rows"});
  AgreeOnOptions(options);

  XperMonteCarloResult r;
  for (std::size_t j = 0; j < q; ++j) r.features.push_back(std::string("x").append(std::to_string(j + 1)));
  const std::size_t n_samples = options.samples;
  r.samples = n_samples;
  r.rows = options.rows;
  r.train_rows = options.train_rows;
  r.comparator = options.comparator;
  r.sample_seeds.resize(n_samples);
  for (std::size_t k = 0; k < n_samples; ++k) r.sample_seeds[k] = XperMonteCarloSampleSeed(options.seed, k);
  r.coefficients.resize(n_samples * (q + 1));
  r.auc.resize(n_samples);
  r.base.resize(n_samples);
  r.phi.resize(n_samples * q);

  std::vector<std::size_t> train_rows(options.train_rows);
  std::vector<std::size_t> columns(q);
  for (std::size_t t = 0; t < train_rows.size(); ++t) train_rows[t] = t;
  for (std::size_t j = 0; j < q; ++j) columns[j] = j;
  const std::shared_ptr<const Learner> learner = MakeProbitLearner(options.probit);

  detail::Schedule schedule(options.execution);
  const auto run_samples = [&](detail::ItemRange share) {
    schedule.SetProgressTotal(share.end - share.begin);
    schedule.ForEachBlock(share.end - share.begin, 1, [&](std::size_t b) {
      const std::size_t k = share.begin + b;
      ProbitDesign design = options.design;
      design.n_rows = options.rows;
      design.seed = r.sample_seeds[k];
      const Dataset all = GenerateProbitDesign(design);
      const Dataset test = Slice(all, options.train_rows, options.rows);
      const std::string where =
          "Monte Carlo XPER, sample " + std::to_string(k) + " (seed " + std::to_string(design.seed) + "): ";
      std::unique_ptr<Model> model;
      try {
        model = learner->Train(all, train_rows, columns);
      } catch (const DataError& e) {
        throw DataError(where + e.what());
      }
      // The fitted coefficients: a GLM's additive terms at x = 1 are its slopes.
      {
        const std::vector<double> ones(q, 1.0);
        std::vector<double> terms(q);
        double intercept = 0.0;
        Link link = Link::kProbit;
        if (!model->AdditiveTerms(ones, 1, intercept, terms, link))
          throw Error(where + "the probit model has no additive terms");
        r.coefficients[k * (q + 1)] = intercept;
        for (std::size_t j = 0; j < q; ++j) r.coefficients[k * (q + 1) + 1 + j] = terms[j];
      }
      XperOptions xo;
      xo.metric = "auc";
      xo.comparator = options.comparator;
      xo.seed = design.seed;
      xo.execution.threads = 1;
      xo.execution.cancel = options.execution.cancel;
      XperResult x;
      try {
        x = ExplainXper(*model, test, xo);
      } catch (const DataError& e) {
        throw DataError(where + e.what());
      }
      r.auc[k] = x.value;
      r.base[k] = x.base;
      for (std::size_t j = 0; j < q; ++j) r.phi[k * q + j] = x.phi[j];
    });
    schedule.FinishProgress();
  };
  const auto coefficients_of = [&](std::size_t k) {
    return std::span<double>(r.coefficients).subspan(k * (q + 1), q + 1);
  };
  const auto phi_of = [&](std::size_t k) { return std::span<double>(r.phi).subspan(k * q, q); };
  if (const std::shared_ptr<const Processes> group = detail::SharedProcesses(options.execution);
      group == nullptr) {
    run_samples({0, n_samples});
  } else {
    // Over the processes of an MPI run: each its share of the samples, their values exchanged.
    detail::RunShared(
        *group, n_samples,
        [&](detail::ItemRange share, const std::function<detail::ByteWriter&(std::size_t)>& write) {
          run_samples(share);
          for (std::size_t k = share.begin; k < share.end; ++k) {
            detail::ByteWriter& out = write(k);
            out.PutSpan(std::span<const double>(coefficients_of(k)));
            out.Put(r.auc[k]);
            out.Put(r.base[k]);
            out.PutSpan(std::span<const double>(phi_of(k)));
          }
        },
        [&](std::size_t k, detail::ByteReader& in) {
          in.GetInto(coefficients_of(k));
          r.auc[k] = in.Get<double>();
          r.base[k] = in.Get<double>();
          in.GetInto(phi_of(k));
        });
  }
  r.threads = schedule.threads();
  r.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

DistributionSummary Summarize(std::span<const double> values) {
  if (values.empty()) throw InvalidArgument("summary of an empty sample");
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!std::isfinite(values[i]))
      throw InvalidArgument("summary: value " + std::to_string(i) + " is not finite");
  DistributionSummary s;
  const auto m = static_cast<double>(values.size());
  double sum = 0.0;
  for (double v : values) sum += v;
  s.mean = sum / m;
  double ss = 0.0;
  for (double v : values) ss += (v - s.mean) * (v - s.mean);
  s.std = values.size() > 1 ? std::sqrt(ss / (m - 1.0)) : 0.0;
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  s.min = sorted.front();
  s.max = sorted.back();
  s.q05 = Quantile(sorted, 0.05);
  s.q25 = Quantile(sorted, 0.25);
  s.q50 = Quantile(sorted, 0.50);
  s.q75 = Quantile(sorted, 0.75);
  s.q95 = Quantile(sorted, 0.95);
  return s;
}

}}  // namespace perfshap
