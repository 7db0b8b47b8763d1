// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// What Python hands the engine: tables (their numeric columns read in place), keywords as the
// request layer's JSON options, row indices.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "perfshap/arrow.hpp"
#include "perfshap/error.hpp"
#include "perfshap/table.hpp"

namespace perfshap_python {
namespace {

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

}  // namespace

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





}  // namespace perfshap_python
