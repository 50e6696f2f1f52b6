// An IP address of either family as one value: 16 bytes in network order.
// IPv4 addresses are held IPv4-mapped (::ffff:a.b.c.d, RFC 4291 2.5.5.2), so
// a flow column, a fabric's address plan and a hash key all use one type and
// the family is read off the bytes; byte order is numeric order within a
// family. Hash keys pack only the wire bytes (4 for IPv4, 16 for IPv6).
#pragma once

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ecmpsim::hashing {

enum class Family : std::uint8_t { V4, V6 };
constexpr std::string_view family_name(Family f) noexcept { return f == Family::V4 ? "IPv4" : "IPv6"; }

class IpAddr {
 public:
  constexpr IpAddr() noexcept : IpAddr(0u) {}
  // An IPv4 address from its host-order value (implicit: IPv4 code reads as before).
  constexpr IpAddr(std::uint32_t v4) noexcept {  // NOLINT(google-explicit-constructor)
    b_[10] = b_[11] = 0xFF;
    for (int i = 0; i < 4; ++i) b_[12 + i] = static_cast<std::uint8_t>(v4 >> (24 - 8 * i));
  }
  // An address from its 16 network-order bytes (an IPv4-mapped one is IPv4).
  static constexpr IpAddr v6(std::span<const std::uint8_t, 16> bytes) noexcept {
    IpAddr a;
    for (std::size_t i = 0; i < 16; ++i) a.b_[i] = bytes[i];
    return a;
  }

  constexpr bool is_v4() const noexcept {
    for (int i = 0; i < 10; ++i)
      if (b_[i] != 0) return false;
    return b_[10] == 0xFF && b_[11] == 0xFF;
  }
  constexpr Family family() const noexcept { return is_v4() ? Family::V4 : Family::V6; }
  // The IPv4 value in host order (the low 32 bits of an IPv6 address).
  constexpr std::uint32_t v4() const noexcept {
    return (std::uint32_t{b_[12]} << 24) | (std::uint32_t{b_[13]} << 16) | (std::uint32_t{b_[14]} << 8) | b_[15];
  }
  constexpr const std::array<std::uint8_t, 16>& bytes() const noexcept { return b_; }
  // The address as it is on the wire: 4 bytes for IPv4, 16 for IPv6.
  constexpr std::span<const std::uint8_t> wire() const noexcept {
    return is_v4() ? std::span<const std::uint8_t>(b_.data() + 12, 4) : std::span<const std::uint8_t>(b_);
  }
  // Address bits of the family (32 or 128).
  constexpr unsigned bits() const noexcept { return is_v4() ? 32 : 128; }

  // This address plus `n` within its family; nullopt when the sum leaves the
  // family's space (past 255.255.255.255 or past ffff:...:ffff).
  constexpr std::optional<IpAddr> plus(std::uint64_t n) const noexcept {
    IpAddr r = *this;
    const std::size_t low = is_v4() ? 12 : 0;
    std::uint64_t carry = n;
    for (std::size_t i = 16; i-- > low && carry != 0;) {
      const std::uint64_t s = r.b_[i] + (carry & 0xFF);
      r.b_[i] = static_cast<std::uint8_t>(s);
      carry = (carry >> 8) + (s >> 8);
    }
    if (carry != 0) return std::nullopt;
    return r;
  }
  // Whether the first `len` bits (of the family's address) equal `prefix`'s.
  constexpr bool in_prefix(const IpAddr& prefix, unsigned len) const noexcept {
    if (is_v4() != prefix.is_v4()) return false;
    unsigned bits_left = len + (is_v4() ? 96 : 0);
    for (std::size_t i = 0; i < 16 && bits_left > 0; ++i) {
      const unsigned take = bits_left >= 8 ? 8 : bits_left;
      const auto mask = static_cast<std::uint8_t>(0xFF00u >> take);
      if ((b_[i] & mask) != (prefix.b_[i] & mask)) return false;
      bits_left -= take;
    }
    return true;
  }

  friend constexpr auto operator<=>(const IpAddr&, const IpAddr&) noexcept = default;

 private:
  std::array<std::uint8_t, 16> b_{};
};

struct IpAddrHash {
  std::size_t operator()(const IpAddr& a) const noexcept {
    std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a over the 16 bytes
    for (std::uint8_t c : a.bytes()) h = (h ^ c) * 0x100000001b3ULL;
    return static_cast<std::size_t>(h);
  }
};

// "10.0.0.1" or any RFC 4291 text form of an IPv6 address ("fd00::1"); nullopt
// when malformed. A dotted quad is IPv4, anything with ':' IPv6.
std::optional<IpAddr> parse_ip(std::string_view s) noexcept;
// "a.b.c.d" for IPv4, the RFC 5952 form for IPv6 ("fd00::1").
std::string format_ip(const IpAddr& a);

struct IpPrefix {
  IpAddr addr;
  std::uint8_t len = 0;  // bits of the family's address: 0..32 or 0..128
  friend constexpr bool operator==(const IpPrefix&, const IpPrefix&) noexcept = default;
};
// "addr" (a host: /32 or /128) or "addr/len"; nullopt when malformed, when
// len exceeds the family's width, or when addr has bits set past len.
std::optional<IpPrefix> parse_ip_prefix(std::string_view s) noexcept;
// "addr/len".
std::string format_ip_prefix(const IpPrefix& p);

}  // namespace ecmpsim::hashing
