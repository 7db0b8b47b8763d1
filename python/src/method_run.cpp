// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// A method's run as Python holds it: the record's arrays as numpy, the console text, result.json's
// document as Python objects (never its text parsed) and the files, written once.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "report/json.hpp"

namespace perfshap_python {
namespace {

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

  /** result.json's document as Python objects (dicts in the file's order, lists, numbers,
   *  text; None for NaN, as the file's null), from the reporter's own document. */
  py::object Document() {
    if (!files_) Write();
    return ToPython(document_);
  }

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
    files_ = perfshap::detail::RunReporter(reporter_, target_, &document_);
  }

  static py::object ToPython(const perfshap::detail::Json& j) {
    using Json = perfshap::detail::Json;
    switch (j.type()) {
      case Json::value_t::object: {
        py::dict d;
        for (auto it = j.begin(); it != j.end(); ++it) d[py::str(it.key())] = ToPython(it.value());
        return d;
      }
      case Json::value_t::array: {
        py::list l;
        for (const Json& v : j) l.append(ToPython(v));
        return l;
      }
      case Json::value_t::string: return py::str(j.get_ref<const std::string&>());
      case Json::value_t::boolean: return py::bool_(j.get<bool>());
      case Json::value_t::number_integer: return py::int_(j.get<std::int64_t>());
      case Json::value_t::number_unsigned: return py::int_(j.get<std::uint64_t>());
      case Json::value_t::number_float: {  // null in the file for NaN and infinities, as here
        const double v = j.get<double>();
        return std::isfinite(v) ? py::object(py::float_(v)) : py::object(py::none());
      }
      default: return py::none();
    }
  }

  std::string console_;
  py::dict arrays_;
  perfshap::detail::Reporter reporter_;
  perfshap::detail::ReportTarget target_;
  std::optional<std::vector<perfshap::detail::ReportFile>> files_;
  perfshap::detail::Json document_;
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

}  // namespace

py::object MakeMethodRun(const perfshap::api::MethodRun& run, const perfshap::detail::ReportTarget& target) {
  return py::cast(std::make_shared<PyRun>(run.console, ArraysOf(run), run.reporter, target));
}

void BindMethodRun(py::module_& m) {
  py::class_<PyRun, std::shared_ptr<PyRun>>(m, "MethodRun")
      .def_property_readonly("console", &PyRun::console)
      .def("arrays", &PyRun::Arrays, "The result's arrays (numpy) and names, from the engine's record")
      .def("document", &PyRun::Document, "result.json's document as Python objects (the files written once)")
      .def("files", &PyRun::Files, "Writes the run's files (once) and returns [(name, content)]");
}

}  // namespace perfshap_python
