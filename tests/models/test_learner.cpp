// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Reference numbers:
// - tests/fixtures/refs/shapauc/banknote_gnb_seed0.json (sklearn 1.2.1 GaussianNB, see its README);
// - tests/fixtures/learner_golden.json, written by tests/models/make_learner_golden.py with
//   Debian's /usr/bin/python3 (scikit-learn 1.2.1, numpy 1.24.2, scipy 1.10.1); the script
//   holds every library call (e.g. make_pipeline(StandardScaler(), LogisticRegression(C=1.0,
//   solver="newton-cholesky", tol=1e-12, max_iter=1000)) for the logistic AUCs on pima with
//   test rows i % 5 == 0, roc_auc_score on predict_proba[:, 1]; GaussianNB() for the gnb AUCs;
//   numpy.linalg.lstsq and Ridge(alpha=10) for linear; a Newton MLE on scipy's log_ndtr for
//   probit, which is what statsmodels Probit().fit() converges to).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/learners.hpp"
#include "perfshap/blocks/coalition.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/learners.hpp"
#include "perfshap/blocks/metric.hpp"
#include "perfshap/blocks/split.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {


nlohmann::json ReadJson(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

CsvOptions LabelOptions(const std::string& label) {
  CsvOptions options;
  options.label = label;
  return options;
}

CsvOptions RegressionOptions(const std::string& label) {
  CsvOptions options = LabelOptions(label);
  options.regression = true;
  return options;
}

nlohmann::json Golden() { return ReadJson(testing::FixturePath("learner_golden.json")); }

std::vector<std::size_t> Iota(std::size_t n) {
  std::vector<std::size_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

// The pima split of make_learner_golden.py: test = rows i with i % 5 == 0.
struct PimaCase {
  Dataset data;
  std::vector<std::size_t> train;
  std::vector<std::size_t> test;
};

PimaCase LoadPima(const std::string& path) {
  PimaCase c{ReadCsv(path, LabelOptions("label")), {}, {}};
  for (std::size_t i = 0; i < c.data.n_rows(); ++i) (i % 5 == 0 ? c.test : c.train).push_back(i);
  return c;
}

// Rows of `data` (columns `columns`) as the column-major block Model::Predict takes.
std::vector<double> Gather(const Dataset& data, const std::vector<std::size_t>& rows,
                           const std::vector<std::size_t>& columns) {
  std::vector<double> x;
  for (std::size_t c : columns)
    for (std::size_t r : rows) x.push_back(data.column(c)[r]);
  return x;
}

// Raw coefficients of a GLM model (intercept first), read through AdditiveTerms at x = 1.
std::vector<double> GlmCoefficients(const Model& model) {
  const std::size_t k = model.n_features();
  std::vector<double> ones(k, 1.0);
  std::vector<double> terms(k);
  double intercept = 0.0;
  Link link = Link::kIdentity;
  EXPECT_TRUE(model.AdditiveTerms(ones, 1, intercept, terms, link));
  std::vector<double> coef{intercept};
  coef.insert(coef.end(), terms.begin(), terms.end());
  return coef;
}

std::vector<std::size_t> Members(Coalition s, std::size_t p) {
  std::vector<std::size_t> m;
  for (std::size_t j = 0; j < p; ++j)
    if (Contains(s, static_cast<int>(j))) m.push_back(j);
  return m;
}

std::string Sci(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", v);
  return buffer;
}

double Auc(const PreparedSplit& split, std::span<const double> scores) {
  return RocAuc(split.test_labels(), scores);
}

TEST(LearnerRegistry, KnowsTheFourBuiltInLearnersByName) {
  std::vector<std::string> names;
  for (const LearnerEntry& e : RegisteredLearners()) names.push_back(e.name);
  ASSERT_GE(names.size(), 4U);
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 4),
            (std::vector<std::string>{"gnb", "logistic", "linear", "probit"}));
  for (const char* name : {"gnb", "logistic", "linear", "probit"}) {
    const auto learner = MakeLearner(name);
    EXPECT_EQ(learner->name(), name);
    EXPECT_EQ(learner->is_classifier(), std::string(name) != "linear");
  }
  try {
    MakeLearner("svm");
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("gnb, logistic, linear, probit"), std::string::npos) << e.what();
  }
}

// Typed options by name: each learner reads its own, rejects the others (naming its own) and
// bad values, and reports what is in effect.
TEST(LearnerRegistry, ParsesEachLearnersOwnOptions) {
  EXPECT_EQ(MakeLearner("logistic", {{"C", "0.25"}})->params().at("C"), "0.25");
  EXPECT_EQ(MakeLearner("logistic", {{"standardize", "false"}})->params().at("standardize"), "false");
  EXPECT_EQ(MakeLearner("linear", {{"ridge", "3"}})->params().at("ridge"), "3");
  EXPECT_EQ(MakeLearner("gnb")->params().at("var_smoothing"), "1.0000000000000001e-09");
  EXPECT_EQ(MakeLearner("probit")->params().count("C"), 0U);
  const auto message = [](const std::string& name, const LearnerParams& params) {
    try {
      MakeLearner(name, params);
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("gnb", {{"C", "2"}}), "learner gnb has no option C (its options: var_smoothing)");
  EXPECT_NE(message("logistic", {{"C", "abc"}}).find("'abc' is not a number"), std::string::npos);
  EXPECT_NE(message("logistic", {{"C", "-1"}}).find("C must be a finite number > 0"), std::string::npos);
  EXPECT_NE(message("probit", {{"standardize", "maybe"}}).find("is not true or false"), std::string::npos);
  EXPECT_NE(message("linear", {{"ridge", "-1"}}).find("ridge must be"), std::string::npos);
}

// A library user's own learner plugs in by name.
TEST(LearnerRegistry, RegistersAUsersLearner) {
  RegisterLearner({"gnb_smooth", "GaussianNB with more smoothing", {}, [](const LearnerParams& params) {
                     EXPECT_TRUE(params.empty());
                     return MakeGaussianNbLearner(GaussianNbOptions{1e-3});
                   }});
  EXPECT_EQ(MakeLearner("gnb_smooth")->params().at("var_smoothing"), "0.001");
  EXPECT_THROW(RegisterLearner({"gnb", "again", {}, [](const LearnerParams&) { return MakeGaussianNbLearner(); }}),
               InvalidArgument);
}

// Acceptance of issue 3: every coalition AUC of the reference to 1e-9, with the reference's
// train-row order and with the sorted order ReadSplits gives; probabilities and log-odds.
TEST(GaussianNbLearner, BanknoteEveryCoalitionAucMatchesReference) {
  const std::string ref_path = testing::FixturePath("refs/shapauc/banknote_gnb_seed0.json");
  const std::string data_path = testing::FixturePath("data/banknote.csv");
  const auto ref = ReadJson(ref_path);
  const Dataset data = ReadCsv(data_path, LabelOptions("label"));
  auto train = ref["train_rows"].get<std::vector<std::size_t>>();
  const auto test = ref["test_rows"].get<std::vector<std::size_t>>();
  const auto auc = ref["auc_by_coalition_bitmask"]["auc"].get<std::vector<double>>();
  ASSERT_EQ(auc.size(), 16U);
  const auto columns = Iota(4);
  for (bool sorted : {false, true}) {
    if (sorted) std::sort(train.begin(), train.end());
    const auto split_ptr = testing::PrepareSplit("gnb", data, columns, train, test);
    const PreparedSplit& split = *split_ptr;
    const auto trainer_ptr = split.MakeFitter();
    CoalitionFitter& trainer = *trainer_ptr;
    std::vector<double> scores(test.size());
    double max_err = 0.0;
    for (std::uint64_t rank = 1; rank < 16; ++rank) {
      const Coalition s = GrayCode(rank);
      for (ScoreScale scale : {ScoreScale::kProbability, ScoreScale::kIndex}) {
        trainer.Score(s, scores, scale);
        const double err = std::abs(Auc(split, scores) - auc[s]);
        max_err = std::max(max_err, err);
        EXPECT_LE(err, 1e-9) << "coalition " << s << (sorted ? " sorted rows" : "");
      }
    }
    RecordProperty(sorted ? "max_auc_err_sorted_rows" : "max_auc_err", Sci(max_err));
  }
}

TEST(GaussianNbLearner, PimaMatchesSklearnProbabilitiesAndAucs) {
  const std::string path = testing::FixturePath("data/pima.csv");
  const auto golden = Golden()["pima"];
  const PimaCase pima = LoadPima(path);
  const auto columns = Iota(8);
  const auto split_ptr = testing::PrepareSplit("gnb", pima.data, columns, pima.train, pima.test);
    const PreparedSplit& split = *split_ptr;
  const auto trainer_ptr = split.MakeFitter();
    CoalitionFitter& trainer = *trainer_ptr;
  std::vector<double> scores(pima.test.size());
  const auto auc = golden["gnb_auc_by_mask"].get<std::vector<double>>();
  for (Coalition s = 1; s < 256; ++s) {
    trainer.Score(s, scores);
    EXPECT_NEAR(Auc(split, scores), auc[s], 1e-9) << "coalition " << s;
  }
  // predict_proba of the full model, from the trainer and from Train()'s Model.
  const auto proba = golden["gnb_full_proba_test"].get<std::vector<double>>();
  trainer.Score(255, scores);
  const auto model = Train("gnb", pima.data, pima.train, columns);
  std::vector<double> predicted(pima.test.size());
  model->Predict(Gather(pima.data, pima.test, columns), pima.test.size(), predicted);
  double max_err = 0.0;
  for (std::size_t r = 0; r < proba.size(); ++r) {
    EXPECT_NEAR(scores[r], proba[r], 1e-12 + 1e-10 * proba[r]) << "row " << r;
    EXPECT_NEAR(predicted[r], proba[r], 1e-12 + 1e-10 * proba[r]) << "row " << r;
    max_err = std::max({max_err, std::abs(scores[r] - proba[r]), std::abs(predicted[r] - proba[r])});
  }
  RecordProperty("max_proba_err", Sci(max_err));
}

// Acceptance of issue 3: logistic coalitions equal sklearn's AUCs to 1e-9 on pima, all 255
// coalitions, trained in Gray-code order with warm starts.
TEST(LogisticLearner, PimaEveryCoalitionAucMatchesSklearn) {
  const std::string path = testing::FixturePath("data/pima.csv");
  const auto golden = Golden()["pima"];
  const PimaCase pima = LoadPima(path);
  const auto columns = Iota(8);
  const auto split_ptr = testing::PrepareSplit("logistic", pima.data, columns, pima.train, pima.test);
    const PreparedSplit& split = *split_ptr;
  const auto trainer_ptr = split.MakeFitter();
    CoalitionFitter& trainer = *trainer_ptr;
  std::vector<double> scores(pima.test.size());
  const auto auc = golden["logistic_auc_by_mask"].get<std::vector<double>>();
  double max_err = 0.0;
  for (std::uint64_t rank = 1; rank < 256; ++rank) {
    const Coalition s = GrayCode(rank);
    trainer.Score(s, scores);
    max_err = std::max(max_err, std::abs(Auc(split, scores) - auc[s]));
    EXPECT_NEAR(Auc(split, scores), auc[s], 1e-9) << "coalition " << s;
  }
  RecordProperty("max_auc_err", Sci(max_err));
  const auto model = Train("logistic", pima.data, pima.train, columns);
  const auto coef = GlmCoefficients(*model);
  const auto want = golden["logistic_full_coef"].get<std::vector<double>>();
  ASSERT_EQ(coef.size(), want.size());
  double coef_err = 0.0;
  for (std::size_t j = 0; j < coef.size(); ++j) {
    EXPECT_NEAR(coef[j], want[j], 1e-9 * (1 + std::abs(want[j])));
    coef_err = std::max(coef_err, std::abs(coef[j] - want[j]));
  }
  const auto proba = golden["logistic_full_proba_test"].get<std::vector<double>>();
  trainer.Score(255, scores);
  double proba_err = 0.0;
  for (std::size_t r = 0; r < proba.size(); ++r) {
    EXPECT_NEAR(scores[r], proba[r], 1e-10);
    proba_err = std::max(proba_err, std::abs(scores[r] - proba[r]));
  }
  RecordProperty("max_coef_err", Sci(coef_err));
  RecordProperty("max_proba_err", Sci(proba_err));
}

TEST(LogisticLearner, NoStandardizeAndCMatchSklearn) {
  const std::string path = testing::FixturePath("data/pima.csv");
  const PimaCase pima = LoadPima(path);
  const LearnerParams options{{"standardize", "false"}, {"C", "0.5"}};
  const auto coef = GlmCoefficients(*Train("logistic", pima.data, pima.train, Iota(8), options));
  // LogisticRegression(C=0.5, solver="newton-cholesky", tol=1e-12) on the raw columns.
  const auto want = Golden()["pima"]["logistic_nostd_c05_coef"].get<std::vector<double>>();
  for (std::size_t j = 0; j < coef.size(); ++j) EXPECT_NEAR(coef[j], want[j], 1e-8 * (1 + std::abs(want[j])));
}

// Warm starts change the path, not the optimum: every coalition's scores agree with a cold
// start to 1e-10 and the AUCs are identical; warm starts need fewer Newton iterations.
TEST(LogisticLearner, WarmStartEqualsColdStart) {
  const std::string path = testing::FixturePath("data/pima.csv");
  const PimaCase pima = LoadPima(path);
  for (const std::string kind : {"logistic", "probit"}) {
    const auto split_ptr = testing::PrepareSplit(kind, pima.data, Iota(8), pima.train, pima.test);
    const PreparedSplit& split = *split_ptr;
    const auto warm_ptr = split.MakeFitter();
    CoalitionFitter& warm = *warm_ptr;
    const auto cold_ptr = split.MakeFitter();
    CoalitionFitter& cold = *cold_ptr;
    std::vector<double> a(pima.test.size());
    std::vector<double> b(pima.test.size());
    int warm_iterations = 0;
    int cold_iterations = 0;
    double max_diff = 0.0;
    for (std::uint64_t rank = 0; rank < 256; ++rank) {
      const Coalition s = GrayCode(rank);
      warm_iterations += warm.Score(s, a, ScoreScale::kIndex);
      cold.Reset();
      cold_iterations += cold.Score(s, b, ScoreScale::kIndex);
      for (std::size_t r = 0; r < a.size(); ++r) max_diff = std::max(max_diff, std::abs(a[r] - b[r]));
      if (s != 0) {
        EXPECT_EQ(Auc(split, a), Auc(split, b)) << kind << " coalition " << s;
      }
    }
    EXPECT_LE(max_diff, 1e-10) << kind;
    EXPECT_LT(warm_iterations, cold_iterations) << kind;
    RecordProperty(kind + "_iterations_warm_cold",
                   std::to_string(warm_iterations) + "/" + std::to_string(cold_iterations));
    RecordProperty(kind + "_max_diff", Sci(max_diff));
  }
}

// A warm start that used to cycle: Newton judged each full step against the previous gradient
// alone, and from the optimum of {0, 14, 29} the fit of {0, 15, 16} on this breast-cancer split
// alternated between two points until the iteration limit (found by the kernel solver, which
// fits coalitions in no Gray-code order).
TEST(LogisticLearner, WarmStartFromAnUnrelatedCoalitionConverges) {
  const Dataset data = ReadCsv(testing::FixturePath("data/breast_cancer.csv"), LabelOptions("label"));
  const SplitPlan plan = MakeSplitPlan("mc:20", data.n_rows(), 0.2, 0, {});
  const auto split_ptr = testing::PrepareSplit("logistic", data, Iota(30), plan[13].train, plan[13].test);
  const auto warm = split_ptr->MakeFitter();
  const auto cold = split_ptr->MakeFitter();
  const std::vector<std::uint32_t> before{0, 14, 29};
  const std::vector<std::uint32_t> after{0, 15, 16};
  warm->Fit(before);
  int warm_iterations = 0;
  ASSERT_NO_THROW(warm_iterations = warm->Fit(after));
  const int cold_iterations = cold->Fit(after);
  EXPECT_LT(warm_iterations, 30);
  std::vector<double> a(plan[13].test.size());
  std::vector<double> b(plan[13].test.size());
  const Coalition s = (Coalition{1} << 0) | (Coalition{1} << 15) | (Coalition{1} << 16);
  warm->Score(s, a, ScoreScale::kIndex);
  cold->Score(s, b, ScoreScale::kIndex);
  for (std::size_t r = 0; r < a.size(); ++r) EXPECT_NEAR(a[r], b[r], 1e-9) << "row " << r;
  RecordProperty("iterations_warm_cold", std::to_string(warm_iterations) + "/" + std::to_string(cold_iterations));
}

// What RetrainGame relies on for thread-count independence: after Reset() the results do not
// depend on what the trainer fitted before.
TEST(CoalitionFitter, ResetForgetsHistoryBitwise) {
  const std::string path = testing::FixturePath("data/pima.csv");
  const PimaCase pima = LoadPima(path);
  const auto split_ptr = testing::PrepareSplit("logistic", pima.data, Iota(8), pima.train, pima.test);
    const PreparedSplit& split = *split_ptr;
  const auto a_ptr = split.MakeFitter();
    CoalitionFitter& a = *a_ptr;
  const auto b_ptr = split.MakeFitter();
    CoalitionFitter& b = *b_ptr;
  std::vector<double> sa(pima.test.size());
  std::vector<double> sb(pima.test.size());
  for (Coalition s : {Coalition{255}, Coalition{7}, Coalition{130}}) a.Score(s, sa);
  a.Reset();
  for (std::uint64_t rank = 40; rank < 60; ++rank) {
    a.Score(GrayCode(rank), sa);
    b.Score(GrayCode(rank), sb);
    for (std::size_t r = 0; r < sa.size(); ++r) ASSERT_EQ(sa[r], sb[r]);
  }
}

// The coalition trainer's test scores equal those of the Model that Train() returns on the
// coalition's columns, for every learner and several coalitions.
TEST(CoalitionFitter, EqualsTrainPerCoalition) {
  const std::string path = testing::FixturePath("data/pima.csv");
  const PimaCase pima = LoadPima(path);
  for (const std::string kind :
       {"gnb", "logistic", "probit", "linear"}) {
    for (bool standardize : {true, false}) {
      LearnerParams options;
      if (kind != "gnb") options["standardize"] = standardize ? "true" : "false";
      if (kind == "linear") options["ridge"] = standardize ? "0" : "3";
      const auto split_ptr = testing::PrepareSplit(kind, pima.data, Iota(8), pima.train, pima.test, options);
    const PreparedSplit& split = *split_ptr;
      const auto trainer_ptr = split.MakeFitter();
    CoalitionFitter& trainer = *trainer_ptr;
      std::vector<double> scores(pima.test.size());
      std::vector<double> predicted(pima.test.size());
      for (Coalition s : {Coalition{1}, Coalition{6}, Coalition{0x55}, Coalition{0xF0}, Coalition{255}}) {
        trainer.Score(s, scores);
        const auto columns = Members(s, 8);
        const auto model = Train(kind, pima.data, pima.train, columns, options);
        ASSERT_EQ(model->n_features(), columns.size());
        model->Predict(Gather(pima.data, pima.test, columns), pima.test.size(), predicted);
        for (std::size_t r = 0; r < scores.size(); ++r)
          ASSERT_NEAR(scores[r], predicted[r], 1e-10 * (1 + std::abs(predicted[r])))
              << kind << " coalition " << s << " row " << r;
      }
    }
  }
}

// Issue 9: a fitted model scores rows with the fitter's own bits. For every learner, both
// scales of the columns and coalitions met along a warm-started Gray-code walk, the Model the
// fitter hands out predicts the test rows bitwise as ScoreTest scored them.
TEST(CoalitionFitter, MakeModelPredictsTheTestRowsBitwise) {
  const PimaCase pima = LoadPima(testing::FixturePath("data/pima.csv"));
  for (const std::string kind : {"gnb", "logistic", "probit", "linear"}) {
    for (bool standardize : {true, false}) {
      if (kind == "gnb" && !standardize) continue;
      LearnerParams options;
      if (kind != "gnb") options["standardize"] = standardize ? "true" : "false";
      const auto split = testing::PrepareSplit(kind, pima.data, Iota(8), pima.train, pima.test, options);
      const auto fitter = split->MakeFitter();
      std::vector<double> scores(pima.test.size());
      std::vector<double> predicted(pima.test.size());
      int checked = 0;
      for (std::uint64_t rank = 1; rank < 256; rank += 7) {
        const Coalition s = GrayCode(rank);
        fitter->Score(s, scores);
        const auto columns = Members(s, 8);
        const auto model = fitter->MakeModel();
        ASSERT_EQ(model->n_features(), columns.size());
        ASSERT_EQ(model->n_outputs(), 1U);
        model->Predict(Gather(pima.data, pima.test, columns), pima.test.size(), predicted);
        ASSERT_EQ(scores, predicted) << kind << (standardize ? "" : " raw") << " coalition " << s;
        ++checked;
      }
      EXPECT_EQ(checked, 37);
    }
  }
}

// Train() honours the order of `columns`: a permuted column list gives the same predictions.
TEST(CoalitionFitter, TrainKeepsTheColumnOrder) {
  const std::string path = testing::FixturePath("data/pima.csv");
  const PimaCase pima = LoadPima(path);
  for (const std::string kind : {"gnb", "logistic"}) {
    const std::vector<std::size_t> forward{1, 5, 7};
    const std::vector<std::size_t> backward{7, 1, 5};
    std::vector<double> a(pima.test.size());
    std::vector<double> b(pima.test.size());
    Train(kind, pima.data, pima.train, forward)->Predict(Gather(pima.data, pima.test, forward), a.size(), a);
    Train(kind, pima.data, pima.train, backward)
        ->Predict(Gather(pima.data, pima.test, backward), b.size(), b);
    for (std::size_t r = 0; r < a.size(); ++r) EXPECT_NEAR(a[r], b[r], 1e-12) << kind;
  }
}

TEST(ProbitLearner, XperTestSetMatchesMaximumLikelihood) {
  const std::string path = testing::FixturePath("refs/xper/test_set.csv");
  const auto golden = Golden()["probit_xper_test_set"];
  const Dataset data = ReadCsv(path, LabelOptions("y"));
  const std::vector<std::size_t> columns{data.FeatureIndex("x1"), data.FeatureIndex("x2"),
                                         data.FeatureIndex("x3")};
  const auto want = golden["coef"].get<std::vector<double>>();
  for (bool standardize : {true, false}) {
    const LearnerParams options{{"standardize", standardize ? "true" : "false"}};
    const auto model = Train("probit", data, Iota(data.n_rows()), columns, options);
    const auto coef = GlmCoefficients(*model);
    double coef_err = 0.0;
    for (std::size_t j = 0; j < want.size(); ++j) {
      EXPECT_NEAR(coef[j], want[j], 1e-8) << j;
      coef_err = std::max(coef_err, std::abs(coef[j] - want[j]));
    }
    RecordProperty(standardize ? "max_coef_err" : "max_coef_err_raw", Sci(coef_err));
    const auto proba = golden["proba_first_rows"].get<std::vector<double>>();
    std::vector<double> p(proba.size());
    model->Predict(Gather(data, Iota(proba.size()), columns), proba.size(), p);
    for (std::size_t r = 0; r < proba.size(); ++r) EXPECT_NEAR(p[r], proba[r], 1e-9);
  }
}

TEST(LinearLearner, MatchesLstsqAndRidge) {
  const std::string path = testing::FixturePath("refs/xper/test_set_regression.csv");
  const auto golden = Golden()["linear_xper_regression"];
  const Dataset data = ReadCsv(path, RegressionOptions("y_cont"));
  const std::vector<std::size_t> columns{0, 1, 2};
  const auto rows = Iota(data.n_rows());
  struct Case {
    const char* key;
    double ridge;
    bool standardize;
  };
  for (const Case& c : {Case{"ols_coef", 0.0, true}, Case{"ols_coef", 0.0, false},
                        Case{"ridge10_raw_coef", 10.0, false}, Case{"ridge10_std_coef", 10.0, true}}) {
    const LearnerParams options{{"ridge", c.ridge == 0.0 ? "0" : "10"}, {"standardize", c.standardize ? "true" : "false"}};
    const auto model = Train("linear", data, rows, columns, options);
    EXPECT_FALSE(model->is_classifier());
    const auto coef = GlmCoefficients(*model);
    const auto want = golden[c.key].get<std::vector<double>>();
    double coef_err = 0.0;
    for (std::size_t j = 0; j < want.size(); ++j) {
      EXPECT_NEAR(coef[j], want[j], 1e-12) << c.key << " " << j;
      coef_err = std::max(coef_err, std::abs(coef[j] - want[j]));
    }
    RecordProperty(std::string(c.key) + (c.standardize ? "_std" : "_raw"), Sci(coef_err));
  }
}

// Rows equal on the coalition's players score bitwise equally (ties matter to the AUC).
TEST(CoalitionFitter, RowsEqualOnTheCoalitionTie) {
  // 40 training rows from integer formulas (labels not separable), then two test rows equal
  // on a and b but not on c.
  std::vector<double> a, b, c, y;
  for (int i = 0; i < 40; ++i) {
    a.push_back((i * 7 % 11) / 10.0);
    b.push_back((i * 5 % 13) / 4.0);
    c.push_back(i * 3 % 17);
    y.push_back(i * 11 % 7 < 3 ? 1.0 : 0.0);
  }
  for (double cv : {2.0, 9.0}) {
    a.push_back(0.4);
    b.push_back(3.0);
    c.push_back(cv);
    y.push_back(cv > 5 ? 1.0 : 0.0);
  }
  const Dataset data({"a", "b", "c"}, {a, b, c}, y);
  const auto train = Iota(40);
  const std::vector<std::size_t> test{40, 41};
  for (const std::string kind :
       {"gnb", "logistic", "probit", "linear"}) {
    const auto split_ptr = testing::PrepareSplit(kind, data, Iota(3), train, test);
    const PreparedSplit& split = *split_ptr;
    const auto trainer_ptr = split.MakeFitter();
    CoalitionFitter& trainer = *trainer_ptr;
    std::vector<double> out(2);
    for (Coalition s : {Coalition{7}, Coalition{5}, Coalition{3}, Coalition{1}}) {
      trainer.Score(s, out);
      if (s == 3 || s == 1) {
        EXPECT_EQ(out[0], out[1]) << kind << " " << s;
      } else {
        EXPECT_NE(out[0], out[1]) << kind << " " << s;
      }
    }
  }
}

std::string ErrorOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

bool Has(const std::string& message, const std::string& part) {
  return message.find(part) != std::string::npos && message.find('\n') == std::string::npos;
}

TEST(Learner, BadInputGivesOneLineErrors) {
  const std::vector<double> x1{0.5, 1.0, 2.0, 3.0, 4.0, 5.0};
  const std::vector<double> x2{1.0, 1.0, 1.0, 1.0, 1.0, 1.0};
  const std::vector<double> twice{1.0, 2.0, 4.0, 6.0, 8.0, 10.0};
  const std::vector<double> nan{0.5, std::numeric_limits<double>::quiet_NaN(), 2.0, 3.0, 4.0, 5.0};
  const std::vector<double> y{0, 0, 1, 0, 1, 1};
  const std::vector<double> separated{0, 0, 0, 1, 1, 1};
  const Dataset data({"x1", "constant", "twice", "gap"}, {x1, x2, twice, nan}, y);
  const Dataset sep({"x1"}, {x1}, separated);
  const auto rows = Iota(6);
  std::string m = ErrorOf([&] { Train("logistic", data, rows, std::vector<std::size_t>{0, 1}); });
  EXPECT_TRUE(Has(m, "'constant' is constant")) << m;
  m = ErrorOf([&] {
    Train("gnb", data, std::vector<std::size_t>{0, 1}, std::vector<std::size_t>{0});
  });
  EXPECT_TRUE(Has(m, "one class")) << m;
  m = ErrorOf([&] { Train("probit", sep, rows, std::vector<std::size_t>{0}); });
  EXPECT_TRUE(Has(m, "separated")) << m;
  m = ErrorOf([&] { Train("linear", data, rows, std::vector<std::size_t>{0, 2}); });
  EXPECT_TRUE(Has(m, "'twice' is a linear combination")) << m;
  m = ErrorOf([&] { Train("gnb", data, rows, std::vector<std::size_t>{3}); });
  EXPECT_TRUE(Has(m, "'gap' has a missing value in data row 1")) << m;
  m = ErrorOf([&] { Train("gnb", data, rows, std::vector<std::size_t>{9}); });
  EXPECT_TRUE(Has(m, "out of range")) << m;
  const LearnerParams bad{{"C", "0"}};
  m = ErrorOf([&] { Train("logistic", data, rows, std::vector<std::size_t>{0}, bad); });
  EXPECT_TRUE(Has(m, "C must be")) << m;
  // Not 0/1 labels for a classifier.
  const Dataset reg({"x1"}, {x1}, std::vector<double>{0.5, 1, 2, 3, 4, 5});
  m = ErrorOf([&] { Train("logistic", reg, rows, std::vector<std::size_t>{0}); });
  EXPECT_TRUE(Has(m, "0/1 label")) << m;
  EXPECT_NO_THROW(Train("linear", reg, rows, std::vector<std::size_t>{0}));
}

// The empty coalition fits the intercept / prior alone: a constant score.
TEST(CoalitionFitter, EmptyCoalitionIsConstant) {
  const std::string path = testing::FixturePath("data/pima.csv");
  const PimaCase pima = LoadPima(path);
  double positives = 0.0;
  for (std::size_t r : pima.train) positives += pima.data.label()[r];
  const double prevalence = positives / static_cast<double>(pima.train.size());
  for (const std::string kind :
       {"gnb", "logistic", "probit", "linear"}) {
    const auto split_ptr = testing::PrepareSplit(kind, pima.data, Iota(8), pima.train, pima.test);
    const PreparedSplit& split = *split_ptr;
    const auto trainer_ptr = split.MakeFitter();
    CoalitionFitter& trainer = *trainer_ptr;
    std::vector<double> out(pima.test.size());
    trainer.Score(0, out);
    for (double v : out) EXPECT_EQ(v, out[0]);
    // The intercept is unpenalised, so every learner's fitted probability (linear: mean) is
    // the training prevalence.
    EXPECT_NEAR(out[0], prevalence, 1e-9) << kind;
  }
}

}  // namespace
}}  // namespace perfshap
