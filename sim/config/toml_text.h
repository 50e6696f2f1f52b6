// TOML text to a toml++ table: the one place a config or a topology file is
// parsed. Errors become InputErrors at their line and column, and one shape
// toml++ cannot survive is refused before it parses: a dotted key or a table
// header of thousands of parts, on which toml++ recurses once per part before
// it checks its nesting limit, so 35,000 parts overflowed the stack.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <toml++/toml.h>

namespace ecmpsim::config {

// toml++'s own limit on nested values (TOML_MAX_NESTED_VALUES).
inline constexpr std::uint32_t kMaxKeyParts = 256;

struct KeyChain {
  std::uint32_t line = 0, column = 0;  // where the key starts, 1-based
  std::uint32_t parts = 0;
};

// The first dotted key (bare or quoted parts joined by '.', blanks allowed
// around the dots) of more than `max_parts` parts in `text`, outside strings
// and comments; nullopt when there is none. Values never make such a chain:
// a float has one dot.
std::optional<KeyChain> overlong_key(std::string_view text, std::uint32_t max_parts) noexcept;

// Parses `text` read from `path`. Throws InputError at the fault.
toml::table parse_toml(std::string_view text, const std::string& path);

}  // namespace ecmpsim::config
