// Sweep axis values as written on the command line and in [sweep]:
// "A:B" or "A:B:STEP" (half-open: A, A+STEP, ... below B) and "1,2,4" lists.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/base/error.h"
#include "sim/config/spec.h"

namespace ecmpsim {

// Throws InputError at `at` for bad syntax, a value above `max`, a zero step,
// or an empty or reversed range.
UintRange parse_range(std::string_view text, std::uint64_t max, const SourcePos& at);
// Comma-separated unsigned integers in [lo, hi]; at least one.
std::vector<std::uint32_t> parse_uint_list(std::string_view text, std::uint32_t lo, std::uint32_t hi,
                                           const SourcePos& at);
// Comma-separated non-empty names; at least one.
std::vector<std::string> parse_name_list(std::string_view text, const SourcePos& at);

std::string format_range(const UintRange& r);

}  // namespace ecmpsim
