// `import ecmpsim`: the module's definition, its exception and load().
// Bad input raises ecmpsim.InputError (a ValueError) whose text is the line
// the command line prints after "ecmpsim: ", options spelt as keywords
// (max_flows= where the command line says --max-flows), with file, line,
// column and field (an option's key) as attributes; anything else the engine
// throws is a RuntimeError.
#include <filesystem>
#include <string>

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "python/py_module.h"
#include "sim/base/error.h"
#include "sim/app/load.h"

namespace ecmpsim::python {

py::object to_python(const std::string& json_text) {
  return py::module_::import("json").attr("loads")(py::str(json_text));
}

std::string json_line(Result r) {
  r.json_indent = -1;
  return write(Format::Json, r);
}

std::string columns_csv(const py::dict& columns, const std::string& name) {
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> cells;
  for (const auto& [key, value] : columns) {
    names.push_back(py::str(key));
    cells.emplace_back();
    for (const py::handle v : py::iter(value)) {
      std::string text = py::str(v);
      if (text.find_first_of(",\r\n") != std::string::npos)
        throw InputError({name, 0, 0, names.back()}, "a value holds a comma or a line break: '" + text + "'");
      cells.back().push_back(std::move(text));
    }
    if (cells.back().size() != cells.front().size())
      throw InputError({name, 0, 0, names.back()}, "has " + std::to_string(cells.back().size()) + " values, " +
                                                             names.front() + " " + std::to_string(cells.front().size()));
  }
  std::string csv;
  for (std::size_t c = 0; c < names.size(); ++c) csv += (c ? "," : "") + names[c];
  csv += '\n';
  for (std::size_t r = 0; !cells.empty() && r < cells.front().size(); ++r) {
    for (std::size_t c = 0; c < names.size(); ++c) csv += (c ? "," : "") + cells[c][r];
    csv += '\n';
  }
  return csv;
}

namespace {

// Raises ecmpsim.InputError for `e`, with where it points as attributes.
void raise_input_error(const InputError& e) {
  const SourcePos& at = e.where();
  const py::object type = py::module_::import("ecmpsim").attr("InputError");
  const py::object exc = type(one_line(e.describe(keyword_spelling)));
  exc.attr("file") = at.file.empty() ? py::object(py::none()) : py::object(py::str(at.file));
  exc.attr("line") = at.line == 0 ? py::object(py::none()) : py::object(py::int_(at.line));
  exc.attr("column") = at.column == 0 ? py::object(py::none()) : py::object(py::int_(at.column));
  exc.attr("field") = at.field.empty() ? py::object(py::none()) : py::object(py::str(at.field));
  exc.attr("record") = at.record == 0 ? py::object(py::none()) : py::object(py::int_(at.record));
  PyErr_SetObject(type.ptr(), exc.ptr());
}

// load(): a path (str or os.PathLike), or TOML text when the str holds a line break.
Config load(const py::object& source) {
  Spec spec = [&] {
    if (!py::isinstance<py::str>(source)) {
      const std::string path = py::cast<std::filesystem::path>(source).string();
      py::gil_scoped_release release;
      return app::load_spec(path, Limits{});
    }
    const std::string text = py::cast<std::string>(source);
    py::gil_scoped_release release;
    if (text.find('\n') == std::string::npos) return app::load_spec(text, Limits{});
    return app::load_spec_text(text, "<string>", Limits{});
  }();
  return Config{std::make_shared<const Spec>(std::move(spec))};
}

}  // namespace

}  // namespace ecmpsim::python

PYBIND11_MODULE(ecmpsim, m) {
  using namespace ecmpsim::python;
  m.doc() = "ecmpsim: ECMP routing what-if simulator for AI training clusters (docs/python.md)";
  py::object value_error = py::reinterpret_borrow<py::object>(PyExc_ValueError);
  m.attr("InputError") = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
      "ecmpsim.InputError",
      "Bad input: str(e) is the command line's one-line message; file, line, column, field and record say where "
      "(None when unknown).",
      value_error.ptr(), nullptr));
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ecmpsim::InputError& e) {
      raise_input_error(e);
    }
  });

  py::class_<Config> config(m, "Config", "An experiment config, loaded and checked once (ecmpsim.load)");
  config.def_property_readonly("source", [](const Config& c) { return c.spec->source; },
                               "The config's file, or '<string>' for TOML text")
      .def_property_readonly(
          "scenarios",
          [](const Config& c) {
            py::list names;
            for (const auto& s : c.spec->scenarios) names.append(s.name);
            return names;
          },
          "The scenarios' names, in the config's order")
      .def_property_readonly(
          "jobs",
          [](const Config& c) {
            py::list names;
            for (const auto& j : c.spec->jobs) names.append(j.name);
            return names;
          },
          "The jobs' names, in the config's order")
      .def("__repr__", [](const Config& c) { return "<ecmpsim.Config " + c.spec->source + ">"; });
  m.def("load", &load, py::arg("source"),
        "Load a config: a path (str or os.PathLike), or TOML text when the str holds a line break");
  add_run(m, config);
  add_sweep(m, config);
  add_tools(m);
}
