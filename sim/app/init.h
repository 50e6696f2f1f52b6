// `init`: a commented starter config for a fabric kind, the shipped config of
// that kind (compiled in at build time), so a new user starts from a file the
// test suite runs.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace ecmpsim::app {

struct Starter {
  std::string_view fabric, shipped;  // "leaf-spine", "configs/paper16.toml"
  const char* text;
};

std::span<const Starter> starters();

// The text of `fabric`'s starter, to write to `out` ("" or "-": standard
// output). InputError at the fabric option for a kind starters() lacks, and
// at the out option for an existing file unless `force`.
std::string_view starter_text(const std::string& fabric, const std::string& out, bool force);

}  // namespace ecmpsim::app
