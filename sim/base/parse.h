// Small value parsers and formatters shared by the config loader and the CLI.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "sim/base/units.h"

namespace ecmpsim {

std::optional<std::uint32_t> parse_ipv4(std::string_view s) noexcept;  // host byte order
std::string format_ipv4(std::uint32_t ip);
// "a.b.c.d" (a /32) or "a.b.c.d/len"; the address must have no bits past len.
std::optional<std::pair<std::uint32_t, std::uint8_t>> parse_prefix(std::string_view s) noexcept;
// "4096", "256KiB", "1MiB", "1GiB", "1GB", "512MB", "1TiB".
std::optional<Bytes> parse_size(std::string_view s) noexcept;
std::optional<std::uint64_t> parse_uint(std::string_view s, std::uint64_t max) noexcept;  // decimal or 0x
// Shortest text that reads back to the same double.
std::string format_number(double v);
// printf's "%.<digits>f".
std::string fixed(double v, int digits);
// `s` padded with spaces to width `w`: pad_left right-aligns, pad_right left-aligns.
std::string pad_left(std::string s, std::size_t w);
std::string pad_right(std::string s, std::size_t w);

}  // namespace ecmpsim
