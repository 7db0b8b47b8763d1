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
#include "report/robustness_report.hpp"
#include "report/shap_report.hpp"
#include "report/run_reporter.hpp"

#include "perfshap/error.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/options.hpp"
#include "perfshap/treeshap.hpp"
#include "perfshap/blocks/trees.hpp"
#include "bindings.hpp"
#include "tree_model.hpp"

namespace py = pybind11;

namespace {

using perfshap_python::Array;
using perfshap_python::ColumnMajor;
using perfshap_python::PyTreeModel;
using perfshap_python::RowIndices;
using perfshap_python::TableOf;
using perfshap_python::ToJson;

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
 * (thousands of rows a call: the sampled solvers hand over whole batches of coalitions), each
 * call holding the GIL only while f runs, one thread at a time (the others wait on a mutex, not
 * in a scramble for the GIL, and build their next batch meanwhile); the batches are fixed by the
 * game's blocks, so the result is bitwise the same at any thread count. A call that
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
    const std::lock_guard<std::mutex> one_at_a_time(calling_);
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
  mutable std::mutex calling_;
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
 * perfshap.<method> of a registered method (api/registry.hpp): `data`, `train`, `background` the
 * tables (source, columns) or None; `model` a fitted model (GivenModelOf) and `learner` the host's
 * estimator learner, or None; `splits` [(train, test), ...] (given as a list: `split_listed`) or None; `o` the keywords, handed to the registry as the C API hands
 * its JSON (one parse and one message for every front end).
 */
py::object RunMethod(const std::string& method, const py::object& data, const py::object& train,
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
  return perfshap_python::MakeMethodRun(call->run, call->target);
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
  perfshap_python::BindTreeModel(m);
  py::class_<PyCallableModel, std::shared_ptr<PyCallableModel>>(m, "CallableModel")
      .def(py::init<py::object, std::size_t, std::size_t, bool, std::string>(), py::arg("f"), py::arg("n_features"),
           py::arg("n_outputs"), py::arg("classifier"), py::arg("description"),
           "The user's own model f(X) -> rows x outputs, for shap and xper (perfshap/__init__.py makes it)");
  py::class_<PyEstimatorLearner, std::shared_ptr<PyEstimatorLearner>>(m, "EstimatorLearner")
      .def(py::init<py::object, std::string, bool>(), py::arg("estimator"), py::arg("name"), py::arg("classifier"),
           "A scikit-learn estimator as the learner retrained on every coalition (cloned per fit)");
  perfshap_python::BindMethodRun(m);
  m.def("run", &RunMethod, py::arg("method"), py::arg("data"), py::arg("train"), py::arg("background"),
        py::arg("model"), py::arg("learner"), py::arg("splits"), py::arg("split_listed"), py::arg("options"), py::arg("progress") = py::none(), py::arg("poll") = 0.1,
        "A registered method's run (api::CallMethod): the options as every front end hands them");
  m.def("method_options", &MethodOptions, "The registered methods: {name: (description, [option declarations])}");
  m.def("learner_names", &LearnerNames, "The registered learners (RegisteredLearners), built-in first");
  m.def("html_report", &HtmlReport, py::arg("files"), "report.html for a run's [(name, content)] files");
}
