// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// TreeModel: a fitted tree model (an XGBoost JSON text, or a scikit-learn model's trees) and
// TreeSHAP's direct path over it (perfshap.load_model, perfshap.treeshap).

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/trees.hpp"
#include "perfshap/treeshap.hpp"

namespace perfshap_python {

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
      const perfshap::ColumnMatrix bg{in.bg, in.nb};
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

}  // namespace perfshap_python
