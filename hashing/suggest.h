// "Did you mean" for names users type: hash algorithms, key fields, config
// keys, scenario names, flags. The nearest candidate by Damerau-Levenshtein
// distance (a transposition counts as one edit, as in git's and CLI11's own
// suggestions) is offered when it is close enough to be a typo; the valid
// names are listed when there are few enough to read on one line.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hashing/key.h"

namespace ecmpsim {

// Edits (insert, delete, substitute, swap adjacent) from a to b.
std::size_t edit_distance(std::string_view a, std::string_view b);

// " (did you mean 'x'?)", " (one of a, b, c)", " (did you mean 'x'? one of
// a, b, c)" or "": the nearest name within max(1, |given| / 3) edits, else
// the names that begin with `given` as a whole word ("qps" ->
// "qps_per_connection"), and the list when it has at most `list_max` names.
std::string did_you_mean(std::string_view given, const std::vector<std::string_view>& names,
                         std::size_t list_max = 12);

// The hash algorithm and key field messages every layer prints:
// "unknown hash algorithm 'crc33' (did you mean 'crc32'?)".
std::string unknown_algorithm(std::string_view given);
std::string unknown_field(std::string_view given);

// A field list as a config or a flag names it (every vocabulary:
// hashing/key.h): its fields into `out` in order, tunnel fields (INNER_*,
// inner-*) accepted and left out (non-tunnelled RoCE has no inner header, so
// they add nothing to the key). Returns the error for the first unknown or
// repeated name, or for a list with no field left.
std::optional<std::string> parse_field_list(std::span<const std::string> names, std::vector<hashing::Field>& out);

}  // namespace ecmpsim
