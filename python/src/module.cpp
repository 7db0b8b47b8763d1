// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// perfshap._perfshap: the engine's entry points for the Python package (python/perfshap/). Arrays
// come in as numpy float64 (any layout: copied once into the engine's column-major layout),
// computations run with the GIL released, and perfshap::Error becomes ValueError with the
// engine's one-line message.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/treeshap.hpp"
#include "perfshap/trees.hpp"

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

/** A fitted tree model read from an XGBoost JSON text. */
class PyTreeModel {
 public:
  PyTreeModel(const std::string& json, const std::string& source) : model_(perfshap::ParseXgboostModel(json, source)) {}
  std::size_t n_features() const { return model_->n_features(); }
  std::size_t n_outputs() const { return model_->n_outputs(); }
  std::vector<std::string> feature_names() const { return model_->info().feature_names; }
  std::string describe() const { return model_->Describe(); }

  /** TreeSHAP: rows x outputs x (features + 1), the bias last. */
  py::array_t<double> treeshap(const Array& x, int threads, const py::object& background) const {
    std::size_t n = 0;
    std::size_t f = 0;
    const std::vector<double> cm = ColumnMajor(x, n, f);
    PERFSHAP_CHECK(f == model_->n_features(), "X has " + std::to_string(f) + " columns and the model " +
                                                  std::to_string(model_->n_features()) + " features");
    std::vector<double> bg;
    std::size_t nb = 0;
    if (!background.is_none()) {
      std::size_t fb = 0;
      bg = ColumnMajor(background.cast<Array>(), nb, fb);
      PERFSHAP_CHECK(fb == f, "the background has " + std::to_string(fb) + " columns and the model " +
                                  std::to_string(f) + " features");
    }
    perfshap::ExecutionOptions e;
    e.threads = threads;
    std::vector<double> out;
    {
      const py::gil_scoped_release release;
      out = nb > 0 ? perfshap::InterventionalTreeShap(*model_, cm, n, bg, nb, e) : perfshap::TreeShap(*model_, cm, n, e);
    }
    const auto K = static_cast<py::ssize_t>(model_->n_outputs());
    py::array_t<double> result({static_cast<py::ssize_t>(n), K, static_cast<py::ssize_t>(f + 1)});
    std::copy(out.begin(), out.end(), result.mutable_data());
    return result;
  }

  /** Margins, rows x outputs. */
  py::array_t<double> margin(const Array& x) const {
    std::size_t n = 0;
    std::size_t f = 0;
    const std::vector<double> cm = ColumnMajor(x, n, f);
    PERFSHAP_CHECK(f == model_->n_features(), "X has " + std::to_string(f) + " columns and the model " +
                                                  std::to_string(model_->n_features()) + " features");
    const std::size_t K = model_->n_outputs();
    std::vector<double> m(K * n);
    model_->PredictMargin(cm, n, m);
    py::array_t<double> result({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(K)});
    auto r = result.mutable_unchecked<2>();
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t o = 0; o < K; ++o) r(static_cast<py::ssize_t>(i), static_cast<py::ssize_t>(o)) = m[o * n + i];
    return result;
  }

 private:
  std::shared_ptr<const perfshap::TreeEnsemble> model_;
};

}  // namespace

PYBIND11_MODULE(_perfshap, m) {
  m.doc() = "perfshap's engine (use the perfshap package, not this module)";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const perfshap::Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  py::class_<PyTreeModel>(m, "TreeModel")
      .def(py::init<const std::string&, const std::string&>(), py::arg("json"), py::arg("source"))
      .def_property_readonly("n_features", &PyTreeModel::n_features)
      .def_property_readonly("n_outputs", &PyTreeModel::n_outputs)
      .def_property_readonly("feature_names", &PyTreeModel::feature_names)
      .def("describe", &PyTreeModel::describe)
      .def("treeshap", &PyTreeModel::treeshap, py::arg("X"), py::arg("threads") = 0, py::arg("background") = py::none())
      .def("margin", &PyTreeModel::margin, py::arg("X"));
}
