// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// perfshap._perfshap: the engine's entry points for the Python package (python/perfshap/).
// explain_<method> binds the library's request layer (engine/src/api/), the one the command line
// calls, so the numbers are the command's: in-memory tables whose numeric columns are read in
// place (pointer and stride, each value converted once), the user's models and learners as
// objects, run on a worker thread while the calling thread, GIL released between polls,
// forwards progress and turns Ctrl-C into a cancellation; the results' arrays come from the
// engine's buffers and the files are written when first read. TreeModel is TreeSHAP's direct
// path. perfshap::Error becomes DataError / InvalidArgument with the engine's one-line message.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "api/robustness_request.hpp"
#include "api/sampling_input.hpp"
#include "api/axom_request.hpp"
#include "perfshap/arrow.hpp"
#include "api/method_run.hpp"
#include "api/registry.hpp"
#include "api/shared_options.hpp"
#include "api/chains_request.hpp"
#include "api/demo_request.hpp"
#include "api/shap_request.hpp"
#include "api/xper_request.hpp"
#include "schedule/agreement.hpp"
#include "report/xper_report.hpp"
#include "data/message_text.hpp"
#include "data/text_lines.hpp"
#include "perfshap/blocks/cost.hpp"
#include "perfshap/blocks/curves.hpp"
#include "report/html_report.hpp"
#include "report/axom_report.hpp"
#include "report/chains_report.hpp"
#include "report/demo_report.hpp"
#include "report/montecarlo_report.hpp"
#include "report/robustness_report.hpp"
#include "report/shap_report.hpp"
#include "report/run_reporter.hpp"

#include "perfshap/error.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/options.hpp"
#include "perfshap/treeshap.hpp"
#include "perfshap/blocks/trees.hpp"
#include "perfshap/xper_montecarlo.hpp"

namespace py = pybind11;

namespace {

using Array = py::array_t<double, py::array::forcecast>;

/** x (rows x features, any strides) in the engine's column-major layout. */
std::vector<double> ColumnMajor(const Array& x, std::size_t& n_rows, std::size_t& n_cols) {
  if (x.ndim() != 2) throw perfshap::InvalidArgument("X must be a 2-dimensional array (rows x features)");
  n_rows = static_cast<std::size_t>(x.shape(0));
  n_cols = static_cast<std::size_t>(x.shape(1));
  const auto v = x.unchecked<2>();
  std::vector<double> out(n_rows * n_cols);
  for (std::size_t j = 0; j < n_cols; ++j)
    for (std::size_t r = 0; r < n_rows; ++r)
      out[j * n_rows + r] = v(static_cast<py::ssize_t>(r), static_cast<py::ssize_t>(j));
  return out;
}

/** A Python exception raised by a host's function inside the engine: carried to the caller's
 *  thread, where Run raises it again (the engine stops as for a failing task). */
struct PythonRaised : std::exception {
  explicit PythonRaised(py::error_already_set e) : error(std::make_shared<py::error_already_set>(std::move(e))) {}
  const char* what() const noexcept override { return "a Python exception"; }
  std::shared_ptr<py::error_already_set> error;
};

/**
 * The user's own model: a Python callable f(X) -> rows x outputs (or rows), X a float64 array
 * rows x features. The engine calls it from its worker threads with whole batches of hybrid rows
 * (thousands of rows a call), each call holding the GIL only while f runs; the batches are
 * fixed by the game's blocks, so the result is bitwise the same at any thread count. A call that
 * raises stops the run and the exception reaches the caller; a wrong shape or a NaN is a
 * one-line error naming the batch.
 */
class PyCallableModel final : public perfshap::Model {
 public:
  PyCallableModel(py::object f, std::size_t n_features, std::size_t n_outputs, bool classifier,
                  std::string description)
      : f_(std::make_shared<py::object>(std::move(f))), n_features_(n_features), n_outputs_(n_outputs),
        classifier_(classifier), description_(std::move(description)) {}
  ~PyCallableModel() override {
    const py::gil_scoped_acquire gil;
    f_.reset();
  }
  std::size_t n_features() const override { return n_features_; }
  std::size_t n_outputs() const override { return n_outputs_; }
  bool is_classifier() const override { return classifier_; }
  std::string Describe() const override { return description_; }
  void Predict(std::span<const double> x, std::size_t n_rows, std::span<double> out) const override {
    const py::gil_scoped_acquire gil;
    try {
      py::array_t<double> rows({static_cast<py::ssize_t>(n_rows), static_cast<py::ssize_t>(n_features_)});
      auto r = rows.mutable_unchecked<2>();
      for (std::size_t j = 0; j < n_features_; ++j)
        for (std::size_t i = 0; i < n_rows; ++i)
          r(static_cast<py::ssize_t>(i), static_cast<py::ssize_t>(j)) = x[j * n_rows + i];
      const py::object result = (*f_)(rows);
      // Complex numbers would lose their imaginary part in the cast below, with only numpy's
      // warning: refused as any other output that is not rows x outputs real numbers.
      if (const py::array raw = py::array::ensure(result); raw && raw.dtype().kind() == 'c')
        throw perfshap::DataError(description_ + " returned complex numbers (dtype " +
                                  py::str(raw.dtype()).cast<std::string>() +
                                  "); it must return real numbers (take .real or abs() inside the function)");
      const auto y = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(result);
      if (!y) throw perfshap::DataError(description_ + " returned " + py::str(py::type::of(result)).cast<std::string>() +
                                        ", not an array of numbers; return rows x outputs numbers");
      const bool one = y.ndim() == 1 && n_outputs_ == 1;
      if (!(one || (y.ndim() == 2 && static_cast<std::size_t>(y.shape(1)) == n_outputs_)) ||
          static_cast<std::size_t>(y.shape(0)) != n_rows)
        throw perfshap::DataError(description_ + " returned an array of shape " + ShapeText(y) + " for " +
                                  std::to_string(n_rows) + " rows; it must return " + std::to_string(n_rows) +
                                  (n_outputs_ == 1 ? " values (or rows x 1)" : " x " + std::to_string(n_outputs_)) +
                                  ", as it did on the first call");
      const double* v = y.data();
      for (std::size_t i = 0; i < n_rows; ++i)
        for (std::size_t o = 0; o < n_outputs_; ++o) {
          const double value = v[i * n_outputs_ + o];
          if (!std::isfinite(value))
            throw perfshap::DataError(description_ + " returned " + (std::isnan(value) ? "NaN" : "an infinity") +
                                      " for row " + std::to_string(i) + " of a batch of " + std::to_string(n_rows) +
                                      " rows (output " + std::to_string(o) +
                                      "); it must return finite numbers for every row");
          out[o * n_rows + i] = value;
        }
    } catch (py::error_already_set& e) {
      throw PythonRaised(std::move(e));
    }
  }

 private:
  static std::string ShapeText(const py::array& a) {
    std::string s = "(";
    for (py::ssize_t d = 0; d < a.ndim(); ++d) s += (d ? ", " : "") + std::to_string(a.shape(d));
    return s + (a.ndim() == 1 ? ",)" : ")");
  }
  std::shared_ptr<py::object> f_;
  std::size_t n_features_;
  std::size_t n_outputs_;
  bool classifier_;
  std::string description_;
};

/** A Python object that is released with the GIL held, whichever thread drops it last. */
using PyHandle = std::shared_ptr<py::object>;
PyHandle MakeHandle(py::object o) {
  return PyHandle(new py::object(std::move(o)), [](py::object* p) {
    const py::gil_scoped_acquire gil;
    delete p;
  });
}

/** Rows x columns of a row-major block as a float64 numpy array (a copy: the fit keeps it). */
py::array_t<double> RowsOf(const std::vector<double>& rows, std::size_t n, std::size_t all,
                           const std::vector<std::size_t>& columns) {
  py::array_t<double> a({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(columns.size())});
  auto m = a.mutable_unchecked<2>();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t c = 0; c < columns.size(); ++c)
      m(static_cast<py::ssize_t>(i), static_cast<py::ssize_t>(c)) = rows[i * all + columns[c]];
  return a;
}

/** The scores of a fitted estimator on rows: predict_proba's class-1 column, or predict. */
std::vector<double> EstimatorScores(const py::object& fitted, const py::array_t<double>& x, bool classifier,
                                    const std::string& who) {
  const std::size_t n = static_cast<std::size_t>(x.shape(0));
  py::object result;
  std::size_t column = 0;
  std::size_t width = 1;
  if (classifier) {
    result = fitted.attr("predict_proba")(x);
    const py::list classes = py::list(fitted.attr("classes_"));
    width = classes.size();
    bool found = false;
    for (std::size_t k = 0; k < width; ++k)
      if (classes[k].cast<double>() == 1.0) {
        column = k;
        found = true;
      }
    if (!found) throw perfshap::DataError(who + " was fitted without the class 1; every training split needs both classes");
  } else {
    result = fitted.attr("predict")(x);
  }
  const auto y = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(result);
  if (!y || static_cast<std::size_t>(y.shape(0)) != n || static_cast<std::size_t>(y.size()) != n * width)
    throw perfshap::DataError(who + (classifier ? ".predict_proba" : ".predict") + " returned " +
                              std::to_string(y ? y.size() : 0) + " values for " + std::to_string(n) + " rows");
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = y.data()[i * width + column];
    if (!std::isfinite(out[i]))
      throw perfshap::DataError(who + " predicted " + (std::isnan(out[i]) ? "NaN" : "an infinity") + " for test row " +
                                std::to_string(i) + "; it must predict finite numbers");
  }
  return out;
}

class PyEstimatorSplit;

/** A fitted copy of the estimator as a Model over a coalition's columns. */
class PyFittedModel final : public perfshap::Model {
 public:
  PyFittedModel(PyHandle fitted, std::size_t n_features, bool classifier, double prior, std::string who)
      : fitted_(std::move(fitted)), n_features_(n_features), classifier_(classifier), prior_(prior), who_(std::move(who)) {}
  std::size_t n_features() const override { return n_features_; }
  bool is_classifier() const override { return classifier_; }
  std::string Describe() const override { return who_; }
  void Predict(std::span<const double> x, std::size_t n_rows, std::span<double> out) const override {
    if (!fitted_) {  // the empty coalition: the training prior
      std::fill(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n_rows), prior_);
      return;
    }
    const py::gil_scoped_acquire gil;
    try {
      std::vector<double> rows(n_rows * n_features_);
      for (std::size_t j = 0; j < n_features_; ++j)
        for (std::size_t i = 0; i < n_rows; ++i) rows[i * n_features_ + j] = x[j * n_rows + i];
      std::vector<std::size_t> all(n_features_);
      for (std::size_t j = 0; j < n_features_; ++j) all[j] = j;
      const std::vector<double> s = EstimatorScores(*fitted_, RowsOf(rows, n_rows, n_features_, all), classifier_, who_);
      std::copy(s.begin(), s.end(), out.begin());
    } catch (py::error_already_set& e) {
      throw PythonRaised(std::move(e));
    }
  }

 private:
  PyHandle fitted_;
  std::size_t n_features_;
  bool classifier_;
  double prior_;
  std::string who_;
};

/**
 * A scikit-learn estimator (anything with fit and predict_proba / predict) as a learner: each
 * coalition trains a fresh sklearn.base.clone of it on the coalition's columns of the training
 * rows and scores the test rows (predict_proba's class-1 column for a classifier). The empty
 * coalition predicts the training prior (the mean label). The engine schedules the coalitions
 * and splits on its threads; each fit holds the GIL, so fits run one at a time.
 */
class PyEstimatorLearner final : public perfshap::Learner, public std::enable_shared_from_this<PyEstimatorLearner> {
 public:
  PyEstimatorLearner(py::object estimator, std::string name, bool classifier)
      : estimator_(MakeHandle(std::move(estimator))),
        clone_(MakeHandle(py::module_::import("sklearn.base").attr("clone"))),
        name_(std::move(name)),
        classifier_(classifier),
        repr_(py::repr(*estimator_).cast<std::string>()) {}
  const std::string& name() const noexcept override { return name_; }
  bool is_classifier() const noexcept override { return classifier_; }
  perfshap::LearnerParams params() const override { return {{"estimator", repr_}}; }
  std::unique_ptr<perfshap::PreparedSplit> Prepare(const perfshap::Dataset& data,
                                                   std::span<const perfshap::Player> players,
                                                   std::span<const std::size_t> train_rows,
                                                   std::span<const std::size_t> test_rows,
                                                   const std::string& split_name) const override;
  /** A fresh unfitted copy (the caller holds the GIL). */
  py::object Clone() const { return (*clone_)(*estimator_); }

 private:
  PyHandle estimator_;
  PyHandle clone_;
  std::string name_;
  bool classifier_;
  std::string repr_;
};

/** One split's rows for the estimator: the players' columns of the training and test rows. */
class PyEstimatorSplit final : public perfshap::PreparedSplit {
 public:
  PyEstimatorSplit(const PyEstimatorLearner& owner, const perfshap::Dataset& data,
                   std::span<const perfshap::Player> players, std::span<const std::size_t> train_rows,
                   std::span<const std::size_t> test_rows, const std::string& split_name)
      : learner(owner) {
    learner_name_ = learner.name();
    split_name_ = split_name;
    source_ = data.source();
    n_train_ = train_rows.size();
    for (const perfshap::Player& p : players) {
      player_names_.push_back(p.name);
      std::vector<std::size_t> local;
      for (std::size_t c : p.columns) {
        local.push_back(columns.size());
        columns.push_back(c);
      }
      player_columns.push_back(std::move(local));
    }
    const std::size_t C = columns.size();
    const auto gather = [&](std::span<const std::size_t> rows, std::vector<double>& out) {
      out.resize(rows.size() * C);
      for (std::size_t c = 0; c < C; ++c) {
        const auto col = data.column(columns[c]);
        for (std::size_t i = 0; i < rows.size(); ++i) out[i * C + c] = col[rows[i]];
      }
    };
    gather(train_rows, train);
    gather(test_rows, test);
    const auto label = data.label();
    double positives = 0.0;
    for (std::size_t i : train_rows) {
      train_label.push_back(label[i]);
      positives += label[i];
    }
    for (std::size_t i : test_rows) test_label_.push_back(label[i]);
    prior = train_rows.empty() ? 0.0 : positives / static_cast<double>(train_rows.size());
    if (learner.is_classifier()) {
      for (double y : train_label)
        if (y != 0.0 && y != 1.0)
          throw perfshap::DataError(split_name + ": the label holds " + perfshap::detail::FormatOptionNumber(y) +
                                    "; the classifier " + learner.name() + " takes a 0/1 label");
      if (positives == 0.0 || positives == static_cast<double>(train_rows.size()))
        throw perfshap::DataError(split_name + " hold one class only; the classifier " + learner.name() +
                                  " needs both classes in every training split");
    }
  }
  std::unique_ptr<perfshap::CoalitionFitter> MakeFitter() const override;

  const PyEstimatorLearner& learner;
  std::vector<std::size_t> columns;                     // the data's columns, players in order
  std::vector<std::vector<std::size_t>> player_columns;  // each player's positions in `columns`
  std::vector<double> train, test;                       // row-major, columns.size() wide
  std::vector<double> train_label;
  double prior = 0.0;
};

class PyEstimatorFitter final : public perfshap::CoalitionFitter {
 public:
  explicit PyEstimatorFitter(const PyEstimatorSplit& split) : split_(&split) {}
  using perfshap::CoalitionFitter::Fit;
  bool Rebind(const perfshap::PreparedSplit& split) override {
    const auto* mine = dynamic_cast<const PyEstimatorSplit*>(&split);
    if (mine == nullptr) return false;
    split_ = mine;
    fitted_.reset();
    return true;
  }
  void Reset() noexcept override {}
  int Fit(std::span<const std::uint32_t> players) override {
    cols_.clear();
    for (std::uint32_t p : players)
      for (std::size_t c : split_->player_columns[p]) cols_.push_back(c);
    std::sort(cols_.begin(), cols_.end());
    fitted_.reset();
    if (cols_.empty()) return 0;  // the prior
    const py::gil_scoped_acquire gil;
    try {
      py::object model = split_->learner.Clone();
      py::array_t<double> y(static_cast<py::ssize_t>(split_->train_label.size()));
      std::copy(split_->train_label.begin(), split_->train_label.end(), y.mutable_data());
      model.attr("fit")(RowsOf(split_->train, split_->n_train(), split_->columns.size(), cols_), y);
      fitted_ = MakeHandle(std::move(model));
    } catch (py::error_already_set& e) {
      // A ColumnTransformer that picks columns by name cannot be refitted on a coalition's columns.
      if (e.matches(PyExc_ValueError) && std::string(e.what()).find("using strings is only supported for pandas") !=
                                             std::string::npos)
        throw perfshap::InvalidArgument(
            "the estimator " + split_->learner.name() +
                " selects columns by name (a ColumnTransformer given column names), but each coalition refits it "
                "on a subset of the columns as a numpy array, text columns one-hot encoded by perfshap: give the "
                "pipeline without its ColumnTransformer (perfshap encodes the text columns itself)",
            {"model"});
      throw PythonRaised(std::move(e));
    }
    return 0;
  }
  void ScoreTest(std::span<double> out, perfshap::ScoreScale /*scale: probabilities either way*/) override {
    const std::size_t n = split_->n_test();
    if (!fitted_) {
      std::fill(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n), split_->prior);
      return;
    }
    const py::gil_scoped_acquire gil;
    try {
      const std::vector<double> s = EstimatorScores(*fitted_, RowsOf(split_->test, n, split_->columns.size(), cols_),
                                                    split_->learner.is_classifier(), split_->learner.name());
      std::copy(s.begin(), s.end(), out.begin());
    } catch (py::error_already_set& e) {
      throw PythonRaised(std::move(e));
    }
  }
  std::unique_ptr<perfshap::Model> MakeModel() const override {
    return std::make_unique<PyFittedModel>(fitted_, cols_.size(), split_->learner.is_classifier(), split_->prior,
                                           split_->learner.name() + " (fitted)");
  }

 private:
  const PyEstimatorSplit* split_;
  std::vector<std::size_t> cols_;
  PyHandle fitted_;
};

std::unique_ptr<perfshap::CoalitionFitter> PyEstimatorSplit::MakeFitter() const {
  return std::make_unique<PyEstimatorFitter>(*this);
}

std::unique_ptr<perfshap::PreparedSplit> PyEstimatorLearner::Prepare(const perfshap::Dataset& data,
                                                                     std::span<const perfshap::Player> players,
                                                                     std::span<const std::size_t> train_rows,
                                                                     std::span<const std::size_t> test_rows,
                                                                     const std::string& split_name) const {
  return std::make_unique<PyEstimatorSplit>(*this, data, players, train_rows, test_rows, split_name);
}

/** A fitted tree model read from an XGBoost JSON text. */
class PyTreeModel {
 public:
  PyTreeModel(const std::string& json, const std::string& source, const py::object& iteration_range)
      : json_(json), source_(source), model_(perfshap::ParseXgboostModel(json, source, ReadOptions(iteration_range))) {}
  /** A model built from its trees' arrays (a scikit-learn model converted by perfshap/_sklearn.py). */
  PyTreeModel(std::shared_ptr<const perfshap::TreeEnsemble> model, std::string source)
      : source_(std::move(source)), model_(std::move(model)) {}

  /**
   * The ensemble of `trees`: dicts of equal-length node arrays (feature, threshold, left, right,
   * default_left, cover; value: nodes x width, flattened) with `output` and `width`; x <= threshold
   * goes left in double, NaN follows default_left. TreeEnsemble checks the trees (children,
   * cycles, features, finite values) and says which tree and node is wrong.
   */
  static PyTreeModel FromTrees(const py::list& trees, std::size_t n_features, std::size_t n_outputs,
                               const std::vector<double>& base_margin, double tree_scale, const std::string& transform,
                               bool classifier, const std::vector<std::string>& feature_names,
                               const std::string& description, const std::string& source,
                               const std::vector<std::string>& class_names) {
    std::vector<perfshap::Tree> out;
    out.reserve(trees.size());
    for (const py::handle item : trees) {
      const py::dict d = item.cast<py::dict>();
      perfshap::Tree t;
      t.feature = d["feature"].cast<std::vector<std::int32_t>>();
      t.threshold = d["threshold"].cast<std::vector<double>>();
      t.left = d["left"].cast<std::vector<std::int32_t>>();
      t.right = d["right"].cast<std::vector<std::int32_t>>();
      t.default_left = d["default_left"].cast<std::vector<std::uint8_t>>();
      t.cover = d["cover"].cast<std::vector<double>>();
      t.value = d["value"].cast<std::vector<double>>();
      t.output = d["output"].cast<int>();
      t.width = d["width"].cast<int>();
      const std::size_t n = t.feature.size();
      PERFSHAP_CHECK(t.threshold.size() == n && t.left.size() == n && t.right.size() == n &&
                         t.default_left.size() == n && t.cover.size() == n && t.width >= 1 &&
                         t.value.size() == n * static_cast<std::size_t>(t.width),
                     source + ": tree " + std::to_string(out.size()) + " has node arrays of different lengths");
      out.push_back(std::move(t));
    }
    perfshap::TreeEnsembleInfo info;
    info.n_features = n_features;
    info.n_outputs = n_outputs;
    info.base_margin = base_margin;
    info.tree_scale = tree_scale;
    if (transform == "identity") info.transform = perfshap::TreeTransform::kIdentity;
    else if (transform == "logistic") info.transform = perfshap::TreeTransform::kLogistic;
    else if (transform == "softmax") info.transform = perfshap::TreeTransform::kSoftmax;
    else if (transform == "exp") info.transform = perfshap::TreeTransform::kExp;
    else throw perfshap::InvalidArgument("unknown tree transform '" + transform + "'");
    info.rule = perfshap::SplitRule::kLessEqual;
    info.classifier = classifier;
    info.feature_names = feature_names;
    info.description = description;
    info.class_names = class_names;
    return PyTreeModel(std::make_shared<const perfshap::TreeEnsemble>(std::move(out), std::move(info)), source);
  }
  const std::string& json() const { return json_; }
  const std::string& source() const { return source_; }
  /** The boosting rounds used, [begin, end) as XGBoost's iteration_range. */
  py::tuple iteration_range() const {
    const auto& r = model_->info().rounds;
    return py::make_tuple(r.begin, r.end);
  }
  /** The model's best_iteration (early stopping), or None. */
  py::object best_iteration() const {
    const auto b = model_->info().rounds.best_iteration;
    return b >= 0 ? py::object(py::int_(b)) : py::object(py::none());
  }
  /** The rows to explain read as feature columns (in place when they can be) and the background. */
  struct Inputs {
    py::array x;  // keeps a converted copy alive
    perfshap::FeatureColumns columns;
    std::vector<double> bg;
    std::size_t nb = 0;
  };

  Inputs ReadInputs(const py::array& x_in, const py::object& background) const {
    Inputs in;
    in.x = x_in;
    const auto in_place = [](const py::array& a) {
      return a.ndim() == 2 && a.dtype().is(py::dtype::of<double>()) && a.strides(0) > 0 && a.strides(1) > 0 &&
             a.strides(0) % static_cast<py::ssize_t>(sizeof(double)) == 0 &&
             a.strides(1) % static_cast<py::ssize_t>(sizeof(double)) == 0 &&
             (a.strides(0) == static_cast<py::ssize_t>(sizeof(double)) ||
              a.strides(1) == static_cast<py::ssize_t>(sizeof(double)));
    };
    if (!in_place(in.x)) in.x = Array::ensure(x_in);  // converted once (C order, float64)
    if (!in.x || in.x.ndim() != 2) throw perfshap::InvalidArgument("X must be a 2-dimensional array (rows x features)");
    const auto n = static_cast<std::size_t>(in.x.shape(0));
    const auto f = static_cast<std::size_t>(in.x.shape(1));
    PERFSHAP_CHECK(f == model_->n_features(), "X has " + std::to_string(f) + " columns and the model " +
                                                  std::to_string(model_->n_features()) + " features");
    in.columns.n_rows = n;
    const auto* base = static_cast<const double*>(in.x.data());
    const auto row_step = static_cast<std::size_t>(in.x.strides(0)) / sizeof(double);
    const auto column_step = static_cast<std::size_t>(in.x.strides(1)) / sizeof(double);
    in.columns.step = row_step;
    for (std::size_t j = 0; j < f; ++j) in.columns.columns.push_back(base + j * column_step);
    if (!background.is_none()) {
      std::size_t fb = 0;
      in.bg = ColumnMajor(background.cast<Array>(), in.nb, fb);
      PERFSHAP_CHECK(fb == f, "the background has " + std::to_string(fb) + " columns and the model " +
                                  std::to_string(f) + " features");
    }
    return in;
  }

  /** The engine's values as a numpy array of `shape`, without a copy. */
  static py::array_t<double> Owned(std::unique_ptr<std::vector<double>> out, std::vector<py::ssize_t> shape) {
    double* data = out->data();
    py::capsule owner(out.get(), [](void* p) { delete static_cast<std::vector<double>*>(p); });
    out.release();
    return py::array_t<double>(shape, data, owner);
  }

  std::size_t n_features() const { return model_->n_features(); }
  const std::shared_ptr<const perfshap::TreeEnsemble>& model() const { return model_; }
  std::size_t n_outputs() const { return model_->n_outputs(); }
  std::vector<std::string> feature_names() const { return model_->info().feature_names; }
  std::string describe() const { return model_->Describe(); }

  /** TreeSHAP: rows x outputs x (features + 1), the bias last. A float64 matrix is read in place
   *  (C or Fortran order: its columns with their step), any other converted once; the engine's
   *  values become the array's without a copy. */
  py::array_t<double> treeshap(const py::array& x_in, int threads, const py::object& background) const {
    Inputs in = ReadInputs(x_in, background);
    perfshap::ExecutionOptions e;
    e.threads = threads;
    auto out = std::make_unique<std::vector<double>>();
    {
      const py::gil_scoped_release release;
      *out = in.nb > 0 ? perfshap::InterventionalTreeShap(*model_, in.columns, in.bg, in.nb, e)
                       : perfshap::TreeShap(*model_, in.columns, e);
    }
    return Owned(std::move(out), {static_cast<py::ssize_t>(in.columns.n_rows),
                                  static_cast<py::ssize_t>(model_->n_outputs()),
                                  static_cast<py::ssize_t>(model_->n_features() + 1)});
  }

  /** SHAP interaction values: rows x outputs x matrix rows x (features + 1), the matrix rows
   *  those of `features` (model indices) or, for none, every feature and the bias. */
  py::array_t<double> treeshap_interactions(const py::array& x_in, int threads, const py::object& background,
                                            const std::vector<std::size_t>& features) const {
    Inputs in = ReadInputs(x_in, background);
    perfshap::ExecutionOptions e;
    e.threads = threads;
    perfshap::TreeInteractionOptions options;
    options.features = features;
    auto out = std::make_unique<std::vector<double>>();
    std::size_t rows_kept = 0;
    {
      const py::gil_scoped_release release;
      const perfshap::RowMatrix bg{in.bg, in.nb};
      perfshap::TreeShapInteractionValues v = perfshap::ExplainTreeInteractions(*model_, in.columns, bg, options, e);
      rows_kept = v.matrix_rows.size();
      *out = std::move(v.values);
    }
    return Owned(std::move(out), {static_cast<py::ssize_t>(in.columns.n_rows),
                                  static_cast<py::ssize_t>(model_->n_outputs()), static_cast<py::ssize_t>(rows_kept),
                                  static_cast<py::ssize_t>(model_->n_features() + 1)});
  }

  /** Predictions on the model's output scale (probabilities of a classifier), rows x outputs. */
  py::array_t<double> predict(const Array& x) const { return Outputs(x, true); }

  /** Margins, rows x outputs. */
  py::array_t<double> margin(const Array& x) const { return Outputs(x, false); }

 private:
  py::array_t<double> Outputs(const Array& x, bool transformed) const {
    std::size_t n = 0;
    std::size_t f = 0;
    const std::vector<double> cm = ColumnMajor(x, n, f);
    PERFSHAP_CHECK(f == model_->n_features(), "X has " + std::to_string(f) + " columns and the model " +
                                                  std::to_string(model_->n_features()) + " features");
    const std::size_t K = model_->n_outputs();
    std::vector<double> m(K * n);
    if (transformed) model_->Predict(cm, n, m);
    else model_->PredictMargin(cm, n, m);
    py::array_t<double> result({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(K)});
    auto r = result.mutable_unchecked<2>();
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t o = 0; o < K; ++o) r(static_cast<py::ssize_t>(i), static_cast<py::ssize_t>(o)) = m[o * n + i];
    return result;
  }

  /** iteration_range=None (the model's best_iteration, else all rounds) or (begin, end). */
  static perfshap::XgboostReadOptions ReadOptions(const py::object& range) {
    perfshap::XgboostReadOptions options;
    if (range.is_none()) return options;
    const auto bad = [] {
      return perfshap::InvalidArgument(
          "iteration_range must be (begin, end): the boosting rounds [begin, end) to use, integers >= 0 (end 0 = to "
          "the last round)");
    };
    if (!py::isinstance<py::sequence>(range) || py::isinstance<py::str>(range) || py::len(range) != 2) throw bad();
    const py::sequence pair = range.cast<py::sequence>();
    perfshap::IterationRange r;
    const py::object index = py::module_::import("operator").attr("index");
    for (std::size_t k = 0; k < 2; ++k) {
      const py::object v = pair[k];
      if (py::isinstance<py::bool_>(v)) throw bad();
      long long n = 0;
      try {
        n = index(v).cast<long long>();  // ints and numpy integers; a float or an int beyond 64 bits fails
      } catch (const py::error_already_set&) {
        throw bad();
      } catch (const py::cast_error&) {
        throw bad();
      }
      if (n < 0) throw bad();
      (k == 0 ? r.begin : r.end) = n;
    }
    options.iteration_range = r;
    return options;
  }

  std::string json_;
  std::string source_;
  std::shared_ptr<const perfshap::TreeEnsemble> model_;
};

/** The engine's column type of a numpy dtype, or none (the package converts such columns). */
std::optional<perfshap::ColumnType> NumericType(const py::dtype& dt) {
  using perfshap::ColumnType;
  const char kind = dt.kind();
  const auto size = dt.itemsize();
  if (kind == 'f' && size == 8) return ColumnType::kFloat64;
  if (kind == 'f' && size == 4) return ColumnType::kFloat32;
  if (kind == 'b' && size == 1) return ColumnType::kBool;
  if (kind == 'i') {
    if (size == 8) return ColumnType::kInt64;
    if (size == 4) return ColumnType::kInt32;
    if (size == 2) return ColumnType::kInt16;
    if (size == 1) return ColumnType::kInt8;
  }
  if (kind == 'u') {
    if (size == 8) return ColumnType::kUInt64;
    if (size == 4) return ColumnType::kUInt32;
    if (size == 2) return ColumnType::kUInt16;
    if (size == 1) return ColumnType::kUInt8;
  }
  return std::nullopt;
}

/**
 * A table from (source, [(name, column), ...]): a column is a 1-D numpy array of a numeric dtype,
 * read in place (its buffer is kept alive in `keep`), or a list of str / None (text, None missing).
 */
perfshap::Table MakeTable(const py::tuple& spec, std::vector<py::array>& keep) {
  perfshap::Table table;
  table.source = spec[0].cast<std::string>();
  const auto columns = spec[1].cast<py::list>();
  bool first = true;
  for (const py::handle item : columns) {
    const auto pair = item.cast<py::tuple>();
    perfshap::TableColumn column;
    try {
      column.name = pair[0].cast<std::string>();
    } catch (const std::exception&) {
      throw perfshap::DataError(table.source + ": column " + std::to_string(table.columns.size()) +
                                    "'s name is not valid Unicode (a lone surrogate); rename the column",
                                {"data"});
    }
    std::size_t n = 0;
    if (py::isinstance<py::array>(pair[1])) {
      const auto a = pair[1].cast<py::array>();
      PERFSHAP_CHECK(a.ndim() == 1, table.source + ": column '" + column.name + "' is not one-dimensional");
      const auto type = NumericType(a.dtype());
      PERFSHAP_CHECK(type.has_value(), table.source + ": column '" + column.name + "' has dtype " +
                                           py::str(a.dtype()).cast<std::string>() +
                                           ", which the engine does not read; use float64, float32, an integer "
                                           "or bool dtype, or text");
      column.type = *type;
      column.data = a.data();
      column.stride = a.strides(0);
      n = static_cast<std::size_t>(a.shape(0));
      keep.push_back(a);
    } else {
      column.type = perfshap::ColumnType::kText;
      const auto cells = pair[1].cast<py::list>();
      n = cells.size();
      column.text.reserve(n);
      for (const py::handle cell : cells) {
        if (cell.is_none()) {
          if (column.text_missing.empty()) column.text_missing.assign(n, 0);
          column.text_missing[column.text.size()] = 1;
          column.text.emplace_back();
        } else {
          try {
            column.text.push_back(py::str(cell).cast<std::string>());
          } catch (const py::error_already_set&) {  // not UTF-8: a lone surrogate ('\udce9')
            throw perfshap::DataError(table.source + ": row " + std::to_string(column.text.size()) + ", column '" +
                                          column.name +
                                          "' holds text that is not valid Unicode (a lone surrogate, as from "
                                          "bytes decoded with errors='surrogateescape'); decode the text with its "
                                          "own encoding, or replace the bad characters",
                                      {"data"});
          } catch (const py::cast_error&) {
            throw perfshap::DataError(table.source + ": row " + std::to_string(column.text.size()) + ", column '" +
                                          column.name + "' holds text that is not valid Unicode (a lone "
                                          "surrogate); decode the text with its own encoding, or replace the bad "
                                          "characters",
                                      {"data"});
          }
        }
      }
    }
    PERFSHAP_CHECK(first || n == table.n_rows, table.source + ": column '" + column.name + "' has " +
                                                   std::to_string(n) + " rows and the first column " +
                                                   std::to_string(table.n_rows) + "; give columns of one length");
    table.n_rows = n;
    first = false;
    table.columns.push_back(std::move(column));
  }
  return table;
}

/** The latest progress report of a run, handed from the engine's threads to the caller's. */
struct ProgressBox {
  std::mutex mutex;
  std::optional<perfshap::Progress> latest;
};

/** What a computation on the worker thread gets from the caller's: its progress sink and the
 *  cancellation flag. */
struct WorkerHooks {
  perfshap::ProgressCallback progress;
  const std::atomic<bool>* cancel = nullptr;
};

/**
 * Runs `body` on a worker thread; this thread waits with the GIL released and, every `poll`
 * seconds, takes it to call `progress(done, total, elapsed, eta)` with the latest report and to
 * check for Ctrl-C: a pending KeyboardInterrupt raises the cancellation flag, waits for the
 * engine to stop, and is raised here. An exception of `body` is raised here (the user's own
 * Python exception as itself).
 */
void RunOnWorker(const std::function<void(const WorkerHooks&)>& body, const py::object& progress, double poll) {
  std::atomic<bool> cancel{false};
  WorkerHooks hooks;
  hooks.cancel = &cancel;
  auto box = std::make_shared<ProgressBox>();
  if (!progress.is_none())
    hooks.progress = [box](const perfshap::Progress& p) {
      const std::lock_guard<std::mutex> lock(box->mutex);
      box->latest = p;
    };

  std::mutex mutex;
  std::condition_variable done_cv;
  bool done = false;
  std::exception_ptr failure;
  std::thread worker([&] {
    try {
      body(hooks);
    } catch (...) {
      failure = std::current_exception();
    }
    const std::lock_guard<std::mutex> lock(mutex);
    done = true;
    done_cv.notify_all();
  });
  const auto wait = std::chrono::duration<double>(poll > 0 ? poll : 0.1);
  bool interrupted = false;
  for (;;) {
    bool finished = false;
    {
      const py::gil_scoped_release release;
      std::unique_lock<std::mutex> lock(mutex);
      finished = done_cv.wait_for(lock, wait, [&] { return done; });
    }
    if (finished) break;
    if (PyErr_CheckSignals() != 0) {  // Ctrl-C (or another signal handler raised): stop the engine
      cancel = true;
      interrupted = true;
      const py::gil_scoped_release release;
      std::unique_lock<std::mutex> lock(mutex);
      done_cv.wait(lock, [&] { return done; });
      break;
    }
    std::optional<perfshap::Progress> p;
    {
      const std::lock_guard<std::mutex> lock(box->mutex);
      p.swap(box->latest);
    }
    if (p) {
      try {
        progress(p->done, p->total, p->elapsed_seconds, p->eta_seconds);
      } catch (py::error_already_set&) {  // the callback raised: stop the run and raise it here
        cancel = true;
        {
          const py::gil_scoped_release release;
          std::unique_lock<std::mutex> lock(mutex);
          done_cv.wait(lock, [&] { return done; });
        }
        worker.join();
        throw;
      }
    }
  }
  worker.join();
  if (interrupted) throw py::error_already_set();
  if (failure) {
    try {
      std::rethrow_exception(failure);
    } catch (const PythonRaised& raised) {  // the user's function raised: raise it here
      throw py::error_already_set(*raised.error);
    }
  }
  if (!progress.is_none() && box->latest)
    progress(box->latest->done, box->latest->total, box->latest->elapsed_seconds, 0.0);
}


/**
 * A method's run as Python holds it (the request layer's response, owned by its reporter): its
 * arrays as numpy (named as result.json names them), the console text, and its files, written
 * when first read (or at once into the output directory the call named).
 */
class PyRun {
 public:
  PyRun(std::string console, py::dict arrays, perfshap::detail::Reporter reporter,
        const perfshap::detail::ReportTarget& target)
      : console_(std::move(console)), arrays_(std::move(arrays)), reporter_(std::move(reporter)), target_(target) {
    if (!target_.dir.empty() || target_.html) Write();
  }

  const std::string& console() const noexcept { return console_; }
  py::dict Arrays() const { return arrays_; }

  /** [(name, content)]: the run's files, written once. */
  py::list Files() {
    if (!files_) Write();
    py::list files;
    for (const auto& f : *files_) files.append(py::make_tuple(f.name, f.content));
    return files;
  }

 private:
  void Write() {
    const py::gil_scoped_release release;
    files_ = perfshap::detail::RunReporter(reporter_, target_);
  }

  std::string console_;
  py::dict arrays_;
  perfshap::detail::Reporter reporter_;
  perfshap::detail::ReportTarget target_;
  std::optional<std::vector<perfshap::detail::ReportFile>> files_;
};

/** A method run's arrays as numpy (a number for an empty shape) and its names as lists. */
py::dict ArraysOf(const perfshap::api::MethodRun& run) {
  py::dict d;
  for (const auto& a : run.arrays) {
    const std::span<const double> values = a.values();
    if (a.shape.empty()) {
      d[a.name.c_str()] = a.whole ? py::object(py::int_(static_cast<std::int64_t>(values.front())))
                                  : py::object(py::float_(values.front()));
      continue;
    }
    std::vector<py::ssize_t> shape(a.shape.begin(), a.shape.end());
    if (a.whole) {
      py::array_t<std::int64_t> array(shape);
      std::transform(values.begin(), values.end(), array.mutable_data(),
                     [](double v) { return static_cast<std::int64_t>(v); });
      d[a.name.c_str()] = array;
    } else {
      py::array_t<double> array(shape);  // the caller's own copy (it may change it)
      std::copy(values.begin(), values.end(), array.mutable_data());
      d[a.name.c_str()] = array;
    }
  }
  for (const auto& n : run.names) d[n.name.c_str()] = n.values;
  return d;
}



/** A keyword's value as the request layer's options read it (None, bool, int, float, str, lists,
 *  dicts; a path-like as its text). */
nlohmann::json ToJson(const py::handle& v) {
  if (v.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>();
  if (py::isinstance<py::float_>(v)) return v.cast<double>();
  // numpy scalars and arrays (and pandas' Index) as Python numbers and lists.
  if (!py::isinstance<py::int_>(v) && !py::isinstance<py::str>(v) && !py::isinstance<py::dict>(v) &&
      py::hasattr(v, "tolist"))
    return ToJson(v.attr("tolist")());
  if (py::isinstance<py::int_>(v) || (!py::isinstance<py::str>(v) && py::hasattr(v, "__index__"))) {
    // Whole numbers of any integer type, to the full range of int64 and uint64 (a seed of 2^64 - 1).
    const py::int_ i = py::reinterpret_steal<py::int_>(PyNumber_Index(v.ptr()));
    if (!i) throw py::error_already_set();
    int overflow = 0;
    const long long value = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
    if (overflow == 0) return static_cast<std::int64_t>(value);
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(i.ptr());
      if (!PyErr_Occurred()) return static_cast<std::uint64_t>(u);
      PyErr_Clear();
    }
    // Beyond 64 bits: its digits, which the option's declaration refuses, naming it.
    return py::str(py::handle(i)).cast<std::string>();
  }
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  if (py::isinstance<py::dict>(v)) {
    nlohmann::json o = nlohmann::json::object();
    for (const auto& [key, value] : v.cast<py::dict>()) o[py::str(key).cast<std::string>()] = ToJson(value);
    return o;
  }
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    nlohmann::json a = nlohmann::json::array();
    for (const py::handle item : v) a.push_back(ToJson(item));
    return a;
  }
  return py::str(v).cast<std::string>();
}


/** One list of row indices (any integer array or list) as the engine's. */
std::vector<std::size_t> RowIndices(const py::handle& rows) {
  const auto a = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(rows);
  PERFSHAP_CHECK(a && a.ndim() == 1, "split: a part is not a 1-D list of row indices");
  std::vector<std::size_t> out(static_cast<std::size_t>(a.shape(0)));
  const std::int64_t* v = a.data();
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (v[i] < 0) throw perfshap::DataError("split: row " + std::to_string(v[i]) + " is negative", {"split"});
    out[i] = static_cast<std::size_t>(v[i]);
  }
  return out;
}


/** A training or background table (source, columns), or none. */
std::optional<perfshap::api::DataInput> TableOf(const py::object& table, std::vector<py::array>& keep) {
  if (table.is_none()) return std::nullopt;
  perfshap::api::DataInput in;
  const auto spec = table.cast<py::tuple>();
  if (py::isinstance<py::capsule>(spec[1])) {
    // An Arrow stream (the PyCapsule protocol's __arrow_c_stream__): imported, and released,
    // by the library; the capsule is marked consumed by the stream's own release.
    const auto capsule = spec[1].cast<py::capsule>();
    PERFSHAP_CHECK(std::string(capsule.name() != nullptr ? capsule.name() : "") == "arrow_array_stream",
                   "X: the capsule is not an Arrow stream ('arrow_array_stream')", {"data"});
    auto* stream = capsule.get_pointer<ArrowArrayStream>();
    in.table = perfshap::ImportArrowStream(stream, spec[0].cast<std::string>());
    return in;
  }
  if (py::isinstance<py::tuple>(spec[1])) {
    // One record batch (__arrow_c_array__): the schema's and the array's capsules; both moved in
    // (marked released, so the capsules' destructors leave them), released by the table.
    const auto pair = spec[1].cast<py::tuple>();
    PERFSHAP_CHECK(pair.size() == 2 && py::isinstance<py::capsule>(pair[0]) && py::isinstance<py::capsule>(pair[1]),
                   "X: __arrow_c_array__ gave no (schema, array) capsules", {"data"});
    const auto schema = pair[0].cast<py::capsule>();
    const auto array = pair[1].cast<py::capsule>();
    const auto name = [](const py::capsule& c) { return std::string(c.name() != nullptr ? c.name() : ""); };
    PERFSHAP_CHECK(name(schema) == "arrow_schema" && name(array) == "arrow_array",
                   "X: the capsules are not an Arrow schema and array ('arrow_schema', 'arrow_array')", {"data"});
    in.table = perfshap::ImportArrowTable(schema.get_pointer<ArrowSchema>(), array.get_pointer<ArrowArray>(),
                                          spec[0].cast<std::string>());
    return in;
  }
  in.table = std::make_shared<const perfshap::Table>(MakeTable(spec, keep));
  return in;
}





/** call() on the worker thread (RunOnWorker), with the caller's progress and Ctrl-C wired into
 *  `execution` (the request's): its response. */
template <class Call>
auto OnWorker(perfshap::ExecutionOptions& execution, const Call& call, const py::object& progress, double poll) {
  std::optional<decltype(call())> response;
  RunOnWorker(
      [&](const WorkerHooks& hooks) {
        execution.progress = hooks.progress;
        execution.cancel = hooks.cancel;
        // Over the processes of an MPI run: an error before the run's agreement reaches the others.
        perfshap::detail::BeginRunAgreement(execution.processes);
        try {
          response.emplace(call());
        } catch (...) {
          perfshap::detail::TellPeersOfFailure(std::current_exception());
          throw;
        }
      },
      progress, poll);
  return std::move(*response);
}

/**
 * perfshap.robustness through the request layer: `table` (source, columns) or None for the
 * built-in design; `o` the keywords, checked by the package against their declarations;
 * `learner` the host's estimator learner or None; `splits` None, or [(train, test), ...] with
 * `split_listed` (given as a list); `model_params` {key: text}.
 */


/** The model of perfshap.shap / perfshap.xper: the host's function, a tree model, or an XGBoost
 *  model's JSON text (named "model" in messages and the report). */
void GivenModelOf(const py::object& model, perfshap::api::GivenModelInput& m) {
  if (model.is_none()) return;
  m.name = "model";
  if (py::isinstance<PyCallableModel>(model)) {
    m.host_model = model.cast<std::shared_ptr<PyCallableModel>>();
  } else if (py::isinstance<PyTreeModel>(model)) {
    m.tree_model = model.cast<const PyTreeModel&>().model();
  } else {
    m.tree_file = "model";
    m.tree_text = model.cast<std::string>();
  }
}



/**
 * perfshap.xper through the request layer: `table` the sample (None: the built-in design),
 * `train` the training sample's table or None, `model` None (a learner name in options
 * "model", or coefficients "coef"), the host's function, a tree model or an XGBoost model's JSON
 * text; `iteration_range` (begin, end) or None; `clusters` None, 0 (auto) or k.
 */


/**
 * perfshap.shap through the request layer: `table` the rows to explain, `train` the training
 * sample's table or None, `background` the background rows' table or None; `model` the host's
 * function, a tree model, an XGBoost model's JSON text, or None (a learner: options "model" by
 * name, or `learner`, the host's estimator); `rows` (first, last) or None.
 */

/**
 * perfshap.axom through the request layer: `table` the data set (None with paper=True: the
 * paper's data sets), `heatmap_features` (a, b) or None.
 */

/**
 * perfshap.chains through the request layer: `table` the features and the output columns (None:
 * the xor data, or the Adult file of options "adult"), `outputs` their names, `order` the chain
 * order's names or None, `learner` the host's estimator or None (options "model" by name).
 */
/**
 * perfshap.<method> of a registered method (api/registry.hpp): `data`, `train`, `background` the
 * tables (source, columns) or None; `model` a fitted model (GivenModelOf) and `learner` the host's
 * estimator learner, or None; `splits` [(train, test), ...] (given as a list: `split_listed`) or None; `o` the keywords, handed to the registry as the C API hands
 * its JSON (one parse and one message for every front end).
 */
std::shared_ptr<PyRun> RunMethod(const std::string& method, const py::object& data, const py::object& train,
                                 const py::object& background, const py::object& model, const py::object& learner,
                                 const py::object& splits, bool split_listed, const py::dict& o,
                                 const py::object& progress, double poll) {
  namespace api = perfshap::api;
  std::vector<py::array> keep;
  api::MethodInputs in;
  if (!model.is_none()) GivenModelOf(model, in.model.emplace());
  if (!learner.is_none()) in.learner = learner.cast<std::shared_ptr<PyEstimatorLearner>>();
  if (!splits.is_none()) {
    api::MethodInputs::Splits& given = in.splits.emplace();
    for (const py::handle pair : splits) {
      const auto parts = pair.cast<py::tuple>();
      given.plan.push_back({RowIndices(parts[0]), RowIndices(parts[1])});
    }
    given.listed = split_listed;
  }
  if (auto t = TableOf(data, keep)) in.data = t->table;
  if (auto t = TableOf(train, keep)) in.train = t->table;
  if (auto t = TableOf(background, keep)) in.background = t->table;
  nlohmann::json options = ToJson(o);
  const std::shared_ptr<const perfshap::Processes> processes = api::TakeMpiComm(options);
  const api::GivenOptions given = api::OptionTextOfJson(options);
  std::optional<api::MethodCall> call;
  RunOnWorker(
      [&](const WorkerHooks& hooks) {
        in.wire = [hooks, processes](perfshap::ExecutionOptions& e, const std::string&) {
          e.progress = hooks.progress;
          e.cancel = hooks.cancel;
          if (processes != nullptr) e.processes = processes;
        };
        // Over the processes of an MPI run: an error before the run's agreement reaches the others.
        perfshap::detail::BeginRunAgreement(processes);
        try {
          call.emplace(api::CallMethod(method, std::move(in), given));
        } catch (...) {
          perfshap::detail::TellPeersOfFailure(std::current_exception());
          throw;
        }
      },
      progress, poll);
  return std::make_shared<PyRun>(call->run.console, ArraysOf(call->run), call->run.reporter, call->target);
}

/** The registered methods' declarations: {method: (description, [{"name", "aliases", "type",
 *  "default", "range", "help", "switch", "value", "choices", "min", "max", ...}])}, for the
 *  package's keyword checks and help. */
py::dict MethodOptions() {
  namespace api = perfshap::api;
  py::dict out;
  for (const api::MethodEntry& m : api::Methods()) {
    py::list options;
    std::vector<api::MethodOption> all = m.options;
    for (const api::MethodOption& o : api::OutputOptionGroup().options()) all.push_back(o);
    for (const api::MethodOption& o : all) {
      py::dict d;
      d["name"] = o.info.name;
      d["aliases"] = o.aliases;
      d["default"] = o.info.default_text;
      d["range"] = o.info.RangeText();
      d["help"] = o.info.help;
      d["switch"] = o.is_switch;
      d["value"] = o.value_name;
      static const char* const kTypes[] = {"bool", "integer", "number", "text", "list"};
      d["type"] = kTypes[static_cast<int>(o.info.type)];
      d["choices"] = o.info.choices;
      d["min"] = o.info.min;
      d["max"] = o.info.max;
      d["min_exclusive"] = o.info.min_exclusive;
      d["max_exclusive"] = o.info.max_exclusive;
      d["unsigned"] = o.info.is_unsigned;
      options.append(d);
    }
    out[m.name.c_str()] = py::make_tuple(m.description, options);
  }
  return out;
}

std::vector<std::string> LearnerNames() {
  std::vector<std::string> names;
  for (const auto& entry : perfshap::RegisteredLearners()) names.push_back(entry.name);
  return names;
}

std::string HtmlReport(const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<perfshap::detail::ReportFile> report;
  for (const auto& [name, content] : files) report.push_back({name, content});
  return perfshap::detail::HtmlReport(report);
}

}  // namespace

PYBIND11_MODULE(_perfshap, m) {
  m.doc() = "perfshap's engine (use the perfshap package, not this module)";
  // The engine's errors keep their kind: DataError (the data cannot be used as they are) and
  // InvalidArgument (an option or argument outside its domain), both ValueError, with the names
  // of the options the message is about in `options`.
  static py::exception<perfshap::DataError> data_error(m, "DataError", PyExc_ValueError);
  static py::exception<perfshap::InvalidArgument> invalid_argument(m, "InvalidArgument", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    const auto raise = [](const py::object& type, const perfshap::Error& e) {
      py::object exc = type(perfshap::detail::ShortenLongWords(e.what()));
      exc.attr("options") = py::cast(e.options());
      PyErr_SetObject(type.ptr(), exc.ptr());
    };
    try {
      if (p) std::rethrow_exception(p);
    } catch (const perfshap::DataError& e) {
      raise(data_error, e);
    } catch (const perfshap::InvalidArgument& e) {
      raise(invalid_argument, e);
    } catch (const perfshap::Error& e) {
      PyErr_SetString(PyExc_ValueError, perfshap::detail::ShortenLongWords(e.what()).c_str());
    }
  });
  py::class_<PyTreeModel>(m, "TreeModel")
      .def(py::init<const std::string&, const std::string&, const py::object&>(), py::arg("json"), py::arg("source"),
           py::arg("iteration_range") = py::none())
      .def_property_readonly("source", &PyTreeModel::source)
      .def_property_readonly("iteration_range", &PyTreeModel::iteration_range)
      .def_property_readonly("best_iteration", &PyTreeModel::best_iteration)
      .def_property_readonly("n_features", &PyTreeModel::n_features)
      .def_property_readonly("n_outputs", &PyTreeModel::n_outputs)
      .def_property_readonly("feature_names", &PyTreeModel::feature_names)
      .def_property_readonly("json", &PyTreeModel::json)
      .def_static("from_trees", &PyTreeModel::FromTrees, py::arg("trees"), py::arg("n_features"), py::arg("n_outputs"),
                  py::arg("base_margin"), py::arg("tree_scale"), py::arg("transform"), py::arg("classifier"),
                  py::arg("feature_names"), py::arg("description"), py::arg("source"),
                  py::arg("class_names") = std::vector<std::string>{},
                  "A tree model from its trees' node arrays (scikit-learn models: perfshap/_sklearn.py)")
      .def("predict", &PyTreeModel::predict, py::arg("X"))
      .def("describe", &PyTreeModel::describe)
      .def("treeshap", &PyTreeModel::treeshap, py::arg("X"), py::arg("threads") = 0, py::arg("background") = py::none())
      .def("treeshap_interactions", &PyTreeModel::treeshap_interactions, py::arg("X"), py::arg("threads") = 0,
           py::arg("background") = py::none(), py::arg("features") = std::vector<std::size_t>())
      .def("margin", &PyTreeModel::margin, py::arg("X"));
  py::class_<PyCallableModel, std::shared_ptr<PyCallableModel>>(m, "CallableModel")
      .def(py::init<py::object, std::size_t, std::size_t, bool, std::string>(), py::arg("f"), py::arg("n_features"),
           py::arg("n_outputs"), py::arg("classifier"), py::arg("description"),
           "The user's own model f(X) -> rows x outputs, for shap and xper (perfshap/__init__.py makes it)");
  py::class_<PyEstimatorLearner, std::shared_ptr<PyEstimatorLearner>>(m, "EstimatorLearner")
      .def(py::init<py::object, std::string, bool>(), py::arg("estimator"), py::arg("name"), py::arg("classifier"),
           "A scikit-learn estimator as the learner retrained on every coalition (cloned per fit)");
  py::class_<PyRun, std::shared_ptr<PyRun>>(m, "MethodRun")
      .def_property_readonly("console", &PyRun::console)
      .def("arrays", &PyRun::Arrays, "The result's arrays (numpy), named as result.json names them")
      .def("files", &PyRun::Files, "Writes the run's files (once) and returns [(name, content)]");
  m.def("run", &RunMethod, py::arg("method"), py::arg("data"), py::arg("train"), py::arg("background"),
        py::arg("model"), py::arg("learner"), py::arg("splits"), py::arg("split_listed"), py::arg("options"), py::arg("progress") = py::none(), py::arg("poll") = 0.1,
        "A registered method's run (api::CallMethod): the options as every front end hands them");
  m.def("method_options", &MethodOptions, "The registered methods: {name: (description, [option declarations])}");
  m.def("learner_names", &LearnerNames, "The registered learners (RegisteredLearners), built-in first");
  m.def("html_report", &HtmlReport, py::arg("files"), "report.html for a run's [(name, content)] files");
}
