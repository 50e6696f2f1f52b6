#include "sim/base/input_file.h"

#include <algorithm>
#include <memory>
#include <sys/stat.h>

#include "sim/base/limits.h"

namespace ecmpsim {

std::optional<std::string> read_stream(std::FILE* f, std::uint64_t max) {
  // One byte past the limit tells a stream at the limit from one beyond it.
  const std::uint64_t want = max == ~0ULL ? max : max + 1;
  std::string text;
  std::size_t used = 0;
  for (std::size_t chunk = 1 << 16; used < want; chunk = std::min<std::size_t>(chunk * 2, 1 << 24)) {
    chunk = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, want - used));
    text.resize(used + chunk);
    const std::size_t n = std::fread(text.data() + used, 1, chunk, f);
    used += n;
    if (n < chunk) break;
  }
  text.resize(used);
  if (std::ferror(f)) return std::nullopt;
  return text;
}

namespace {

[[noreturn]] void too_large(const SourcePos& at, std::string_view what, const ByteLimit& limit,
                            std::optional<std::uint64_t> size) {
  SourcePos where = at;
  where.field = limit.key;
  where.option = true;
  const std::string named = what.starts_with("the ") ? std::string(what) : "the " + std::string(what);
  throw InputError(where, named +
                              (size ? " has " + over_limit(*size, "bytes", limit.max)
                                    : " holds more than the limit of " + std::to_string(limit.max) + " bytes"));
}

}  // namespace

std::string read_input_or_stdin(const std::string& path, std::string_view what, const ByteLimit& limit) {
  if (path != "-") return read_input_file(path, {path, 0, 0, {}}, what, limit);
  auto text = read_stream(stdin, limit.max);
  if (!text) throw InputError({"<stdin>", 0, 0, {}}, "cannot read standard input");
  if (text->size() > limit.max) too_large({"<stdin>", 0, 0, {}}, "standard input", limit, std::nullopt);
  return std::move(*text);
}

std::string read_input_file(const std::string& path, const SourcePos& at, std::string_view what,
                            const ByteLimit& limit) {
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw InputError(at, "cannot open " + std::string(what));
  struct stat st {};
  const bool regular = ::fstat(::fileno(f.get()), &st) == 0 && S_ISREG(st.st_mode);
  if (regular && static_cast<std::uint64_t>(st.st_size) > limit.max)
    too_large(at, what, limit, static_cast<std::uint64_t>(st.st_size));
  auto text = read_stream(f.get(), limit.max);
  if (!text) throw InputError(at, "cannot read " + std::string(what));
  // A regular file that grew while it was read is refused as a stream is.
  if (text->size() > limit.max) too_large(at, what, limit, std::nullopt);
  return std::move(*text);
}

}  // namespace ecmpsim
