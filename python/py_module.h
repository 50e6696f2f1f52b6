// The pieces of the `ecmpsim` Python module (python/*.cpp) shared between
// its files: the loaded config, the arrays handed to numpy, and the
// definitions each file adds to the module. The module is a front end like
// the command line: it fills the same option structs and calls the same
// library entry points, so its numbers are the CLI's (docs/python.md).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "sim/base/format.h"
#include "sim/config/spec.h"

namespace ecmpsim::python {

namespace py = pybind11;

// A config loaded by ecmpsim.load(): immutable, shared by every result made from it.
struct Config {
  std::shared_ptr<const Spec> spec;
};

// A numpy array viewing `n` values from `data`, `stride` elements apart,
// read-only; `owner` keeps the memory alive as long as the array is.
template <class T>
py::array view_of(const T* data, std::size_t n, std::shared_ptr<const void> owner, std::size_t stride = 1) {
  auto* keep = new std::shared_ptr<const void>(std::move(owner));
  py::capsule base(keep, [](void* p) { delete static_cast<std::shared_ptr<const void>*>(p); });
  py::array out(py::dtype::of<T>(), {static_cast<py::ssize_t>(n)},
                {static_cast<py::ssize_t>(stride * sizeof(T))}, data, base);
  out.attr("flags").attr("writeable") = false;
  return out;
}

// A vector handed over to numpy without a copy: the array owns it.
template <class T>
py::array array_of(std::vector<T>&& v) {
  auto owner = std::make_shared<const std::vector<T>>(std::move(v));
  const T* data = owner->data();
  const std::size_t n = owner->size();
  return view_of(data, n, std::move(owner));
}

// A document the library built (nlohmann's ordered JSON, as the CLI writes
// it) as Python dicts and lists, through Python's own json module so every
// number is the one the CLI prints.
py::object to_python(const std::string& json_text);

// `r`'s document as the CLI's `-f json` writes it, on one line: what
// to_python reads. `r` may borrow a report, which must outlive the call.
std::string json_line(Result r);

// Columns from Python (a dict of equal-length sequences) as CSV text with a
// header, for the readers of CSV files: one reader checks both, with its
// messages (row i of the columns is line i + 2 of `name`).
std::string columns_csv(const py::dict& columns, const std::string& name);

// The module's parts, one per file.
void add_run(py::module_& m, py::class_<Config>& config);
void add_sweep(py::module_& m, py::class_<Config>& config);
void add_tools(py::module_& m);

}  // namespace ecmpsim::python
