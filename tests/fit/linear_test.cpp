// The linear learner against a CRC the catalogue does not have: CRC-32 with
// Koopman's polynomial 0x741B8CD7, initial value 0x12345678, computed bit by
// bit here, independent of Boost.CRC.
#include <doctest/doctest.h>

#include <array>
#include <vector>

#include "sim/fit/fit.h"
#include "sim/fit/linear.h"

namespace linear_test {

namespace {

using namespace ecmpsim;

std::uint32_t crc32_koopman(const std::vector<std::uint8_t>& data) {
  std::uint32_t crc = 0x12345678;
  for (std::uint8_t b : data) {
    crc ^= static_cast<std::uint32_t>(b) << 24;
    for (int i = 0; i < 8; ++i) crc = (crc & 0x80000000u) ? (crc << 1) ^ 0x741B8CD7u : crc << 1;
  }
  return crc;
}

// The five-tuple in network order, as switches pack it.
std::uint32_t member_of(const hashing::Tuple& t) {
  std::vector<std::uint8_t> k;
  for (int i = 24; i >= 0; i -= 8) k.push_back(static_cast<std::uint8_t>(t.src_ip.v4() >> i));
  for (int i = 24; i >= 0; i -= 8) k.push_back(static_cast<std::uint8_t>(t.dst_ip.v4() >> i));
  k.push_back(t.proto);
  k.push_back(static_cast<std::uint8_t>(t.sport >> 8));
  k.push_back(static_cast<std::uint8_t>(t.sport));
  k.push_back(static_cast<std::uint8_t>(t.dport >> 8));
  k.push_back(static_cast<std::uint8_t>(t.dport));
  return (crc32_koopman(k) >> 7) & 7;  // 8 members, offset 7, modulo
}

std::uint64_t state = 1;
std::uint32_t next32() {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<std::uint32_t>(state >> 32);
}

hashing::Tuple roce_flow() {
  hashing::Tuple t;
  t.src_ip = next32();
  t.dst_ip = next32();
  t.proto = 17;
  t.sport = static_cast<std::uint16_t>(next32());
  t.dport = 4791;
  return t;
}

fit::Observations observations(std::size_t n) {
  fit::Observations obs;
  obs.source = "koopman.csv";
  obs.fields = hashing::default_fields();
  for (std::size_t i = 0; i < n; ++i) {
    const hashing::Tuple t = roce_flow();
    obs.rows.push_back({t, member_of(t), static_cast<std::uint32_t>(i + 2)});
  }
  return obs;
}

}  // namespace

TEST_CASE("linear: a CRC with a polynomial outside the catalogue, predicted exactly from 300 observations") {
  const fit::Observations obs = observations(300);
  fit::FitOptions opt;
  opt.group.members = 8;
  const fit::FitResult r = fit::fit(obs, opt);
  CHECK(r.models.empty());  // no catalogue model reproduces it
  REQUIRE(r.linear);
  const fit::LinearFit& l = *r.linear;
  // 80 varying key bits (addresses and source port) and the constant.
  CHECK(l.unknowns() == 81);
  CHECK(l.rank() == 81);
  CHECK(l.determined());
  CHECK(r.certain);
  const fit::Predictor predict(r);
  for (int i = 0; i < 5000; ++i) {
    const hashing::Tuple t = roce_flow();
    REQUIRE(predict(t) == member_of(t));
  }
  // A flow with a key bit the observations never varied is not guessed.
  hashing::Tuple tcp = roce_flow();
  tcp.proto = 6;
  CHECK_FALSE(predict(tcp).has_value());
}

TEST_CASE("linear: with fewer observations than unknowns it is consistent but not determined") {
  const fit::Observations obs = observations(40);
  const fit::LinearFit l(obs, {8, {}, 128});
  CHECK(l.consistent());
  CHECK(l.rank() == 40);
  CHECK_FALSE(l.determined());
}

TEST_CASE("linear: a non-affine member function is caught as a contradiction naming its lines") {
  fit::Observations obs = observations(200);
  // Negative control: the same rows are consistent before the change.
  CHECK(fit::LinearFit(obs, {8, {}, 128}).consistent());
  for (auto& o : obs.rows) o.member = (o.tuple.src_ip.v4() % 7) & 7;  // modulo 7 mixes every bit non-linearly
  const fit::LinearFit l(obs, {8, {}, 128});
  CHECK_FALSE(l.consistent());
  CHECK(l.contradiction().size() >= 2);
  CHECK(l.contradiction().back() <= 201);
}

TEST_CASE("linear: not applicable to groups whose size is not a power of two") {
  const fit::LinearFit l(observations(10), {6, {}, 128});
  CHECK_FALSE(l.applicable());
}

namespace {

// An IPv6 RoCEv2 flow in fd00::/64 with a random flow label.
hashing::Tuple roce_flow_v6() {
  hashing::Tuple t;
  std::array<std::uint8_t, 16> a{0xfd}, b{0xfd};
  for (int i = 8; i < 16; ++i) {
    a[i] = static_cast<std::uint8_t>(next32());
    b[i] = static_cast<std::uint8_t>(next32());
  }
  t.src_ip = hashing::IpAddr::v6(a);
  t.dst_ip = hashing::IpAddr::v6(b);
  t.proto = 17;
  t.sport = static_cast<std::uint16_t>(next32());
  t.dport = 4791;
  t.flow_label = next32() & 0xFFFFF;
  return t;
}

// The five-tuple and the flow label as a switch packs them for IPv6: both
// 16-byte addresses in network order, then the label as 4 bytes (20 bits
// right-aligned) — 41 bytes, 328 bits, wider than any IPv4 key.
std::uint32_t member_of_v6(const hashing::Tuple& t) {
  std::vector<std::uint8_t> k;
  const auto s = t.src_ip.bytes(), d = t.dst_ip.bytes();
  k.insert(k.end(), s.begin(), s.end());
  k.insert(k.end(), d.begin(), d.end());
  k.push_back(t.proto);
  for (std::uint16_t p : {t.sport, t.dport}) {
    k.push_back(static_cast<std::uint8_t>(p >> 8));
    k.push_back(static_cast<std::uint8_t>(p));
  }
  for (int i = 24; i >= 0; i -= 8) k.push_back(static_cast<std::uint8_t>(t.flow_label >> i));
  return (crc32_koopman(k) >> 3) & 15;  // 16 members, offset 3, modulo
}

fit::Observations observations_v6(std::size_t n) {
  fit::Observations obs;
  obs.source = "koopman6.csv";
  obs.fields = hashing::default_fields();
  obs.fields.push_back(hashing::Field::FlowLabel);
  for (std::size_t i = 0; i < n; ++i) {
    const hashing::Tuple t = roce_flow_v6();
    obs.rows.push_back({t, member_of_v6(t), static_cast<std::uint32_t>(i + 2)});
  }
  return obs;
}

}  // namespace

TEST_CASE("linear: IPv6 keys with the flow label (328 bits) are learned and predicted exactly") {
  const fit::Observations obs = observations_v6(400);
  const fit::LinearFit l(obs, {16, {}, 128});
  REQUIRE(l.applicable());
  // 64 + 64 varying address bits, 16 of the source port, 20 of the label, and the constant.
  CHECK(l.unknowns() == 165);
  CHECK(l.rank() == 165);
  CHECK(l.consistent());
  CHECK(l.determined());
  for (int i = 0; i < 3000; ++i) {
    const hashing::Tuple t = roce_flow_v6();
    REQUIRE(l.predict(t) == member_of_v6(t));
  }
  // An IPv4 flow's key is shorter: the map says nothing about it.
  CHECK_FALSE(l.predict(roce_flow()).has_value());
}

TEST_CASE("linear: IPv6 negative controls — a non-affine member, a flipped one, mixed families") {
  fit::Observations obs = observations_v6(300);
  // Members by the source address modulo 13: not affine in the key bits.
  for (auto& o : obs.rows) o.member = static_cast<std::uint32_t>(o.tuple.src_ip.bytes()[15] % 13) & 15;
  CHECK_FALSE(fit::LinearFit(obs, {16, {}, 128}).consistent());
  // One flipped member among 300 exact ones is found once the map is determined (rank 165).
  obs = observations_v6(300);
  obs.rows[250].member ^= 4;
  const fit::LinearFit flipped(obs, {16, {}, 128});
  CHECK_FALSE(flipped.consistent());
  CHECK(flipped.contradiction().back() == 252);  // row 250 is line 252
  // Mixed key lengths (bypassing the reader, which rejects them) are declined, not misread.
  obs = observations_v6(50);
  obs.rows[10].tuple = roce_flow();
  const fit::LinearFit mixed(obs, {16, {}, 128});
  CHECK_FALSE(mixed.applicable());
  CHECK(mixed.why_not().find("mix IPv4 and IPv6") != std::string::npos);
}
}  // namespace linear_test
