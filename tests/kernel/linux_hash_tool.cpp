// ecmpsim's side of the kernel agreement test (tests/kernel/linux_multipath.sh):
// reads directives and tuples on stdin and prints, per tuple, the next-hop
// index the linux-l3 / linux-l4 model chooses.
//
//   seed S                 net.ipv4.fib_multipath_hash_seed (decimal or 0x..)
//   policy P               fib_multipath_hash_policy, 0 or 1
//   weights W1 W2 ...      next hops in route order (weight = `weight` in ip route)
//   SRC DST PROTO SPORT DPORT [FLOWLABEL]
//
// Addresses are IPv4 or IPv6 (the model follows the family); FLOWLABEL is
// the IPv6 flow label (20 bits, hashed by policy 0), 0 when absent.
//
// Directives apply to the tuples after them. Blank lines and lines starting
// with '#' are ignored. With --hash each output line is "index hash".
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "hashing/address.h"
#include "hashing/hasher.h"
#include "hashing/key.h"
#include "hashing/select.h"

namespace {

namespace h = ecmpsim::hashing;

[[noreturn]] void fail(std::size_t line, const std::string& what) {
  std::cerr << "linux_hash_tool: line " << line << ": " << what << '\n';
  std::exit(2);
}

h::IpAddr parse_ip(const std::string& s, std::size_t line) {
  const auto a = h::parse_ip(s);
  if (!a) fail(line, "bad IP address '" + s + "'");
  return *a;
}

std::uint64_t parse_uint(const std::string& s, std::uint64_t max, std::size_t line) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 0);
  if (s.empty() || *end != '\0' || errno != 0 || v > max) fail(line, "bad number '" + s + "'");
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  const bool print_hash = argc > 1 && std::string_view(argv[1]) == "--hash";
  std::uint32_t seed = 0;
  const h::Algorithm* algo = h::find("linux-l3");
  std::vector<std::uint32_t> weights{1, 1};
  std::vector<std::uint64_t> bounds = h::threshold_bounds(weights, algo->bits);

  std::string text;
  std::size_t lineno = 0;
  while (std::getline(std::cin, text)) {
    ++lineno;
    std::istringstream in(text);
    std::string first;
    if (!(in >> first) || first[0] == '#') continue;
    if (first == "seed") {
      std::string v;
      in >> v;
      seed = static_cast<std::uint32_t>(parse_uint(v, 0xFFFFFFFFu, lineno));
    } else if (first == "policy") {
      std::string v;
      in >> v;
      const auto p = parse_uint(v, 1, lineno);
      algo = h::find(p == 0 ? "linux-l3" : "linux-l4");
      bounds = h::threshold_bounds(weights, algo->bits);
    } else if (first == "weights") {
      weights.clear();
      std::string v;
      while (in >> v) weights.push_back(static_cast<std::uint32_t>(parse_uint(v, 256, lineno)));
      if (weights.empty()) fail(lineno, "weights needs at least one value");
      bounds = h::threshold_bounds(weights, algo->bits);
    } else {
      std::string dst, proto, sport, dport;
      if (!(in >> dst >> proto >> sport >> dport)) fail(lineno, "expected SRC DST PROTO SPORT DPORT");
      h::Tuple t;
      t.src_ip = parse_ip(first, lineno);
      t.dst_ip = parse_ip(dst, lineno);
      t.proto = static_cast<std::uint8_t>(parse_uint(proto, 255, lineno));
      t.sport = static_cast<std::uint16_t>(parse_uint(sport, 65535, lineno));
      t.dport = static_cast<std::uint16_t>(parse_uint(dport, 65535, lineno));
      std::string label;
      if (in >> label) t.flow_label = static_cast<std::uint32_t>(parse_uint(label, 0xFFFFF, lineno));
      h::KeyBuffer buf;
      const std::size_t n = h::build_key(algo->layout, {}, t, buf);
      const std::uint64_t hash = algo->fn(h::Key(buf.data(), n), seed);
      std::cout << h::select_threshold(hash, bounds);
      if (print_hash) std::cout << ' ' << hash;
      std::cout << '\n';
    }
  }
  return 0;
}
