// `hash` (see hash.h).
#include "sim/app/hash.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <memory>
#include <tuple>
#include <nlohmann/json.hpp>

#include "hashing/suggest.h"
#include "hashing/vocabulary.h"
#include "sim/base/error.h"
#include "sim/routing/hash_query.h"
#include "sim/base/input_file.h"
#include "sim/base/parse.h"

namespace ecmpsim::app {
namespace {

std::uint64_t number(const std::string& flag, const std::string& v, std::uint64_t max) {
  const auto n = parse_uint(v, max);
  if (!n) throw InputError(option_at(flag), "invalid value '" + v + "' (0.." + std::to_string(max) + ")");
  return *n;
}

// An address flag: IPv4 or IPv6; empty = 0 (a field the key does not hash);
// `family`, when given, is the one the other address has.
hashing::IpAddr address(const std::string& flag, const std::string& v, std::optional<hashing::Family> family) {
  if (v.empty()) return family == hashing::Family::V6 ? hashing::IpAddr::v6(std::array<std::uint8_t, 16>{}) : 0u;
  const auto ip = hashing::parse_ip(v);
  if (!ip) throw InputError(option_at(flag), "invalid IP address '" + v + "' (IPv4 10.0.0.1 or IPv6 fd00::1)");
  if (family && ip->family() != *family)
    throw InputError(option_at(flag), "'" + v + "' is " + std::string(hashing::family_name(ip->family())) +
                                           " but " + option_ref("src") + " is " + std::string(hashing::family_name(*family)));
  return *ip;
}

std::string key_hex(const HashQuery& q, const hashing::Tuple& t) {
  hashing::KeyBuffer key;
  const std::size_t n = hashing::build_key(q.algo->layout, q.fields, t, key);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    s += kHex[key[i] >> 4];
    s += kHex[key[i] & 15];
  }
  return s;
}

// The addresses and source port the key hashes must be given: hashing a
// forgotten one as zero would print a plausible, wrong member.
void require_hashed(const HashOptions& o, const HashQuery& q) {
  // The addresses and source port a key reads are the same in both families.
  const auto fields = hashing::key_fields(q.algo->layout, hashing::Family::V4, q.fields);
  auto hashed = [&](hashing::Field f) { return std::find(fields.begin(), fields.end(), f) != fields.end(); };
  const std::array<std::tuple<hashing::Field, const char*, const std::string*>, 3> flags{
      {{hashing::Field::SrcIp, "src", &o.src}, {hashing::Field::DstIp, "dst", &o.dst},
       {hashing::Field::SrcPort, "sport", &o.sport}}};
  for (const auto& [field, flag, value] : flags)
    if (value->empty() && hashed(field))
      throw InputError(option_at(flag), "required: the key hashes it (or give flows with " + option_ref("tuples") + " FILE)");
}

}  // namespace

HashQuery make_query(const HashOptions& o) {
  HashQuery q;
  q.algo = hashing::find(o.algo);
  if (q.algo == nullptr) throw InputError(option_at("algo"), unknown_algorithm(o.algo));
  if (!o.fields.empty())
    if (const auto why = parse_field_list(o.fields, q.fields)) throw InputError(option_at("fields"), *why);
  q.seed = static_cast<std::uint32_t>(number("seed", o.seed, 0xFFFFFFFFu));
  const auto seed_as = o.seed_as.empty() ? hashing::default_seed_as(o.algo) : hashing::parse_seed_as(o.seed_as);
  if (!seed_as)
    throw InputError(option_at("seed_as"),
                     "unknown convention '" + o.seed_as + "' (" + quoted_choices(hashing::kSeedAs) + ")");
  q.seed_as = *seed_as;
  q.offset = static_cast<std::uint32_t>(number("offset", o.offset, 63));
  const auto sel = o.select.empty() ? hashing::default_selection(*q.algo) : hashing::parse_selection(o.select);
  if (!sel) throw InputError(option_at("select"), "unknown selection '" + o.select + "' (modulo, threshold, resilient)");
  q.select = *sel;
  if (o.members.empty()) throw InputError(option_at("members"), "required: the members in the ECMP group");
  q.members = static_cast<std::uint32_t>(number("members", o.members, 1u << 16));
  if (q.members == 0) throw InputError(option_at("members"), "need at least one member");
  if (!o.weights.empty()) {
    for (const auto& w : o.weights) q.weights.push_back(static_cast<std::uint32_t>(number("weights", w, 1u << 24)));
    if (q.weights.size() != q.members)
      throw InputError(option_at("weights"), "expected " + std::to_string(q.members) + " weights, one per member");
    for (auto w : q.weights)
      if (w == 0) throw InputError(option_at("weights"), "weights must be positive");
  }
  if (!o.rss_key.empty()) {
    if (q.algo->fn != &hashing::toeplitz) throw InputError(option_at("rss_key"), "only used with " + option_ref("algo") + " toeplitz");
    q.rss_key = hashing::parse_rss_key(o.rss_key);
    if (!q.rss_key) throw InputError(option_at("rss_key"), "expected 40 bytes as 80 hex digits (':' separators allowed)");
  }
  q.buckets = static_cast<std::uint32_t>(number("buckets", o.buckets, 1u << 20));
  if (q.buckets < q.members) throw InputError(option_at("buckets"), "need at least one bucket per member");
  return q;
}

HashOne hash_one(const HashOptions& o) {
  if (o.algo.empty()) throw InputError(option_at("algo"), "required (see " + option_ref("list") + ")");
  const HashCalculator calc(make_query(o));
  require_hashed(o, calc.query());
  hashing::Tuple t;
  // Fields the key does not hash may be left out (require_hashed): zero.
  t.src_ip = address("src", o.src, std::nullopt);
  t.dst_ip = address("dst", o.dst, o.src.empty() ? std::nullopt : std::optional(t.src_ip.family()));
  t.proto = static_cast<std::uint8_t>(number("proto", o.proto, 255));
  t.sport = o.sport.empty() ? 0 : static_cast<std::uint16_t>(number("sport", o.sport, 65535));
  t.dport = static_cast<std::uint16_t>(number("dport", o.dport, 65535));
  t.dst_qp = static_cast<std::uint32_t>(number("dst_qp", o.dst_qp, 0xFFFFFF));
  t.flow_label = static_cast<std::uint32_t>(number("flow_label", o.flow_label, 0xFFFFF));
  t.in_port = static_cast<std::uint16_t>(number("in_port", o.in_port, 65535));
  for (const auto& [flag, text, mac] : {std::tuple{"src_mac", &o.src_mac, &t.src_mac}, std::tuple{"dst_mac", &o.dst_mac, &t.dst_mac}}) {
    const auto v = parse_mac(*text);
    if (!v) throw InputError(option_at(flag), "invalid MAC address '" + *text + "' (xx:xx:xx:xx:xx:xx)");
    *mac = *v;
  }
  // The ethertype a routed packet of the address family carries, unless given.
  t.ethertype = o.ethertype.empty() ? (t.src_ip.is_v4() ? hashing::kEtherTypeIpv4 : hashing::kEtherTypeIpv6)
                                    : static_cast<std::uint16_t>(number("ethertype", o.ethertype, 65535));
  t.vlan_id = static_cast<std::uint16_t>(number("vlan_id", o.vlan_id, 4095));
  return {calc.query(), t, calc(t)};
}

Json HashOne::json() const {
  const HashQuery& q = query;
  return Json{{"algo", q.algo->name},
              {"hash", format_hash(answer.hash, q.algo->bits)},
              {"member", answer.member},
              {"members", q.members},
              {"select", hashing::selection_name(q.select)},
              {"seed", q.seed},
              {"seed_as", hashing::seed_as_name(q.seed_as)},
              {"key", key_hex(q, tuple)}};
}

std::string HashOne::text() const {
  const HashQuery& q = query;
  return "algo    " + std::string(q.algo->name) + " (" + std::to_string(q.algo->bits) + " bits, seed " +
         std::to_string(q.seed) +
         (q.seed_as == hashing::SeedAs::Register ? "" : " as " + std::string(hashing::seed_as_name(q.seed_as))) +
         ")\nkey     " + key_hex(q, tuple) + "\nhash    " +
         format_hash(answer.hash, q.algo->bits) + "\nmember  " + std::to_string(answer.member) + " of " +
         std::to_string(q.members) + " (" + std::string(hashing::selection_name(q.select)) + ")\n";
}

Result HashOne::result() const {
  Result r;
  r.json = [this](JsonWriter& w) { w.value(json()); };
  r.json_indent = -1;
  r.text = [this] { return text(); };
  return r;
}

namespace {

std::string catalogue_text() {
  std::string text;
  for (const auto& a : hashing::catalogue())
    text += std::string(a.name) + " (" + std::to_string(a.bits) + " bits" +
            (a.sai.empty() ? "" : "; SAI " + std::string(a.sai)) + "): " + std::string(a.doc) + "\n";
  for (const auto& v : hashing::vendor_defined())
    text += std::string(v.name) + " (SAI, ASIC-specific): " + std::string(v.what) + "; closest: " +
            std::string(v.closest) + "\n";
  return text;
}

}  // namespace

HashReport hash(const HashOptions& o) {
  if (o.list) return {catalogue_text(), std::nullopt};
  if (o.algo.empty()) throw InputError(option_at("algo"), "required (see " + option_ref("list") + ")");
  if (o.tuples.empty()) return {{}, hash_one(o)};
  const HashCalculator calc(make_query(o));
  const std::string input = read_input_or_stdin(o.tuples, "file", {o.max_capture_bytes, "max_capture_bytes"});
  std::string text;
  text.reserve(input.size() / 2);
  const unsigned bits = calc.query().algo->bits;
  for_each_tuple_csv(input, o.tuples == "-" ? "<stdin>" : o.tuples, [&](const hashing::Tuple& t) {
    const HashAnswer a = calc(t);
    text += format_hash(a.hash, bits);
    char buf[16];
    buf[0] = ',';
    char* end = std::to_chars(buf + 1, buf + sizeof buf - 1, a.member).ptr;
    *end++ = '\n';
    text.append(buf, end);
  });
  return {std::move(text), std::nullopt};
}

}  // namespace ecmpsim::app
