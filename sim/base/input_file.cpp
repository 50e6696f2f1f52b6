#include "sim/base/input_file.h"

#include <memory>

namespace ecmpsim {

std::optional<std::string> read_stream(std::FILE* f) {
  std::string text;
  std::size_t used = 0;
  for (std::size_t chunk = 1 << 16;; chunk = std::min<std::size_t>(chunk * 2, 1 << 24)) {
    text.resize(used + chunk);
    const std::size_t n = std::fread(text.data() + used, 1, chunk, f);
    used += n;
    if (n < chunk) break;
  }
  text.resize(used);
  if (std::ferror(f)) return std::nullopt;
  return text;
}

std::string read_input_file(const std::string& path, const SourcePos& at, std::string_view what) {
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw InputError(at, "cannot open " + std::string(what));
  auto text = read_stream(f.get());
  if (!text) throw InputError(at, "cannot read " + std::string(what));
  return std::move(*text);
}

}  // namespace ecmpsim
