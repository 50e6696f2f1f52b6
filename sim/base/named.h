// One table per enum: every value with the name users write and read. The
// config reader, the command line's accepted choices, every output and the
// assumptions text take names from the table, so a value cannot be printed
// one way and parsed another. It lives in sim/base, the lowest stage, so
// that every layer (hashing's own selections, workloads' collectives, the
// sim stages' enums, base's output formats) names its values the same way.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ecmpsim {

template <class E>
struct Named {
  E value;
  std::string_view name;
  std::string_view doc = {};  // a clause for generated text, where the enum has one
};

// The row's name for `v`; "?" only for a value missing from the table.
template <class Table, class E>
constexpr std::string_view name_of(const Table& table, E v) noexcept {
  for (const auto& row : table)
    if (row.value == v) return row.name;
  return "?";
}

template <class Table, class E>
constexpr std::string_view doc_of(const Table& table, E v) noexcept {
  for (const auto& row : table)
    if (row.value == v) return row.doc;
  return {};
}

template <class Table>
constexpr auto parse_name(const Table& table, std::string_view s) noexcept
    -> std::optional<std::decay_t<decltype(table[0].value)>> {
  for (const auto& row : table)
    if (row.name == s) return row.value;
  return std::nullopt;
}

// "\"a\" | \"b\" | \"c\"", as config errors and the reference list them.
template <class Table>
std::string quoted_choices(const Table& table) {
  std::string out;
  for (const auto& row : table) out += (out.empty() ? "\"" : " | \"") + std::string(row.name) + "\"";
  return out;
}

// The names in order, for the command line's accepted values.
template <class Table>
std::vector<std::string> names_of(const Table& table) {
  std::vector<std::string> out;
  for (const auto& row : table) out.emplace_back(row.name);
  return out;
}

}  // namespace ecmpsim
