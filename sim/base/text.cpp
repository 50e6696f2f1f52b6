#include "sim/base/text.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace ecmpsim {

std::string format_mac(std::uint64_t mac) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (int b = 5; b >= 0; --b) {
    const auto byte = static_cast<unsigned>(mac >> (8 * b)) & 0xFFu;
    if (b != 5) out += ':';
    out += kHex[byte >> 4];
    out += kHex[byte & 15];
  }
  return out;
}

std::string format_hex_bytes(std::span<const std::uint8_t> bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i) out += ':';
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 15];
  }
  return out;
}

std::string format_ipv4(std::uint32_t ip) {
  return std::to_string(ip >> 24) + '.' + std::to_string((ip >> 16) & 255) + '.' +
         std::to_string((ip >> 8) & 255) + '.' + std::to_string(ip & 255);
}

std::string format_number(double v) {
  char buf[64];
  const auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc{} ? std::string(buf, p) : std::string("nan");
}

std::string fixed(double v, int decimals) {
  if (std::isnan(v)) return "-";
  if (std::isinf(v)) return v > 0 ? "\u221e" : "-\u221e";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string human_bytes(double bytes) {
  constexpr std::array<const char*, 6> units{"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  std::size_t u = 0;
  while (bytes >= 1024 && u + 1 < units.size()) {
    bytes /= 1024;
    ++u;
  }
  return fixed(bytes, u == 0 ? 0 : 2) + " " + units[u];
}

std::string human_seconds(double s) {
  if (!std::isfinite(s)) return fixed(s, 0);
  const double a = std::abs(s);
  if (a >= 1) return fixed(s, 3) + " s";
  if (a >= 1e-3) return fixed(s * 1e3, 3) + " ms";
  return fixed(s * 1e6, 3) + " \u00b5s";
}

std::string format_hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

std::string pad_left(std::string s, std::size_t w) {
  return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}

std::string pad_right(std::string s, std::size_t w) {
  return s.size() >= w ? s : s + std::string(w - s.size(), ' ');
}

std::string wrap(std::string_view s, std::size_t width, std::size_t indent) {
  std::string out;
  std::size_t column = indent;  // the caller has printed `indent` characters before the first line
  for (std::size_t at = 0; at < s.size();) {
    const std::size_t end = std::min(s.find(' ', at), s.size());
    const std::string_view word = s.substr(at, end - at);
    at = end + 1;
    if (word.empty()) continue;
    if (!out.empty() && column + 1 + word.size() > width) {
      out += "\n" + std::string(indent, ' ');
      column = indent;
    } else if (!out.empty()) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
  }
  return out;
}

std::string plural(std::uint64_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

std::string or_list(std::span<const std::string> items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
  return out;
}

}  // namespace ecmpsim
