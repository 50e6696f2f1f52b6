#include "workloads/generators/nccl_version.h"

#include <charconv>

namespace ecmpsim::workloads {

std::optional<NcclVersion> parse_nccl_version(std::string_view text) {
  if (text.starts_with('v')) text.remove_prefix(1);
  if (const auto dash = text.find('-'); dash != std::string_view::npos) {
    const std::string_view release = text.substr(dash + 1);
    if (release.empty() || release.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
    text = text.substr(0, dash);
  }
  std::uint16_t parts[3] = {0, 0, 0};
  int n = 0;
  while (n < 3) {
    const char* end = text.data() + text.size();
    const auto [p, ec] = std::from_chars(text.data(), end, parts[n]);
    if (ec != std::errc{} || p == text.data()) return std::nullopt;
    ++n;
    text.remove_prefix(static_cast<std::size_t>(p - text.data()));
    if (text.empty()) break;
    if (text.front() != '.' || n == 3) return std::nullopt;
    text.remove_prefix(1);
  }
  if (n < 2) return std::nullopt;
  return NcclVersion{parts[0], parts[1], parts[2]};
}

std::string nccl_version_text(NcclVersion v) {
  return std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
}

}  // namespace ecmpsim::workloads
