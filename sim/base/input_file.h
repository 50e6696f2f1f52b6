// Reading a whole input (a config, a topology, flows, tuples) into memory,
// with errors that point at whoever named the file.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "sim/base/error.h"

namespace ecmpsim {

// The rest of an open stream (standard input, say); nullopt on a read error.
std::optional<std::string> read_stream(std::FILE* f);

// The bytes of `path`. Throws InputError(at, "cannot open WHAT") when it cannot
// be opened and InputError(at, "cannot read WHAT") when reading fails (a
// directory, an I/O error).
std::string read_input_file(const std::string& path, const SourcePos& at, std::string_view what);

}  // namespace ecmpsim
