// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The pieces of the extension perfshap._perfshap (python/src/) that module.cpp binds: the tree
// model (TreeSHAP's direct path) and a method's run as Python holds it.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "api/data_input.hpp"
#include "api/method_run.hpp"
#include "report/run_reporter.hpp"

namespace perfshap_python {

namespace py = pybind11;

using Array = py::array_t<double, py::array::forcecast>;

/** x (rows x features, any strides) in the engine's column-major layout. */
std::vector<double> ColumnMajor(const Array& x, std::size_t& n_rows, std::size_t& n_cols);

/** A keyword's value as the request layer's options read it (None, bool, int, float, str, lists,
 *  dicts; a path-like as its text) (inputs.cpp). */
nlohmann::json ToJson(const py::handle& v);

/** One list of row indices (any integer array or list) as the engine's (inputs.cpp). */
std::vector<std::size_t> RowIndices(const py::handle& rows);

/** A table Python hands over (source, columns) as the engine's, or none for None; `keep` holds
 *  the arrays whose columns the table reads in place (inputs.cpp). */
std::optional<perfshap::api::DataInput> TableOf(const py::object& table, std::vector<py::array>& keep);

/** Binds TreeModel (tree_model.cpp). */
void BindTreeModel(py::module_& m);

/** Binds MethodRun (method_run.cpp). */
void BindMethodRun(py::module_& m);

/** A method's run as Python holds it: its arrays, console text, result.json's document and files
 *  (written at once into target's directory, else when first read). */
py::object MakeMethodRun(const perfshap::api::MethodRun& run, const perfshap::detail::ReportTarget& target);

}  // namespace perfshap_python
