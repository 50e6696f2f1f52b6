// Small value parsers shared by the config loader, the flow readers and the
// CLI; each returns nullopt on malformed text, and the caller names the place.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "sim/base/units.h"

namespace ecmpsim {

std::optional<std::uint32_t> parse_ipv4(std::string_view s) noexcept;  // host byte order
// "02:00:00:00:01:0a" (six hex pairs, ':' or '-' between) -> 48-bit value, first byte highest.
std::optional<std::uint64_t> parse_mac(std::string_view s) noexcept;
// "a.b.c.d" (a /32) or "a.b.c.d/len"; the address must have no bits past len.
std::optional<std::pair<std::uint32_t, std::uint8_t>> parse_prefix(std::string_view s) noexcept;
// A byte count, bare or with a unit: K, M, G, T (or k, m, g, t) as
// nccl-tests' -b/-e take them and KiB, MiB, GiB, TiB, all binary (2^10
// steps); KB, MB, GB, TB decimal (10^3 steps); B. E.g. "4096", "512M", "1G",
// "256MiB", "1GB".
std::optional<Bytes> parse_size(std::string_view s) noexcept;
// The examples every size error shows.
inline constexpr std::string_view kSizeExamples = "bytes, or with a unit: 512M, 1G, 256MiB, 1GB";
std::optional<std::uint64_t> parse_uint(std::string_view s, std::uint64_t max) noexcept;  // decimal or 0x

}  // namespace ecmpsim
