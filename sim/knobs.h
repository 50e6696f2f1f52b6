// Config knobs declared once: name, reader, default (from the struct's own
// default) and doc. The table drives validation and the reference text.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <toml++/toml.h>

#include "sim/error.h"

namespace ecmpsim::config {

SourcePos pos_of(const toml::node& n, const std::string& file, std::string_view key);

template <class S>
struct Knob {
  std::string_view key;
  std::string_view type;  // as shown in the reference: "integer", "string", ...
  std::string_view doc;
  std::function<void(const toml::node&, S&, const SourcePos&)> read;
  std::function<std::string(const S&)> show_default;
};

// Reads every key of `table` through `knobs`; an unknown key is an error.
template <class S>
void read_section(const toml::table& table, std::span<const Knob<S>> knobs, S& out,
                  const std::string& file, std::string_view section) {
  for (const auto& [k, node] : table) {
    const Knob<S>* knob = nullptr;
    for (const auto& kn : knobs)
      if (kn.key == k.str()) knob = &kn;
    const std::string key = std::string(section) + "." + std::string(k.str());
    if (knob == nullptr)
      throw InputError(pos_of(node, file, key), "unknown key");
    knob->read(node, out, pos_of(node, file, key));
  }
}

template <class S>
void append_reference(std::string& out, std::string_view section, std::span<const Knob<S>> knobs) {
  const S defaults{};
  out += "[" + std::string(section) + "]\n";
  for (const auto& k : knobs) {
    std::string line = "  " + std::string(k.key) + " (" + std::string(k.type) + ")";
    const std::string def = k.show_default ? k.show_default(defaults) : "";
    if (!def.empty()) line += " = " + def;
    out += line + "\n      " + std::string(k.doc) + "\n";
  }
}

}  // namespace ecmpsim::config
