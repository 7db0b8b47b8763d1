// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The C ABI (perfshap/c_api.h) against the request layer the command line runs: XPER and
// TreeSHAP / shap of lent columns equal api::RunXper / api::RunShap on the same CSV bit for bit,
// and their result.json is the command's document; errors come back as a status with the
// thread's one-line message and option names, never as an exception, whatever an entry point
// is given.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "api/method_run.hpp"
#include "api/registry.hpp"
#include "api/shap_request.hpp"
#include "api/xper_request.hpp"
#include "perfshap/c_api.h"
#include <nlohmann/json.hpp>
#include "perfshap/dataset.hpp"
#include "report/run_reporter.hpp"
#include "support/arrow_builder.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

/** A CSV's columns as doubles (the label named "label" last), held for the table's lifetime. */
struct Columns {
  Dataset data;
  explicit Columns(const std::string& file) {
    CsvOptions o;
    o.label = "label";
    o.regression = true;
    data = ReadCsv(testing::FixturePath("data/" + file), o);
  }
  /** A C table lending every column. */
  PerfshapTable* Table(const char* source = "frame") const {
    PerfshapTable* t = nullptr;
    EXPECT_EQ(perfshap_table_create(source, &t), PERFSHAP_OK);
    for (std::size_t j = 0; j < data.n_features(); ++j)
      EXPECT_EQ(perfshap_table_add_numeric(t, data.feature_names()[j].c_str(), PERFSHAP_FLOAT64,
                                           data.column(j).data(), static_cast<int64_t>(data.n_rows()), 0),
                PERFSHAP_OK);
    EXPECT_EQ(perfshap_table_add_numeric(t, "label", PERFSHAP_FLOAT64, data.label().data(),
                                         static_cast<int64_t>(data.n_rows()), 0),
              PERFSHAP_OK);
    return t;
  }
};

std::vector<double> ArrayOf(const PerfshapResult* r, const char* name, std::vector<std::size_t>* shape = nullptr) {
  const double* values = nullptr;
  const size_t* dims = nullptr;
  size_t ndim = 0;
  EXPECT_EQ(perfshap_result_array(r, name, &values, &dims, &ndim), PERFSHAP_OK) << perfshap_last_error();
  std::size_t n = 1;
  for (size_t k = 0; k < ndim; ++k) n *= dims[k];
  if (shape != nullptr) shape->assign(dims, dims + ndim);
  return {values, values + n};
}

std::vector<double> ValuesOf(const perfshap::api::ResultArray& a) {
  const auto v = a.values();
  return {v.begin(), v.end()};
}

void ExpectBitwise(const std::vector<double>& a, const std::vector<double>& b) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(double)));
}

PerfshapResult* RunMethod(const char* method, const char* options, PerfshapTable* data, PerfshapTable* train,
                    PerfshapModel* model) {
  PerfshapRequest* req = nullptr;
  EXPECT_EQ(perfshap_request_create(method, options, &req), PERFSHAP_OK) << perfshap_last_error();
  if (data != nullptr) {
    EXPECT_EQ(perfshap_request_set_table(req, "data", data), PERFSHAP_OK);
  }
  if (train != nullptr) {
    EXPECT_EQ(perfshap_request_set_table(req, "train", train), PERFSHAP_OK);
  }
  if (model != nullptr) {
    EXPECT_EQ(perfshap_request_set_model(req, model), PERFSHAP_OK);
  }
  PerfshapResult* result = nullptr;
  EXPECT_EQ(perfshap_run(req, &result), PERFSHAP_OK) << perfshap_last_error();
  perfshap_request_free(req);
  return result;
}

/** result.json without its timings and the names of where the data came from (a file for the
 *  request layer's run, a lent table for the C API's), at any depth. */
nlohmann::json Stable(const std::string& text) {
  nlohmann::json doc = nlohmann::json::parse(text);
  const std::function<void(nlohmann::json&)> strip = [&](nlohmann::json& v) {
    if (v.is_object()) {
      for (const char* key : {"elapsed_seconds", "seconds", "seconds_per_sample", "data", "source", "train"})
        v.erase(key);
      for (auto& item : v.items()) strip(item.value());
    } else if (v.is_array()) {
      for (auto& item : v) strip(item);
    }
  };
  strip(doc);
  return doc;
}

TEST(CApi, XperOfLentColumnsEqualsTheRequestLayerOnTheCsvBitForBit) {
  const Columns pima("pima.csv");
  PerfshapTable* t = pima.Table();
  PerfshapResult* r = RunMethod("xper", R"({"label": "label", "model": "logistic", "metric": "auc", "threads": 2, "solver": "kernel",
                                      "budget": 600, "seed": 5})",
                          t, t, nullptr);
  ASSERT_NE(r, nullptr);
  api::XperRequest q;
  q.data.path = testing::FixturePath("data/pima.csv");
  q.data.label = "label";
  q.model.learner.name = "logistic";
  api::DataInput train;
  train.path = q.data.path;
  train.label = "label";
  q.model.train = train;
  q.options.seed = 5;
  q.options.comparator = XperComparator::kFull;  // the command's default
  q.options.solver = "kernel";
  q.options.sampling.budget = 600;
  q.options.sampling.seed = 5;
  q.options.execution.threads = 2;  // result.json records the threads asked for
  api::XperResponse response = api::RunXper(q);
  response.run.permutation = response.run.train_permutation = "drawn from --seed";  // the front ends' words
  response.run.fixed_clusters = "fixed by --clusters";
  const api::MethodRun expected = api::XperMethodRun(std::move(response), "");
  ExpectBitwise(ArrayOf(r, "phi"), ValuesOf(*expected.Array("phi")));
  ExpectBitwise(ArrayOf(r, "value"), ValuesOf(*expected.Array("value")));
  const char* const* names = nullptr;
  size_t count = 0;
  ASSERT_EQ(perfshap_result_names(r, "feature_names", &names, &count), PERFSHAP_OK);
  ASSERT_EQ(count, pima.data.n_features());
  EXPECT_STREQ(names[0], pima.data.feature_names()[0].c_str());
  // The document: the command's keys and numbers (timings and data sources aside).
  const char* json = nullptr;
  size_t length = 0;
  ASSERT_EQ(perfshap_result_file(r, "result.json", &json, &length), PERFSHAP_OK);
  std::string want;
  const auto files = detail::RunReporter(expected.reporter, {});
  for (const auto& f : files)
    if (f.name == "result.json") want = f.content;
  EXPECT_EQ(Stable(std::string(json, length)), Stable(want));
  // A copy into the caller's buffer; too small a buffer is refused with the size needed.
  std::vector<double> copy(2);
  size_t size = 0;
  EXPECT_EQ(perfshap_result_copy_array(r, "phi", copy.data(), copy.size(), &size), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(size, pima.data.n_features());
  copy.resize(size);
  EXPECT_EQ(perfshap_result_copy_array(r, "phi", copy.data(), copy.size(), &size), PERFSHAP_OK);
  ExpectBitwise(copy, ValuesOf(*expected.Array("phi")));
  perfshap_result_free(r);
  perfshap_table_free(t);
}

TEST(CApi, TreeShapOfAnXgboostModelEqualsTheRequestLayerBitForBit) {
  const Columns bc("breast_cancer.csv");
  PerfshapTable* t = bc.Table();
  PerfshapModel* model = nullptr;
  const std::string path = testing::FixturePath("xgboost/binary_logistic.json");
  ASSERT_EQ(perfshap_model_from_file(path.c_str(), &model), PERFSHAP_OK) << perfshap_last_error();
  size_t features = 0;
  ASSERT_EQ(perfshap_model_n_features(model, &features), PERFSHAP_OK);
  EXPECT_EQ(features, bc.data.n_features());
  PerfshapResult* r = RunMethod("treeshap", R"({"label": "label", "threads": 2})", t, nullptr, model);
  ASSERT_NE(r, nullptr);
  api::ShapRequest q;
  q.data.path = testing::FixturePath("data/breast_cancer.csv");
  q.data.label = "label";
  q.model.tree_file = q.model.name = path;
  q.approach = api::ShapApproach::kTree;
  const api::ShapResponse expected = api::RunShap(q);
  std::vector<std::size_t> shape;
  ExpectBitwise(ArrayOf(r, "values", &shape), expected.explanation.phi);
  EXPECT_EQ(shape, (std::vector<std::size_t>{bc.data.n_rows(), 1, bc.data.n_features()}));
  ExpectBitwise(ArrayOf(r, "base_values"), expected.explanation.base);
  perfshap_result_free(r);
  perfshap_model_free(model);
  perfshap_table_free(t);
}

/** The files of the request layer's own run of `method` with `options` and the data from the
 *  file (what the command line runs), through the same option reader. */
std::string ExpectedResultJson(const std::string& method, nlohmann::json options, const std::string& file) {
  if (!file.empty()) options["data"] = testing::FixturePath("data/" + file);
  // Every method here is registered: the registry's call with the same options.
  const api::MethodRun run = api::CallMethod(method, {}, api::OptionTextOfJson(options)).run;
  for (const auto& f : detail::RunReporter(run.reporter, {}))
    if (f.name == "result.json") return f.content;
  return {};
}

TEST(CApi, EveryMethodOfLentColumnsWritesTheRequestLayersDocument) {
  struct Case {
    const char* method;
    const char* file;  // the lent table's CSV ("": no table)
    const char* options;
  };
  const Case cases[] = {
      {"robustness", "banknote.csv", R"({"label": "label", "model": "gnb", "cv": "mc:5", "threads": 2})"},
      {"axom", "wine.csv", R"({"label": "label", "trees": 5, "neighbours": 20, "heatmap_grid": 4, "threads": 2})"},
      {"chains", "", R"({"xor_rows": 300, "threads": 2})"},
      {"demo", "", R"({"rows": 300, "threads": 2})"},
      {"xper-montecarlo", "", R"({"samples": 3, "rows": 200, "train_rows": 100, "threads": 2})"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.method);
    PerfshapTable* t = nullptr;
    std::optional<Columns> columns;
    if (*c.file != '\0') {
      columns.emplace(c.file);
      t = columns->Table();
    }
    PerfshapResult* r = RunMethod(c.method, c.options, t, nullptr, nullptr);
    ASSERT_NE(r, nullptr);
    const char* json = nullptr;
    size_t length = 0;
    ASSERT_EQ(perfshap_result_file(r, "result.json", &json, &length), PERFSHAP_OK);
    EXPECT_EQ(Stable(std::string(json, length)), Stable(ExpectedResultJson(c.method, nlohmann::json::parse(c.options),
                                                                           c.file)));
    const char* console = nullptr;
    ASSERT_EQ(perfshap_result_console(r, &console), PERFSHAP_OK);
    EXPECT_GT(std::strlen(console), 0u);
    // Every method's record lists its arrays and names, and each lists one that is there.
    for (const int which : {PERFSHAP_ARRAYS, PERFSHAP_NAMES}) {
      const char* const* keys = nullptr;
      size_t count = 0;
      ASSERT_EQ(perfshap_result_keys(r, which, &keys, &count), PERFSHAP_OK);
      EXPECT_GT(count, 0u) << which;
      for (size_t i = 0; i < count; ++i) {
        if (which == PERFSHAP_ARRAYS) {
          const double* values = nullptr;
          const size_t* shape = nullptr;
          size_t ndim = 0;
          EXPECT_EQ(perfshap_result_array(r, keys[i], &values, &shape, &ndim), PERFSHAP_OK) << keys[i];
        } else {
          const char* const* names = nullptr;
          size_t n = 0;
          EXPECT_EQ(perfshap_result_names(r, keys[i], &names, &n), PERFSHAP_OK) << keys[i];
        }
      }
    }
    if (std::string(c.method) == "robustness") {
      std::vector<std::size_t> shape;
      EXPECT_EQ(ArrayOf(r, "phi", &shape).size(), 4u);
      EXPECT_EQ(ArrayOf(r, "n_splits"), std::vector<double>{5.0});
    }
    perfshap_result_free(r);
    if (t != nullptr) perfshap_table_free(t);
  }
  // A table a method does not read is refused, naming its role.
  PerfshapRequest* req = nullptr;
  const Columns wine("wine.csv");
  PerfshapTable* t = wine.Table();
  ASSERT_EQ(perfshap_request_create("robustness", nullptr, &req), PERFSHAP_OK);
  ASSERT_EQ(perfshap_request_set_table(req, "train", t), PERFSHAP_OK);
  PerfshapResult* r = nullptr;
  EXPECT_EQ(perfshap_run(req, &r), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(perfshap_last_error_option(0), "train");
  perfshap_request_free(req);
  perfshap_table_free(t);
}

TEST(CApi, AnArrowRecordBatchAndStreamEqualLentColumns) {
  using namespace testing::arrow;  // NOLINT(google-build-using-namespace): the builders
  const Columns pima("pima.csv");
  const auto n = static_cast<std::int64_t>(pima.data.n_rows());
  // The batch: every feature as float64 (read in place), the label as int8.
  std::vector<std::unique_ptr<ArrowSchema>> fields;
  std::vector<std::unique_ptr<ArrowArray>> arrays;
  for (std::size_t j = 0; j < pima.data.n_features(); ++j) {
    const auto col = pima.data.column(j);
    fields.push_back(Field("g", pima.data.feature_names()[j]));
    arrays.push_back(Leaf({{}, Bytes(std::vector<double>(col.begin(), col.end()))}, n, 0, 0));
  }
  std::vector<std::int8_t> label;
  for (double v : pima.data.label()) label.push_back(static_cast<std::int8_t>(v));
  fields.push_back(Field("c", "label"));
  arrays.push_back(Leaf({{}, Bytes(label)}, n, 0, 0));
  ArrowSchema schema;
  ArrowArray array;
  Batch(std::move(fields), std::move(arrays), n, &schema, &array);
  PerfshapTable* arrow = nullptr;
  ASSERT_EQ(perfshap_table_from_arrow("orders", &schema, &array, &arrow), PERFSHAP_OK) << perfshap_last_error();
  EXPECT_EQ(schema.release, nullptr);
  double extra[1] = {0};
  EXPECT_EQ(perfshap_table_add_numeric(arrow, "more", PERFSHAP_FLOAT64, extra, 1, 0), PERFSHAP_ERROR_INVALID_ARGUMENT);
  PerfshapTable* lent = pima.Table();
  const char* options = R"({"label": "label", "model": "logistic", "threads": 2})";
  PerfshapResult* a = RunMethod("xper", options, arrow, arrow, nullptr);
  PerfshapResult* b = RunMethod("xper", options, lent, lent, nullptr);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ExpectBitwise(ArrayOf(a, "phi"), ArrayOf(b, "phi"));
  perfshap_result_free(a);
  perfshap_result_free(b);
  perfshap_table_free(arrow);
  perfshap_table_free(lent);
  // A malformed batch: a status, the column named, the structs released.
  std::vector<std::unique_ptr<ArrowSchema>> f;
  std::vector<std::unique_ptr<ArrowArray>> c;
  f.push_back(Field("g", "price"));
  c.push_back(Leaf({{}, Bytes(std::vector<double>{1, 2})}, -3, 0, 0));
  Batch(std::move(f), std::move(c), 2, &schema, &array);
  EXPECT_EQ(perfshap_table_from_arrow("orders", &schema, &array, &arrow), PERFSHAP_ERROR_DATA);
  EXPECT_EQ(arrow, nullptr);
  EXPECT_NE(std::string(perfshap_last_error()).find("column 0 'price'"), std::string::npos) << perfshap_last_error();
  EXPECT_EQ(array.release, nullptr);
  EXPECT_EQ(perfshap_table_from_arrow_stream("s", nullptr, &arrow), PERFSHAP_ERROR_INVALID_ARGUMENT);
}

TEST(CApi, ErrorsAreAStatusWithTheMessageAndTheOptionNames) {
  const Columns pima("pima.csv");
  // A NaN cell: a data error naming the column and row.
  std::vector<double> glucose(pima.data.column(1).begin(), pima.data.column(1).end());
  glucose[7] = std::nan("");
  PerfshapTable* t = nullptr;
  ASSERT_EQ(perfshap_table_create("orders", &t), PERFSHAP_OK);
  for (std::size_t j = 0; j < pima.data.n_features(); ++j)
    ASSERT_EQ(perfshap_table_add_numeric(t, pima.data.feature_names()[j].c_str(), PERFSHAP_FLOAT64,
                                         j == 1 ? glucose.data() : pima.data.column(j).data(),
                                         static_cast<int64_t>(pima.data.n_rows()), 0),
              PERFSHAP_OK);
  ASSERT_EQ(perfshap_table_add_numeric(t, "label", PERFSHAP_FLOAT64, pima.data.label().data(),
                                       static_cast<int64_t>(pima.data.n_rows()), 0),
            PERFSHAP_OK);
  PerfshapRequest* req = nullptr;
  ASSERT_EQ(perfshap_request_create("xper", R"({"label": "label", "model": "logistic"})", &req), PERFSHAP_OK);
  ASSERT_EQ(perfshap_request_set_table(req, "data", t), PERFSHAP_OK);
  ASSERT_EQ(perfshap_request_set_table(req, "train", t), PERFSHAP_OK);
  PerfshapResult* r = nullptr;
  EXPECT_EQ(perfshap_run(req, &r), PERFSHAP_ERROR_DATA);
  EXPECT_EQ(r, nullptr);
  const std::string message = perfshap_last_error();
  EXPECT_NE(message.find("orders"), std::string::npos) << message;
  EXPECT_NE(message.find(pima.data.feature_names()[1]), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_EQ(perfshap_last_error_kind(), PERFSHAP_ERROR_DATA);
  perfshap_request_free(req);
  // An unknown option: refused naming it.
  ASSERT_EQ(perfshap_request_create("xper", R"({"model": "logistic", "budgett": 5})", &req), PERFSHAP_OK);
  EXPECT_EQ(perfshap_run(req, &r), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(perfshap_last_error()).find("xper has no option 'budgett'; its options: "), std::string::npos);
  ASSERT_EQ(perfshap_last_error_option_count(), 1u);
  EXPECT_STREQ(perfshap_last_error_option(0), "budgett");
  EXPECT_EQ(perfshap_last_error_option(1), nullptr);
  perfshap_request_free(req);
  // A value of the wrong kind names the option.
  ASSERT_EQ(perfshap_request_create("xper", R"({"threads": "two"})", &req), PERFSHAP_OK);
  EXPECT_EQ(perfshap_run(req, &r), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(perfshap_last_error_option(0), "threads");
  perfshap_request_free(req);
  // The options are named as the JSON spells them, and a negative thread count is one of them.
  for (const auto& [options, key] : std::vector<std::pair<const char*, const char*>>{
           {R"({"solver": "kernel", "time_limit": -1})", "time_limit"}, {R"({"threads": -1})", "threads"}}) {
    ASSERT_EQ(perfshap_request_create("xper", options, &req), PERFSHAP_OK);
    EXPECT_EQ(perfshap_run(req, &r), PERFSHAP_ERROR_INVALID_ARGUMENT) << options;
    ASSERT_GE(perfshap_last_error_option_count(), 1u) << options << ": " << perfshap_last_error();
    EXPECT_STREQ(perfshap_last_error_option(0), key) << perfshap_last_error();
    perfshap_request_free(req);
  }
  // A value of 50 MB is not echoed whole: the message keeps its ends and says its length.
  const std::string huge = R"({"model": ")" + std::string(50u << 20, 'y') + R"("})";
  ASSERT_EQ(perfshap_request_create("xper", huge.c_str(), &req), PERFSHAP_OK);
  EXPECT_EQ(perfshap_run(req, &r), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_LT(std::strlen(perfshap_last_error()), 600u);
  EXPECT_NE(std::string(perfshap_last_error()).find("bytes)"), std::string::npos) << perfshap_last_error();
  perfshap_request_free(req);
  // Text that is no JSON object, an unknown method, an unknown role.
  EXPECT_EQ(perfshap_request_create("xper", "{\"threads\": ", &req), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_request_create("xper", "[1, 2]", &req), PERFSHAP_ERROR_INVALID_ARGUMENT);
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');  // never a stack overflow
  EXPECT_NE(perfshap_request_create("xper", deep.c_str(), &req), PERFSHAP_OK);
  EXPECT_EQ(std::string(perfshap_last_error()).find('\n'), std::string::npos);
  EXPECT_EQ(perfshap_request_create("robustnes", nullptr, &req), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(perfshap_last_error_option(0), "method");
  ASSERT_EQ(perfshap_request_create("shap", nullptr, &req), PERFSHAP_OK);
  EXPECT_EQ(perfshap_request_set_table(req, "test", t), PERFSHAP_ERROR_INVALID_ARGUMENT);
  perfshap_request_free(req);
  // A column of another length, a negative count, a duplicate name, an unknown type.
  std::vector<double> three = {1, 2, 3};
  EXPECT_EQ(perfshap_table_add_numeric(t, "short", PERFSHAP_FLOAT64, three.data(), 3, 0),
            PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_table_add_numeric(t, "neg", PERFSHAP_FLOAT64, three.data(), -1, 0),
            PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_table_add_numeric(t, "label", PERFSHAP_FLOAT64, pima.data.label().data(),
                                       static_cast<int64_t>(pima.data.n_rows()), 0),
            PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_table_add_numeric(t, "odd", 99, three.data(), 3, 0), PERFSHAP_ERROR_INVALID_ARGUMENT);
  // A model that is no XGBoost model.
  PerfshapModel* m = nullptr;
  EXPECT_EQ(perfshap_model_from_xgboost_json("{\"a\": 1}", 8, "m", &m), PERFSHAP_ERROR_DATA);
  EXPECT_EQ(m, nullptr);
  perfshap_table_free(t);
}

TEST(CApi, EveryEntryPointGivenNullReturnsAStatus) {
  PerfshapRequest* req = nullptr;
  PerfshapResult* r = nullptr;
  PerfshapModel* m = nullptr;
  const double* values = nullptr;
  const size_t* shape = nullptr;
  size_t n = 0;
  const char* text = nullptr;
  const char* const* names = nullptr;
  EXPECT_EQ(perfshap_table_create(nullptr, nullptr), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_table_add_numeric(nullptr, "x", PERFSHAP_FLOAT64, nullptr, 1, 0), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_table_add_text(nullptr, "x", nullptr, 1), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_model_from_xgboost_json(nullptr, 0, nullptr, &m), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_model_from_file(nullptr, &m), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_model_from_file("/nonexistent/m.json", &m), PERFSHAP_ERROR_DATA);
  EXPECT_EQ(perfshap_model_n_features(nullptr, &n), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_request_create(nullptr, nullptr, &req), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_request_set_table(nullptr, "data", nullptr), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_request_set_model(nullptr, nullptr), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_request_set_progress(nullptr, nullptr, nullptr), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_request_cancel(nullptr), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_request_set_mpi_comm(nullptr, nullptr), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_run(nullptr, &r), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_result_array(nullptr, "phi", &values, &shape, &n), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_result_copy_array(nullptr, "phi", nullptr, 0, &n), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_result_names(nullptr, "players", &names, &n), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_result_console(nullptr, &text), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_result_keys(nullptr, PERFSHAP_ARRAYS, &names, &n), PERFSHAP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(perfshap_result_file(nullptr, "result.json", &text, &n), PERFSHAP_ERROR_INVALID_ARGUMENT);
  perfshap_table_free(nullptr);
  perfshap_model_free(nullptr);
  perfshap_request_free(nullptr);
  perfshap_result_free(nullptr);
  // A run without data: shap explains rows, so it needs them.
  ASSERT_EQ(perfshap_request_create("shap", nullptr, &req), PERFSHAP_OK);
  EXPECT_NE(perfshap_run(req, &r), PERFSHAP_OK);
  EXPECT_GT(std::strlen(perfshap_last_error()), 0u);
  perfshap_request_free(req);
  EXPECT_STREQ(perfshap_version(), PERFSHAP_VERSION_FOR_TEST);
  // The idle arenas let go, then none is left to release.
  perfshap_release_idle_arenas();
  EXPECT_EQ(perfshap_release_idle_arenas(), 0u);
}

TEST(CApi, ProgressReportsAndAStopFromTheCallbackCancels) {
  const Columns pima("pima.csv");
  PerfshapTable* t = pima.Table();
  struct Seen {
    std::atomic<int> calls{0};
    bool stop = false;
  } seen;
  auto callback = [](uint64_t done, uint64_t total, double, void* user) -> int {
    auto* s = static_cast<Seen*>(user);
    s->calls++;
    EXPECT_LE(done, total);
    return s->stop ? 1 : 0;
  };
  for (const bool stop : {false, true}) {
    seen.stop = stop;
    seen.calls = 0;
    PerfshapRequest* req = nullptr;
    ASSERT_EQ(perfshap_request_create("xper", R"({"label": "label", "model": "logistic", "solver": "permutation",
                                                 "budget": 1000, "tolerance": 1e-9, "threads": 2})",
                                      &req),
              PERFSHAP_OK);
    ASSERT_EQ(perfshap_request_set_table(req, "data", t), PERFSHAP_OK);
    ASSERT_EQ(perfshap_request_set_table(req, "train", t), PERFSHAP_OK);
    ASSERT_EQ(perfshap_request_set_progress(req, callback, &seen), PERFSHAP_OK);
    PerfshapResult* r = nullptr;
    const int status = perfshap_run(req, &r);
    EXPECT_GT(seen.calls.load(), 0);
    if (stop) {
      EXPECT_EQ(status, PERFSHAP_ERROR_CANCELLED) << perfshap_last_error();
      EXPECT_EQ(r, nullptr);
    } else {
      EXPECT_EQ(status, PERFSHAP_OK) << perfshap_last_error();
    }
    perfshap_result_free(r);
    perfshap_request_free(req);
  }
  perfshap_table_free(t);
}

TEST(CApi, TheCallbackRunsOffTheEngineAndACancelBeforeTheRunIsHonoured) {
  // Hardening round 2, item 2: the callback never runs on one of the engine's workers (a slow
  // one stalls no computation: bench/c_progress_callback), never twice at once, and its final call
  // comes on the caller's thread. A cancellation before perfshap_run stops that run; the next
  // run of the request runs.
  const Columns pima("pima.csv");
  PerfshapTable* t = pima.Table();
  struct Seen {
    std::mutex mutex;
    std::set<std::thread::id> threads;
    std::thread::id last;
    std::atomic<int> inside{0};
    std::atomic<int> overlaps{0};
  } seen;
  auto callback = [](uint64_t, uint64_t, double, void* user) -> int {
    auto* s = static_cast<Seen*>(user);
    if (s->inside.fetch_add(1) > 0) s->overlaps++;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    {
      const std::lock_guard<std::mutex> lock(s->mutex);
      s->threads.insert(std::this_thread::get_id());
      s->last = std::this_thread::get_id();
    }
    s->inside--;
    return 0;
  };
  PerfshapRequest* req = nullptr;
  ASSERT_EQ(perfshap_request_create("xper", R"({"label": "label", "model": "logistic", "solver": "permutation",
                                               "budget": 1000, "tolerance": 1e-9, "threads": 2})",
                                    &req),
            PERFSHAP_OK);
  ASSERT_EQ(perfshap_request_set_table(req, "data", t), PERFSHAP_OK);
  ASSERT_EQ(perfshap_request_set_table(req, "train", t), PERFSHAP_OK);
  ASSERT_EQ(perfshap_request_set_progress(req, callback, &seen), PERFSHAP_OK);
  ASSERT_EQ(perfshap_request_cancel(req), PERFSHAP_OK);
  PerfshapResult* r = nullptr;
  EXPECT_EQ(perfshap_run(req, &r), PERFSHAP_ERROR_CANCELLED);
  EXPECT_EQ(r, nullptr);
  ASSERT_EQ(perfshap_run(req, &r), PERFSHAP_OK) << perfshap_last_error();
  EXPECT_EQ(seen.overlaps.load(), 0);
  EXPECT_EQ(seen.last, std::this_thread::get_id()) << "the final call is on the caller's thread";
  // Every other call came from one thread of the relay: at most the caller's and that one.
  EXPECT_LE(seen.threads.size(), 2u);
  perfshap_result_free(r);
  perfshap_request_free(req);
  perfshap_table_free(t);
}

}  // namespace
}}  // namespace perfshap
