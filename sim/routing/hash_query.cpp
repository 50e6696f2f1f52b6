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
  const std::uint64_t value = hashing::switch_raw_hash(*q_.algo, q_.rss_key, q_.seed_as, k, q_.seed);
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

bool parse_tuple_fields(const CsvLine& line, hashing::Tuple& t, std::size_t& bad_column,
                        std::string& why) noexcept {
  const auto& f = line.fields;
  if (f.size() > 6) {
    bad_column = f[6].column - 1;  // the comma that opens the seventh field
    why = "expected 5 or 6 fields src,dst,proto,sport,dport[,flow_label], found more";
    return false;
  }
  if (f.size() < 5) {
    bad_column = line.end_column;
    why = "expected 5 fields src,dst,proto,sport,dport";
    return false;
  }
  for (int i = 0; i < 2; ++i) {
    bad_column = f[i].column;
    const auto ip = hashing::parse_ip(f[i].text);
    if (!ip) {
      why = "invalid IP address '" + std::string(f[i].text) + "'";
      return false;
    }
    if (i == 1 && ip->family() != t.src_ip.family()) {
      why = "destination " + std::string(f[i].text) + " is " + std::string(hashing::family_name(ip->family())) +
            " but the source is " + std::string(hashing::family_name(t.src_ip.family()));
      return false;
    }
    (i == 0 ? t.src_ip : t.dst_ip) = *ip;
  }
  t.ethertype = t.src_ip.is_v4() ? hashing::kEtherTypeIpv4 : hashing::kEtherTypeIpv6;
  std::uint64_t n = 0;
  bad_column = f[2].column;
  if (!parse_field(f[2].text, 255, n)) {
    why = "invalid protocol '" + std::string(f[2].text) + "' (0..255)";
    return false;
  }
  t.proto = static_cast<std::uint8_t>(n);
  for (int i = 3; i < 5; ++i) {
    bad_column = f[i].column;
    if (!parse_field(f[i].text, 65535, n)) {
      why = "invalid port '" + std::string(f[i].text) + "' (0..65535)";
      return false;
    }
    (i == 3 ? t.sport : t.dport) = static_cast<std::uint16_t>(n);
  }
  t.flow_label = 0;
  if (f.size() == 6) {
    bad_column = f[5].column;
    if (!parse_field(f[5].text, 0xFFFFF, n)) {
      why = "invalid flow label '" + std::string(f[5].text) + "' (20 bits: 0..1048575)";
      return false;
    }
    t.flow_label = static_cast<std::uint32_t>(n);
  }
  return true;
}

void throw_csv_error(const std::string& name, std::size_t line, std::size_t column, const std::string& why) {
  throw InputError({name, static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(column), {}}, why);
}

}  // namespace ecmpsim
