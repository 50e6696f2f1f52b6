#include "sim/base/parse.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace ecmpsim {

std::optional<std::uint64_t> parse_uint(std::string_view s, std::uint64_t max) noexcept {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty()) return std::nullopt;
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc{} || p != s.data() + s.size() || v > max) return std::nullopt;
  return v;
}

std::optional<std::uint32_t> parse_ipv4(std::string_view s) noexcept {
  std::uint32_t ip = 0;
  for (int i = 0; i < 4; ++i) {
    const auto dot = s.find('.');
    const std::string_view part = i < 3 ? s.substr(0, dot) : s;
    if ((i < 3 && dot == std::string_view::npos) || part.empty() || part.size() > 3) return std::nullopt;
    for (char c : part)
      if (c < '0' || c > '9') return std::nullopt;
    const auto v = parse_uint(part, 255);
    if (!v) return std::nullopt;
    ip = (ip << 8) | static_cast<std::uint32_t>(*v);
    if (i < 3) s.remove_prefix(dot + 1);
  }
  return ip;
}

std::optional<std::uint64_t> parse_mac(std::string_view s) noexcept {
  if (s.size() != 17) return std::nullopt;
  std::uint64_t mac = 0;
  for (std::size_t i = 0; i < 17; ++i) {
    const char c = s[i];
    if (i % 3 == 2) {
      if (c != ':' && c != '-') return std::nullopt;
      continue;
    }
    int v = -1;
    if (c >= '0' && c <= '9') v = c - '0';
    if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
    if (v < 0) return std::nullopt;
    mac = mac << 4 | static_cast<std::uint64_t>(v);
  }
  return mac;
}

std::optional<std::pair<std::uint32_t, std::uint8_t>> parse_prefix(std::string_view s) noexcept {
  const auto slash = s.find('/');
  const auto ip = parse_ipv4(s.substr(0, slash));
  if (!ip) return std::nullopt;
  std::uint8_t len = 32;
  if (slash != std::string_view::npos) {
    const std::string_view l = s.substr(slash + 1);
    for (char c : l)
      if (c < '0' || c > '9') return std::nullopt;
    const auto v = parse_uint(l, 32);
    if (!v) return std::nullopt;
    len = static_cast<std::uint8_t>(*v);
  }
  const std::uint32_t mask = len == 0 ? 0 : ~0u << (32 - len);
  if ((*ip & ~mask) != 0) return std::nullopt;
  return std::pair{*ip, len};
}

std::optional<Bytes> parse_size(std::string_view s) noexcept {
  std::size_t i = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  const auto num = parse_uint(s.substr(0, i), ~0ULL);
  if (!num) return std::nullopt;
  const std::string_view unit = s.substr(i);
  struct U { std::string_view name; std::uint64_t mult; };
  constexpr U units[] = {{"", 1},           {"B", 1},           {"K", 1ULL << 10},   {"M", 1ULL << 20},
                         {"G", 1ULL << 30},   {"T", 1ULL << 40},  {"k", 1ULL << 10},   {"m", 1ULL << 20},
                         {"g", 1ULL << 30},   {"t", 1ULL << 40},  {"KiB", 1ULL << 10}, {"MiB", 1ULL << 20},
                         {"GiB", 1ULL << 30}, {"TiB", 1ULL << 40}, {"KB", 1000},        {"MB", 1000000},
                         {"GB", 1000000000},  {"TB", 1000000000000ULL}};
  for (const auto& u : units) {
    if (u.name != unit) continue;
    if (*num > ~0ULL / u.mult) return std::nullopt;
    return Bytes{*num * u.mult};
  }
  return std::nullopt;
}

}  // namespace ecmpsim
