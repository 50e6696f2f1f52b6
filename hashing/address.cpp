// Text forms of addresses, through the C library's inet_pton / inet_ntop
// (RFC 4291 input forms, RFC 5952 output) so the parser accepts exactly what
// iproute2 and the kernel do.
#include "hashing/address.h"

#include <arpa/inet.h>

namespace ecmpsim::hashing {
namespace {

// Four decimal parts of one to three digits, each at most 255 (leading zeros
// read as decimal, as ecmpsim always has; inet_pton would refuse them).
std::optional<IpAddr> parse_dotted_quad(std::string_view s) noexcept {
  std::uint32_t ip = 0;
  for (int i = 0; i < 4; ++i) {
    const auto dot = s.find('.');
    const std::string_view part = i < 3 ? s.substr(0, dot) : s;
    if ((i < 3 && dot == std::string_view::npos) || part.empty() || part.size() > 3) return std::nullopt;
    std::uint32_t v = 0;
    for (char c : part) {
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + static_cast<std::uint32_t>(c - '0');
    }
    if (v > 255) return std::nullopt;
    ip = (ip << 8) | v;
    if (i < 3) s.remove_prefix(dot + 1);
  }
  return IpAddr(ip);
}

}  // namespace

std::optional<IpAddr> parse_ip(std::string_view s) noexcept {
  char buf[INET6_ADDRSTRLEN + 1];
  if (s.empty() || s.size() >= sizeof buf) return std::nullopt;
  s.copy(buf, s.size());
  buf[s.size()] = '\0';
  if (s.find(':') == std::string_view::npos) return parse_dotted_quad(s);
  std::array<std::uint8_t, 16> b{};
  if (inet_pton(AF_INET6, buf, b.data()) != 1) return std::nullopt;
  return IpAddr::v6(b);
}

std::string format_ip(const IpAddr& a) {
  char buf[INET6_ADDRSTRLEN];
  if (a.is_v4()) {
    const in_addr v{htonl(a.v4())};
    inet_ntop(AF_INET, &v, buf, sizeof buf);
  } else {
    inet_ntop(AF_INET6, a.bytes().data(), buf, sizeof buf);
  }
  return buf;
}

std::optional<IpPrefix> parse_ip_prefix(std::string_view s) noexcept {
  const auto slash = s.find('/');
  const auto ip = parse_ip(s.substr(0, slash));
  if (!ip) return std::nullopt;
  unsigned len = ip->bits();
  if (slash != std::string_view::npos) {
    const std::string_view l = s.substr(slash + 1);
    if (l.empty() || l.size() > 3) return std::nullopt;
    len = 0;
    for (char c : l) {
      if (c < '0' || c > '9') return std::nullopt;
      len = len * 10 + static_cast<unsigned>(c - '0');
    }
    if (len > ip->bits()) return std::nullopt;
  }
  // No bits past len: the prefix equals itself truncated to len bits.
  IpAddr truncated = *ip;
  auto bytes = truncated.bytes();
  const unsigned skip = ip->is_v4() ? 96 : 0;
  for (unsigned bit = skip + len; bit < 128; ++bit) bytes[bit / 8] &= static_cast<std::uint8_t>(~(0x80u >> (bit % 8)));
  if (bytes != ip->bytes()) return std::nullopt;
  return IpPrefix{*ip, static_cast<std::uint8_t>(len)};
}

std::string format_ip_prefix(const IpPrefix& p) { return format_ip(p.addr) + "/" + std::to_string(p.len); }

}  // namespace ecmpsim::hashing
