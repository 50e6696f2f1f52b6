// Config knobs declared once: name, reader, range, default (from the struct's
// own default) and doc. The table drives validation, the --help text and the
// generated docs/config-reference.md.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <toml++/toml.h>
#include <vector>

#include "hashing/address.h"
#include "hashing/suggest.h"
#include "hashing/toeplitz.h"
#include "sim/base/csv_reader.h"
#include "sim/base/error.h"
#include "sim/base/named.h"
#include "sim/base/parse.h"
#include "sim/base/text.h"
#include "sim/base/units.h"

namespace ecmpsim::config {

SourcePos pos_of(const toml::node& n, const std::string& file, std::string_view key);

template <class S>
struct Knob {
  std::string_view key;
  std::string type;  // as shown in the reference: "integer", "string", "\"a\" | \"b\"", ...
  std::string_view doc;
  std::function<void(const toml::node&, S&, const SourcePos&)> read;
  std::function<std::string(const S&)> show_default;
  // Values the reader accepts beyond its type, as the reference shows them:
  // "[1, 4096]", "(0, 1e6]", ">= 0"; empty when the type says it all.
  std::string range = {};
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
    if (knob == nullptr) {
      std::vector<std::string_view> keys;
      for (const auto& kn : knobs) keys.push_back(kn.key);
      throw InputError(pos_of(node, file, key), "unknown key" + did_you_mean(k.str(), keys, 0));
    }
    knob->read(node, out, pos_of(node, file, key));
  }
}

template <class S, class Get>
Knob<S> uint_knob(std::string_view key, std::string_view doc, std::uint64_t lo, std::uint64_t hi, Get get) {
  return {key, "integer", doc,
          [=](const toml::node& n, S& s, const SourcePos& at) {
            const auto v = n.value<std::int64_t>();
            if (!n.is_integer() || !v) throw InputError(at, "expected an integer");
            if (*v < 0 || static_cast<std::uint64_t>(*v) < lo || static_cast<std::uint64_t>(*v) > hi)
              throw InputError(at, "value " + std::to_string(*v) + " out of range [" +
                                       std::to_string(lo) + ", " + std::to_string(hi) + "]");
            get(s) = static_cast<std::remove_reference_t<decltype(get(s))>>(*v);
          },
          [=](const S& s) { return std::to_string(get(s)); },
          "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]"};
}

template <class S, class Get>
Knob<S> bool_knob(std::string_view key, std::string_view doc, Get get) {
  return {key, "boolean", doc,
          [=](const toml::node& n, S& s, const SourcePos& at) {
            const auto v = n.value<bool>();
            if (!n.is_boolean() || !v) throw InputError(at, "expected true or false");
            get(s) = *v;
          },
          [=](const S& s) { return get(s) ? std::string("true") : std::string("false"); }};
}

template <class S, class Get>
Knob<S> gbps_knob(std::string_view key, std::string_view doc, Get get) {
  return {key, "number", doc,
          [=](const toml::node& n, S& s, const SourcePos& at) {
            const auto v = n.value<double>();
            if (!(n.is_integer() || n.is_floating_point()) || !v) throw InputError(at, "expected a number");
            if (!(*v > 0) || *v > 1e6) throw InputError(at, "speed must be in (0, 1e6] Gb/s");
            get(s) = Gbps{*v};
          },
          [=](const S& s) { return format_number(get(s).value); },
          "(0, 1e6]"};
}

// A real number in [lo, hi] (in (lo, hi] when `open_lo`); `unit` follows the
// value in messages ("us", "GB/s").
template <class S, class Get>
Knob<S> number_knob(std::string_view key, std::string_view doc, double lo, double hi, bool open_lo, Get get) {
  const std::string range = (open_lo ? "(" : "[") + format_number(lo) + ", " + format_number(hi) + "]";
  return {key, "number", doc,
          [=](const toml::node& n, S& s, const SourcePos& at) {
            const auto v = n.value<double>();
            if (!(n.is_integer() || n.is_floating_point()) || !v) throw InputError(at, "expected a number");
            if (!(open_lo ? *v > lo : *v >= lo) || !(*v <= hi))
              throw InputError(at, "value " + format_number(*v) + " out of range " + range);
            get(s) = *v;
          },
          [=](const S& s) { return format_number(get(s)); },
          range};
}

template <class S, class Get>
Knob<S> bytes_knob(std::string_view key, std::string_view doc, Get get) {
  return {key, "integer or size string", doc,
          [=](const toml::node& n, S& s, const SourcePos& at) {
            if (const auto v = n.value<std::int64_t>(); n.is_integer() && v) {
              if (*v <= 0) throw InputError(at, "size must be positive");
              get(s) = Bytes{static_cast<std::uint64_t>(*v)};
            } else if (const auto str = n.value<std::string>(); n.is_string() && str) {
              const auto b = parse_size(*str);
              if (!b || b->value == 0) throw InputError(at, "invalid size '" + *str + "' (" + std::string(kSizeExamples) + ")");
              get(s) = *b;
            } else {
              throw InputError(at, "expected a size (integer bytes or a string such as \"1GiB\")");
            }
          },
          [=](const S& s) { return std::to_string(get(s).value); },
          ">= 1"};
}

template <class S, class Get>
Knob<S> ip_knob(std::string_view key, std::string_view doc, Get get) {
  return {key, "IP address", doc,
          [=](const toml::node& n, S& s, const SourcePos& at) {
            const auto str = n.value<std::string>();
            if (!n.is_string() || !str) throw InputError(at, "expected an IPv4 or IPv6 address string");
            const auto ip = hashing::parse_ip(*str);
            if (!ip) throw InputError(at, "invalid IP address '" + *str + "' (expected IPv4 \"10.0.0.0\" or IPv6 \"fd00::\")");
            get(s) = *ip;
          },
          [=](const S& s) { return "\"" + hashing::format_ip(get(s)) + "\""; }};
}

// A Toeplitz (RSS) key: 40 bytes as 80 hex digits, ':' between bytes allowed
// (as `ethtool -x` prints a NIC's key); any other length is an error here.
template <class S, class Get>
Knob<S> rss_key_knob(std::string_view key, std::string_view doc, Get get) {
  return {key, "string", doc,
          [=](const toml::node& n, S& s, const SourcePos& at) {
            const auto v = n.value<std::string>();
            if (!n.is_string() || !v) throw InputError(at, "expected a string of 80 hex digits");
            const auto k = hashing::parse_rss_key(*v);
            if (!k) throw InputError(at, "expected 40 bytes as 80 hex digits (':' separators allowed)");
            get(s) = *k;
          },
          [=](const S& s) { return get(s) ? "\"" + format_hex_bytes(*get(s)) + "\"" : std::string(); }};
}

// A string naming one row of `table` (an enum's one table, sim/base/named.h).
template <class S, class Table, class Get>
Knob<S> enum_knob(std::string_view key, std::string_view doc, const Table& table, Get get) {
  const std::string choices = quoted_choices(table);
  return {key, choices, doc,
          [=, &table](const toml::node& n, S& s, const SourcePos& at) {
            const auto str = n.value<std::string>();
            if (!n.is_string() || !str) throw InputError(at, "expected a string, one of " + choices);
            const auto v = parse_name(table, *str);
            if (!v) throw InputError(at, "unknown value '" + *str + "', expected one of " + choices);
            get(s) = *v;
          },
          [=, &table](const S& s) { return "\"" + std::string(name_of(table, get(s))) + "\""; }};
}

// A name (of a scenario, a job, a topology node or server): a non-empty
// string without control characters, which would break the table and CSV
// outputs and the one-line errors that quote it.
inline std::string expect_name(const toml::node& n, const SourcePos& at) {
  const auto v = n.value<std::string>();
  if (!n.is_string() || !v || v->empty()) throw InputError(at, "expected a non-empty string");
  for (const char c : *v)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
      throw InputError(at, "a name cannot hold control characters, found '" + printable(*v) + "'");
  return *v;
}

inline const toml::table& expect_table(const toml::node& n, const SourcePos& at) {
  const auto* t = n.as_table();
  if (!t) throw InputError(at, "expected a table");
  return *t;
}

template <class S>
void append_reference(std::string& out, std::string_view header, std::span<const Knob<S>> knobs) {
  const S defaults{};
  out += std::string(header) + "\n";
  for (const auto& k : knobs) {
    std::string line = "  " + std::string(k.key) + " (" + std::string(k.type) + ")";
    const std::string def = k.show_default ? k.show_default(defaults) : "";
    if (!def.empty()) line += " = " + def;
    out += line + "\n      " + std::string(k.doc) + "\n";
  }
}

}  // namespace ecmpsim::config
