// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "tree_model.hpp"

namespace perfshap_python {

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

void BindTreeModel(py::module_& m) {
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
}

}  // namespace perfshap_python
