#include "sim/routing/hash_query.h"

#include <charconv>

#include "sim/base/error.h"
#include "sim/base/parse.h"

namespace ecmpsim {

HashCalculator::HashCalculator(HashQuery q) : q_(std::move(q)) {
  std::vector<std::uint32_t> w = q_.weights;
  if (w.empty()) w.assign(q_.members, 1);
  if (q_.select == hashing::Selection::Threshold) bounds_ = hashing::threshold_bounds(w, q_.algo->bits);
  if (q_.select == hashing::Selection::Resilient) buckets_ = hashing::resilient_buckets(w, q_.buckets);
}

HashAnswer HashCalculator::operator()(const hashing::Tuple& t) const noexcept {
  hashing::KeyBuffer key;
  const std::size_t n = hashing::build_key(q_.algo->layout, q_.fields, t, key);
  const unsigned bits = q_.algo->bits;
  const hashing::Key k{key.data(), n};
  const std::uint64_t value = q_.rss_key ? hashing::toeplitz_hash(k, *q_.rss_key, q_.seed) : q_.algo->fn(k, q_.seed);
  const std::uint64_t raw = hashing::window(value, bits, 0);
  const std::uint64_t h = hashing::window(raw, bits, q_.offset);
  HashAnswer a{raw, 0};
  switch (q_.select) {
    case hashing::Selection::Modulo: a.member = hashing::select_modulo(h, q_.members); break;
    case hashing::Selection::Threshold: a.member = hashing::select_threshold(h, bounds_); break;
    case hashing::Selection::Resilient: a.member = buckets_[h % buckets_.size()]; break;
  }
  return a;
}

std::string format_hash(std::uint64_t h, unsigned bits) {
  static constexpr char kHex[] = "0123456789abcdef";
  const unsigned digits = (bits + 3) / 4;
  std::string s = "0x";
  for (unsigned i = digits; i-- > 0;) s += kHex[(h >> (4 * i)) & 15];
  return s;
}

namespace {

bool parse_field(std::string_view v, std::uint64_t max, std::uint64_t& out) {
  if (v.empty()) return false;
  const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  return ec == std::errc{} && p == v.data() + v.size() && out <= max;
}

}  // namespace

bool parse_tuple_line(std::string_view line, hashing::Tuple& t, std::size_t& bad_column, std::string& why) noexcept {
  std::size_t start = 0;
  for (int i = 0; i < 5; ++i) {
    const std::size_t comma = line.find(',', start);
    if (i < 4 && comma == std::string_view::npos) {
      bad_column = line.size() + 1;
      why = "expected 5 fields src,dst,proto,sport,dport";
      return false;
    }
    if (i == 4 && comma != std::string_view::npos) {
      bad_column = comma + 1;
      why = "expected 5 fields src,dst,proto,sport,dport, found more";
      return false;
    }
    const std::string_view v = line.substr(start, i < 4 ? comma - start : std::string_view::npos);
    bad_column = start + 1;
    std::uint64_t n = 0;
    switch (i) {
      case 0:
      case 1: {
        const auto ip = parse_ipv4(v);
        if (!ip) {
          why = "invalid IPv4 address '" + std::string(v) + "'";
          return false;
        }
        (i == 0 ? t.src_ip : t.dst_ip) = *ip;
        break;
      }
      case 2:
        if (!parse_field(v, 255, n)) {
          why = "invalid protocol '" + std::string(v) + "' (0..255)";
          return false;
        }
        t.proto = static_cast<std::uint8_t>(n);
        break;
      default:
        if (!parse_field(v, 65535, n)) {
          why = "invalid port '" + std::string(v) + "' (0..65535)";
          return false;
        }
        (i == 3 ? t.sport : t.dport) = static_cast<std::uint16_t>(n);
    }
    start = comma + 1;
  }
  return true;
}

void throw_csv_error(const std::string& name, std::size_t line, std::size_t column, const std::string& why) {
  throw InputError({name, static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(column), {}}, why);
}

}  // namespace ecmpsim
