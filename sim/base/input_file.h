// Reading a whole input (a config, a topology, flows, tuples) into memory,
// with errors that point at whoever named the file, and never more of it than
// its limit: a regular file past the limit is refused before it is read, and
// anything else (a FIFO, a pipe, standard input, a character device such as
// /dev/zero) when reading passes the limit.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "sim/base/error.h"

namespace ecmpsim {

// The most a reader takes from one input, and the option key that raises it
// (max_capture_bytes: --max-capture-bytes, max_capture_bytes=), which the
// error names.
struct ByteLimit {
  std::uint64_t max = 0;
  std::string key;
};

// The rest of an open stream (standard input, say), at most `max` bytes:
// nullopt on a read error, and a string of max + 1 bytes when the stream
// holds more (read no further).
std::optional<std::string> read_stream(std::FILE* f, std::uint64_t max);

// The bytes of `path`. Throws InputError(at, "cannot open WHAT") when it cannot
// be opened and InputError(at, "cannot read WHAT") when reading fails (a
// directory, an I/O error); past `limit`, InputError at `at` with the field
// `limit.key`: "the WHAT has N bytes, more than the limit of L" for a
// regular file, "the WHAT holds more than the limit of L bytes" for any other.
std::string read_input_file(const std::string& path, const SourcePos& at, std::string_view what,
                            const ByteLimit& limit);

// read_input_file's bytes of `path` ("WHAT" in messages), or for "-" standard
// input's, within `limit` as any stream is.
std::string read_input_or_stdin(const std::string& path, std::string_view what, const ByteLimit& limit);

}  // namespace ecmpsim
