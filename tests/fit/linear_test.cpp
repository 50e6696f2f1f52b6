// The linear learner against a CRC the catalogue does not have: CRC-32 with
// Koopman's polynomial 0x741B8CD7, initial value 0x12345678, computed bit by
// bit here, independent of Boost.CRC.
#include <doctest/doctest.h>

#include <vector>

#include "sim/fit/fit.h"
#include "sim/fit/linear.h"

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
