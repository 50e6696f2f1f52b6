// The reference pages generated from the code's own tables, so that they cannot
// drift from it: docs/config-reference.md from the config knob tables (the
// tables that also read and validate every key) and docs/hash-catalogue.md
// from the hash catalogue. `ecmpsim_docgen` writes them (`cmake --build build
// --target docs`); tests/reference_docs_test.cpp fails when a committed page
// differs from what the tables render.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace ecmpsim {

struct GeneratedPage {
  std::string_view path;  // relative to the repository root
  std::string (*render)();
};

// Every generated page.
std::span<const GeneratedPage> generated_pages();

std::string config_reference_markdown();
std::string hash_catalogue_markdown();

// The command that rewrites every generated page from a build in `build/`.
inline constexpr std::string_view kRegenerateDocsCommand = "cmake --build build --target docs";

}  // namespace ecmpsim
