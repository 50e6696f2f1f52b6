// Where `--out PATH` goes, without ever destroying what PATH names. A regular
// file (or a new one) is replaced atomically: a temporary in the same
// directory, renamed over it only when whole, so a crash leaves the old file
// or the new one and never half of either. A symlink is followed and its
// target replaced that way, so the link stays a link. A character or block
// device, a FIFO or a socket is written directly, as a shell's `>` would:
// renaming over /dev/null would turn it into a regular file. "-" is standard
// output. A directory, or a target that cannot be written, is an InputError.
#pragma once

#include <iosfwd>
#include <string>

namespace ecmpsim {

// Writes `text` to `path` by the rules above; "-" writes it to `stdout_stream`.
void write_output(const std::string& path, const std::string& text, std::ostream& stdout_stream);

// What write_output would do with `path`, for messages and tests.
enum class OutputKind { Stdout, Replace, Direct };
OutputKind output_kind(const std::string& path);

}  // namespace ecmpsim
