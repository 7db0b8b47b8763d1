// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Features scaled far beyond ordinary data (issue 20): x * 1e154 (squares overflow a double),
// x * 1e306 (sums overflow), x * 1e-160 and x * 1e-300 (squares underflow). The standardised
// GLMs are invariant to a feature's scale, so they give the unscaled data's scores up to
// rounding; fits that are not (the GLMs on raw columns, and Gaussian naive Bayes, whose
// smoothing is relative to the largest variance) refuse the feature with a one-line error
// naming it. Trees only compare values: the same predictions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "perfshap/blocks/coalition.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/model.hpp"
#include "support/expect_error.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

constexpr std::size_t kScaled = 0;  // pima's 'pregnancies', 0..17: times 1e306 still finite
const double kFactors[] = {1e154, 1e306, 1e-160, 1e-300};

Dataset Pima(bool regression = false) {
  CsvOptions options;
  options.label = "label";
  options.regression = regression;
  return ReadCsv(testing::FixturePath("data/pima.csv"), options);
}

/** `data` with column `j` multiplied by `factor`. */
Dataset Scaled(const Dataset& data, std::size_t j, double factor) {
  std::vector<std::vector<double>> columns;
  for (std::size_t c = 0; c < data.n_features(); ++c) {
    columns.emplace_back(data.column(c).begin(), data.column(c).end());
    if (c == j)
      for (double& v : columns.back()) v *= factor;
  }
  std::vector<double> label(data.label().begin(), data.label().end());
  Dataset out(data.feature_names(), std::move(columns), std::move(label), data.label_name());
  out.set_source("scaled pima");
  return out;
}

struct Rows {
  std::vector<std::size_t> train, test;
};

Rows Split(std::size_t n) {
  Rows rows;
  for (std::size_t i = 0; i < n; ++i) (i % 4 == 0 ? rows.test : rows.train).push_back(i);
  return rows;
}

/** Every coalition of the first `p` single-column players: test scores of each, concatenated. */
std::vector<double> AllCoalitionScores(const Learner& learner, const Dataset& data, std::size_t p,
                                       ScoreScale scale) {
  std::vector<std::size_t> columns;
  for (std::size_t j = 0; j < p; ++j) columns.push_back(j);
  const auto players = SingleColumnPlayers(data, columns);
  const Rows rows = Split(data.n_rows());
  const auto split = learner.Prepare(data, players, rows.train, rows.test, "the training rows");
  const auto fitter = split->MakeFitter();
  std::vector<double> all;
  std::vector<double> out(rows.test.size());
  for (Coalition s = 1; s < (Coalition{1} << p); ++s) {
    fitter->Score(s, out, scale);
    all.insert(all.end(), out.begin(), out.end());
  }
  return all;
}

void ExpectClose(const std::vector<double>& got, const std::vector<double>& want, double tolerance) {
  ASSERT_EQ(got.size(), want.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_TRUE(std::isfinite(got[i])) << "value " << i;
    if (!(std::abs(got[i] - want[i]) <= tolerance * (1.0 + std::abs(want[i]))) && bad++ < 5)
      ADD_FAILURE() << "value " << i << ": " << got[i] << " vs " << want[i];
  }
}

// Every coalition of 4 players (the scaled one among them) fitted and scored on both scales:
// the standardised columns agree to rounding, so the fits and scores do (to the Newton
// tolerance for logistic and probit, exactly in exact arithmetic for least squares).
TEST(ExtremeScales, StandardisedGlmsScoreAsOnTheUnscaledData) {
  for (const char* name : {"logistic", "probit", "linear"}) {
    const bool regression = std::string(name) == "linear";
    const Dataset data = Pima(regression);
    const auto learner = MakeLearner(name);
    const std::vector<double> want = AllCoalitionScores(*learner, data, 4, ScoreScale::kIndex);
    for (double factor : kFactors) {
      SCOPED_TRACE(std::string(name) + " x " + std::to_string(factor));
      ExpectClose(AllCoalitionScores(*learner, Scaled(data, kScaled, factor), 4, ScoreScale::kIndex), want,
                  1e-8);
    }
  }
}

// The trained model predicts the scaled rows as the unscaled model predicts the unscaled ones,
// and its additive terms (the XPER and SHAP fast paths) add up to the same index.
TEST(ExtremeScales, StandardisedGlmModelsPredictAndGiveTermsAsOnTheUnscaledData) {
  for (const char* name : {"logistic", "probit", "linear"}) {
    const Dataset data = Pima(std::string(name) == "linear");
    const auto learner = MakeLearner(name);
    const Rows rows = Split(data.n_rows());
    const std::vector<std::size_t> columns{0, 1, 2, 5};
    const auto plain = learner->Train(data, rows.train, columns);
    const auto x_of = [&](const Dataset& d) {
      std::vector<double> x;
      for (std::size_t c : columns)
        for (std::size_t r : rows.test) x.push_back(d.column(c)[r]);
      return x;
    };
    const std::size_t m = rows.test.size();
    std::vector<double> want(m);
    plain->Predict(x_of(data), m, want);
    for (double factor : kFactors) {
      SCOPED_TRACE(std::string(name) + " x " + std::to_string(factor));
      const Dataset scaled = Scaled(data, kScaled, factor);
      const auto model = learner->Train(scaled, rows.train, columns);
      const std::vector<double> x = x_of(scaled);
      std::vector<double> got(m);
      model->Predict(x, m, got);
      ExpectClose(got, want, 1e-8);
      std::vector<double> terms(columns.size() * m);
      double intercept = 0.0;
      Link link = Link::kIdentity;
      ASSERT_TRUE(model->AdditiveTerms(x, m, intercept, terms, link));
      std::vector<double> from_terms(m);
      for (std::size_t r = 0; r < m; ++r) {
        double index = intercept;
        for (std::size_t j = 0; j < columns.size(); ++j) index += terms[j * m + r];
        from_terms[r] = ApplyLink(link, index);
      }
      ExpectClose(from_terms, want, 1e-8);
    }
  }
}

// On raw columns the fit is not scale-invariant (the L2 penalty, the ridge), and the squares of
// such values leave a double: the feature is named, with what to do.
TEST(ExtremeScales, GlmsOnRawColumnsRefuseTheFeatureByName) {
  for (const char* name : {"logistic", "probit", "linear"}) {
    const Dataset data = Pima(std::string(name) == "linear");
    const auto learner = MakeLearner(name, {{"standardize", "false"}});
    for (double factor : {1e154, 1e306, 1e-160, 1e-300}) {
      SCOPED_TRACE(std::string(name) + " x " + std::to_string(factor));
      const Dataset scaled = Scaled(data, kScaled, factor);
      const Rows rows = Split(scaled.n_rows());
      testing::ExpectDataError(
          [&] {
            learner->Train(scaled, rows.train, std::vector<std::size_t>{0, 1});
          },
          {"feature 'pregnancies'", factor > 1 ? "overflow" : "underflow", "scale it", "or drop it"});
    }
  }
}

// Gaussian naive Bayes smooths every variance by var_smoothing x the largest one of the
// coalition, so a scaled feature changes the model (as in scikit-learn); beyond a double's
// range (where scikit-learn gives NaN) the feature is named.
TEST(ExtremeScales, GaussianNbRefusesTheFeatureByName) {
  const Dataset data = Pima();
  const auto learner = MakeLearner("gnb");
  for (double factor : kFactors) {
    SCOPED_TRACE(factor);
    const Dataset scaled = Scaled(data, kScaled, factor);
    const Rows rows = Split(scaled.n_rows());
    testing::ExpectDataError(
        [&] {
          learner->Train(scaled, rows.train, std::vector<std::size_t>{0, 1});
        },
        {"scaled pima: feature 'pregnancies'", factor > 1 ? "overflow" : "underflow", "scale it",
         "or drop it"});
  }
  // Well inside the range it fits, and the other features alone are untouched by the scale.
  const Dataset scaled = Scaled(data, kScaled, 1e100);
  const Rows rows = Split(scaled.n_rows());
  std::vector<double> got(rows.test.size()), want(rows.test.size());
  const std::vector<std::size_t> others{1, 2};
  const auto model = learner->Train(scaled, rows.train, others);
  const auto plain = learner->Train(data, rows.train, others);
  std::vector<double> x;
  for (std::size_t c : others)
    for (std::size_t r : rows.test) x.push_back(data.column(c)[r]);
  model->Predict(x, rows.test.size(), got);
  plain->Predict(x, rows.test.size(), want);
  EXPECT_EQ(got, want);
  EXPECT_NO_THROW(learner->Train(scaled, rows.train, std::vector<std::size_t>{0, 1}));
}

// Trees compare values only (thresholds halfway between neighbours, computed without
// overflow): the same predictions on any scale.
TEST(ExtremeScales, TreesPredictAsOnTheUnscaledData) {
  const Dataset data = Pima();
  const auto learner = MakeLearner("tree", {{"max_depth", "4"}});
  const Rows rows = Split(data.n_rows());
  const std::vector<std::size_t> columns{0, 1, 5};
  const auto plain = learner->Train(data, rows.train, columns);
  for (double factor : kFactors) {
    SCOPED_TRACE(factor);
    const Dataset scaled = Scaled(data, kScaled, factor);
    const auto model = learner->Train(scaled, rows.train, columns);
    std::vector<double> x, x_plain;
    for (std::size_t c : columns)
      for (std::size_t r : rows.test) {
        x.push_back(scaled.column(c)[r]);
        x_plain.push_back(data.column(c)[r]);
      }
    std::vector<double> got(rows.test.size()), want(rows.test.size());
    model->Predict(x, rows.test.size(), got);
    plain->Predict(x_plain, rows.test.size(), want);
    EXPECT_EQ(got, want);
  }
}

// var_smoothing 0 (a library option; no front end sets it) and a feature constant within a
// class: the message names the feature, the class and the option as the library knows it.
TEST(GaussianNb, ZeroClassVarianceNamesTheFeatureAndTheLearnerOption) {
  std::vector<double> label, flag, noise;
  for (int i = 0; i < 40; ++i) {
    label.push_back(i % 2);
    flag.push_back(i % 2 == 1 ? 3.0 : static_cast<double>(i % 5));  // constant in class 1
    noise.push_back(std::sin(i * 1.7));
  }
  Dataset data({"flag", "noise"}, {flag, noise}, label, "label");
  data.set_source("made-up data");
  const auto learner = MakeLearner("gnb", {{"var_smoothing", "0"}});
  std::vector<std::size_t> rows(40);
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i;
  testing::ExpectDataError([&] { learner->Train(data, rows, std::vector<std::size_t>{0}); },
                           {"feature 'flag' is constant within class 1", "var_smoothing 0",
                            "drop that feature, or give var_smoothing a value > 0"},
                           "var_smoothing");
}

}  // namespace
}}  // namespace perfshap
