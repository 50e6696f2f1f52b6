// Where `--out PATH` goes, without ever destroying what PATH names. A regular
// file (or a new one) is replaced atomically: a temporary in the same
// directory, renamed over it only when whole, so a crash leaves the old file
// or the new one and never half of either. A symlink is followed and its
// target replaced that way, so the link stays a link. A character or block
// device, a FIFO or a socket is written directly, as a shell's `>` would:
// renaming over /dev/null would turn it into a regular file. "-" is standard
// output. A name of an open descriptor (/dev/stdout, /dev/stderr, /dev/fd/N,
// /proc/self/fd/N) is that descriptor, written as it is: an appending
// redirection stays appending, a pipe stays a pipe, and /dev/stdout is "-".
// A directory, or a target that cannot be written, is an InputError. A
// temporary never outlives its run: SIGINT, SIGTERM or SIGHUP during the write
// removes it before the process dies, and the temporaries a SIGKILLed run left
// ('.NAME.XXXXXX', unlocked) are removed by the next write of the same target.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ecmpsim {

// Writes `text` to `path` by the rules above; "-" writes it to `stdout_stream`.
// A regular file that is one of `inputs` (the same file by device and inode,
// whatever the path, link or hard link) is refused: a command never writes
// over what it reads.
void write_output(const std::string& path, const std::string& text, std::ostream& stdout_stream,
                  std::span<const std::string> inputs = {});

// Makes an output piece by piece, handing each piece to the function it is given.
using OutputProducer = std::function<void(const std::function<void(std::string_view)>&)>;

// The same for an output too large to hold: each piece `produce` makes is
// written as it comes. A regular file is still replaced only when whole (the
// temporary is removed if `produce` throws); a reader of standard output that
// went away (EPIPE) ends the writing quietly, as it does above.
void write_output(const std::string& path, const OutputProducer& produce, std::ostream& stdout_stream,
                  std::span<const std::string> inputs = {});

// `parts`, one after the other, as the whole new content of the regular file
// (or new file) `path`, replaced atomically as above: for files a command
// rewrites as it runs (sweep checkpoints), never a device or standard output;
// one of `inputs` is refused as write_output refuses it.
void replace_file(const std::string& path, std::span<const std::string_view> parts,
                  std::span<const std::string> inputs = {});

// The checks write_output makes before it writes, for a command to make
// before its work: a sweep or a fit whose --out cannot be written says so at
// once rather than after the work (a missing or unwritable directory, a
// directory, an unwritable file, one of `inputs`, a closed descriptor).
void check_output(const std::string& path, std::span<const std::string> inputs = {});

// A file a long run adds to as it goes (a sweep's checkpoint, saved every few
// seconds: adding costs what is added, not the whole file again). Created
// whole or not at all: `initial` is written to a temporary beside it, synced,
// then linked in under its name, which fails when another run created it
// first. Locked (flock) against every other writer for as long as it is
// open, so two runs never interleave their additions. An addition that fails
// (a full disk) is cut off again, so the file never holds half of one unless
// the process dies while writing it: a reader must check each addition
// (sweep checkpoints carry a checksum per record) and drop a cut-short last one.
class AppendFile {
 public:
  // Opens `path` to add to it, creating it with `initial` when it does not
  // exist. InputError naming `path` when it cannot be created or opened, is
  // not a regular file, is one of `inputs`, or another process holds it.
  AppendFile(const std::string& path, std::string_view initial, std::span<const std::string> inputs = {});
  ~AppendFile();
  AppendFile(const AppendFile&) = delete;
  AppendFile& operator=(const AppendFile&) = delete;
  // Whether this open created the file.
  bool created() const noexcept { return created_; }
  const std::string& path() const noexcept { return path_; }
  // The whole file as it is now, and its size.
  std::string read_all() const;
  std::uint64_t size() const noexcept { return size_; }
  // Cuts the file to `size` bytes (dropping what a killed run left half
  // written), adding from there.
  void truncate(std::uint64_t size);
  // Adds `bytes` at the end, all of them or (InputError) none.
  void append(std::string_view bytes);
  // Starts writing what was added to disk; with `wait`, waits until it is there.
  void flush(bool wait);

 private:
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
  bool created_ = false;
};

// What write_output would do with `path`, for messages and tests.
enum class OutputKind { Stdout, Replace, Direct, Descriptor };
OutputKind output_kind(const std::string& path);

// The descriptor `path` names as above; nullopt for any other path.
std::optional<int> descriptor_path(const std::string& path);

// Standard output checked as an --out file is: flushes `std::cout` and
// returns `code`; when standard output failed (a full disk, /dev/full, a
// closed descriptor; not a reader that went away, EPIPE) under a command that
// had succeeded, prints one line to `err` and returns 2. For main().
int checked_stdout(int code, std::ostream& err);

}  // namespace ecmpsim
