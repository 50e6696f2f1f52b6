// Where a switch's seed enters (hashing/seed_as.h), checked against SONiC's
// SAI-P4 program computed here from its own text, independently of ecmpsim's
// hashing code: sonic-net/sonic-pins, commit 5b9097d86b4e6518477242413aba7da72b06094a
// (Apache-2.0), sai_p4/instantiations/google/hashing.p4, action
// compute_ecmp_hash_ipv4:
//
//   hash(local_metadata.wcmp_selector_input, HashAlgorithm.crc32, /*base=*/1w0, {
//        seed, headers.ipv4.src_addr, headers.ipv4.dst_addr,
//        local_metadata.l4_src_port, local_metadata.l4_dst_port},
//        /*max=2^16=*/17w0x10000);
//   local_metadata.wcmp_selector_input =
//       local_metadata.wcmp_selector_input >> offset |
//       local_metadata.wcmp_selector_input << (WCMP_SELECTOR_INPUT_BITWIDTH - offset);
//
// with `bit<32> seed`, WCMP_SELECTOR_INPUT_BITWIDTH 16 (sai_p4/fixed/bitwidths.p4)
// and the annotations @sai_hash_algorithm(SAI_HASH_ALGORITHM_CRC_32LO),
// @sai_native_hash_field(SAI_NATIVE_HASH_FIELD_SRC_IPV4), ...(DST_IPV4),
// ...(L4_SRC_PORT), ...(L4_DST_PORT). The field list is the concatenation of
// the fields, big-endian (128 bits, 16 bytes); v1model's hash() is base +
// (crc32 mod max), i.e. the low 16 bits; the wcmp_group_table's action
// selector (routing.p4: action_selector(HashAlgorithm.identity, ...,
// WCMP_SELECTOR_INPUT_BITWIDTH)) picks member (selector input mod group size)
// (p4lang/behavioral-model src/bm_sim/action_profile.cpp,
// GroupMgr::get_from_hash: group_info.get_nth(h % s)).
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "hashing/suggest.h"
#include "hashing/vocabulary.h"
#include "sim/base/error.h"
#include "sim/base/splitmix.h"
#include "sim/fit/fit.h"
#include "sim/routing/hash_query.h"

namespace seed_as_test {

namespace {

using namespace ecmpsim;

// CRC-32 (IEEE 802.3) bit by bit, reflected: poly 0xEDB88320, register
// 0xFFFFFFFF, output XORed with 0xFFFFFFFF. `reg` is the reflected register.
std::uint32_t crc32_update(std::uint32_t reg, const std::uint8_t* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    reg ^= p[i];
    for (int b = 0; b < 8; ++b) reg = (reg >> 1) ^ ((reg & 1u) ? 0xEDB88320u : 0u);
  }
  return reg;
}
std::uint32_t crc32_of(const std::vector<std::uint8_t>& bytes) {
  return crc32_update(0xFFFFFFFFu, bytes.data(), bytes.size()) ^ 0xFFFFFFFFu;
}

void put(std::vector<std::uint8_t>& out, std::uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

struct Flow {
  std::uint32_t src, dst;
  std::uint16_t sport, dport;
};

// The P4 program's member for one IPv4 flow.
std::uint32_t p4_member(const Flow& f, std::uint32_t seed, unsigned offset, std::uint32_t members) {
  std::vector<std::uint8_t> list;
  put(list, seed, 4);
  put(list, f.src, 4);
  put(list, f.dst, 4);
  put(list, f.sport, 2);
  put(list, f.dport, 2);
  const std::uint32_t in = crc32_of(list) % 0x10000u;  // base 0 + hash mod 2^16
  const std::uint32_t rotated = ((in >> offset) | (in << (16 - offset))) & 0xFFFFu;
  return rotated % members;
}

std::vector<Flow> flows(std::size_t n) {
  std::vector<Flow> out;
  SplitMix64 draw{49};
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = draw.next();
    out.push_back({0x0A000000u | static_cast<std::uint32_t>(r & 0xFFFF), 0x0A010000u | static_cast<std::uint32_t>((r >> 16) & 0xFFFF),
                   static_cast<std::uint16_t>(49152 + ((r >> 32) & 0x3FFF)), 4791});
  }
  return out;
}

hashing::Tuple tuple_of(const Flow& f) {
  hashing::Tuple t;
  t.src_ip = f.src;
  t.dst_ip = f.dst;
  t.proto = 17;
  t.sport = f.sport;
  t.dport = f.dport;
  return t;
}

// ecmpsim's switch as the P4 program's annotations configure it, named in SAI's words.
HashQuery sai_switch(std::uint32_t seed, unsigned offset, std::uint32_t members) {
  HashQuery q;
  q.algo = hashing::find("SAI_HASH_ALGORITHM_CRC_32LO");
  const std::vector<std::string> fields{"SAI_NATIVE_HASH_FIELD_SRC_IPV4", "SAI_NATIVE_HASH_FIELD_DST_IPV4",
                                        "SAI_NATIVE_HASH_FIELD_L4_SRC_PORT", "SAI_NATIVE_HASH_FIELD_L4_DST_PORT"};
  REQUIRE_FALSE(parse_field_list(fields, q.fields).has_value());
  q.seed = seed;
  q.seed_as = hashing::default_seed_as("SAI_HASH_ALGORITHM_CRC_32LO");
  q.offset = offset;
  q.members = members;
  return q;
}

std::size_t agreeing(const HashQuery& q, const std::vector<Flow>& fs, std::uint32_t seed, unsigned offset) {
  const HashCalculator calc(q);
  std::size_t n = 0;
  for (const Flow& f : fs) n += calc(tuple_of(f)).member == p4_member(f, seed, offset, q.members);
  return n;
}

}  // namespace

TEST_CASE("the independent CRC-32 is CRC-32: the published check value") {
  const std::string check = "123456789";
  CHECK(crc32_of({check.begin(), check.end()}) == 0xCBF43926u);
}

TEST_CASE("SAI names take SONiC's SAI-P4 convention: the program's members for 1,000 flows, every size and offset") {
  CHECK(hashing::default_seed_as("SAI_HASH_ALGORITHM_CRC_32LO") == hashing::SeedAs::Prefix);
  CHECK(hashing::default_seed_as("crc_32lo") == hashing::SeedAs::Prefix);
  CHECK(hashing::default_seed_as("crc32-lo") == hashing::SeedAs::Register);
  const std::vector<Flow> fs = flows(1000);
  // The seed the program ships with (ECMP_HASH_SEED 0) and others.
  for (const std::uint32_t seed : {0u, 10u, 0xDEADBEEFu}) {
    for (const std::uint32_t members : {2u, 3u, 4u, 7u, 8u, 16u, 64u}) {
      for (const unsigned offset : {0u, 4u, 8u, 15u}) {
        CAPTURE(seed);
        CAPTURE(members);
        CAPTURE(offset);
        CHECK(agreeing(sai_switch(seed, offset, members), fs, seed, offset) == 1000);
      }
    }
  }
}

TEST_CASE("the register convention with the switch's own seed is another switch; its equivalent register is not") {
  const std::vector<Flow> fs = flows(1000);
  // For a CRC the two conventions differ by one XOR constant over keys of one
  // length: c = crc32(00 00 00 00 . k) ^ crc32(k), the same for every 12-byte k.
  std::vector<std::uint8_t> key(12, 0), prefixed(16, 0);
  const std::uint32_t c = (crc32_of(prefixed) ^ crc32_of(key)) & 0xFFFFu;
  for (const std::uint32_t members : {2u, 3u, 4u, 7u, 16u}) {
    CAPTURE(members);
    HashQuery q = sai_switch(0, 0, members);
    q.seed_as = hashing::SeedAs::Register;
    const std::size_t agree = agreeing(q, fs, 0, 0);
    MESSAGE("register convention, seed 0, ", members, " members: ", agree, "/1000 of the program's members");
    if ((members & (members - 1)) == 0) {
      // A power of two reads c's low bits: every flow moves, or none does.
      CHECK(agree == ((c & (members - 1)) == 0 ? 1000u : 0u));
    } else {
      // Otherwise the member of (h ^ c) mod n matches h mod n about 1/n of the time.
      CHECK(agree < 1000 / members + 100);
    }
    // The register the program's seed 0 leaves after its four bytes: the
    // reflected register after 00 00 00 00 from 0xFFFFFFFF, as the value a
    // non-reflected initial register would hold, XORed with CRC-32's own.
    const std::array<std::uint8_t, 4> zero{};
    const std::uint32_t reg = crc32_update(0xFFFFFFFFu, zero.data(), zero.size());
    std::uint32_t unreflected = 0;
    for (int b = 0; b < 32; ++b) unreflected |= ((reg >> b) & 1u) << (31 - b);
    q.seed = unreflected ^ 0xFFFFFFFFu;
    CHECK(agreeing(q, fs, 0, 0) == 1000);
  }
}

TEST_CASE("the xor convention XORs the seed into the output, the algorithm run with seed 0") {
  const hashing::Algorithm& a = *hashing::find("crc32");
  const std::array<std::uint8_t, 5> key{1, 2, 3, 4, 5};
  CHECK(hashing::seeded(a, hashing::SeedAs::Xor, key, 0x1234u) == (a.fn(key, 0) ^ 0x1234u));
  CHECK(hashing::seeded(a, hashing::SeedAs::Register, key, 0x1234u) == a.fn(key, 0x1234u));
  CHECK(hashing::seeded(a, hashing::SeedAs::Register, key, 0x1234u) != hashing::seeded(a, hashing::SeedAs::Xor, key, 0x1234u));
}

TEST_CASE("fit reports the seed in the convention of the vocabulary asked for") {
  // Observations of the program's switch with seed 7 over 3 members (no
  // power of two: the seed-by-seed search, which tries seeds 0..65535).
  const std::vector<Flow> fs = flows(1300);
  fit::Observations obs;
  obs.source = "p4.csv";
  obs.fields = hashing::default_fields();
  for (std::size_t i = 0; i < 300; ++i) {
    fit::Observation o;
    o.tuple = tuple_of(fs[i]);
    o.member = p4_member(fs[i], 7, 0, 3);
    o.line = static_cast<std::uint32_t>(i + 2);
    obs.rows.push_back(o);
  }
  fit::FitOptions opt;
  opt.group.members = 3;
  opt.algos = {hashing::find("CRC_32LO")};
  opt.fields = std::vector<hashing::Field>{hashing::Field::SrcIp, hashing::Field::DstIp, hashing::Field::SrcPort,
                                           hashing::Field::DstPort};
  opt.seed_as = hashing::vocabulary(hashing::Vocabulary::Sai).seed_as;
  const fit::FitResult sai = fit::fit(obs, opt);
  REQUIRE_FALSE(sai.models.empty());
  CHECK(sai.models.front().seed_as == hashing::SeedAs::Prefix);
  CHECK(sai.models.front().seed == 7);
  CHECK(sai.models.front().offset == 0);
  // Held-out flows: the fitted model is the program.
  const fit::Selector pick(sai.models.front(), opt.group);
  std::size_t same = 0;
  for (std::size_t i = 300; i < fs.size(); ++i) same += pick.member(tuple_of(fs[i])) == p4_member(fs[i], 7, 0, 3);
  CHECK(same == 1000);
  // Asked in the catalogue's convention, the same switch is another number:
  // a register seed with the same effect on the 16 bits read, or none below 65536.
  opt.seed_as = hashing::SeedAs::Register;
  try {
    const fit::FitResult catalogue = fit::fit(obs, opt);
    REQUIRE_FALSE(catalogue.models.empty());
    MESSAGE("register convention: seed ", catalogue.models.front().seed);
    CHECK(catalogue.models.front().seed_as == hashing::SeedAs::Register);
    CHECK(catalogue.models.front().seed != 7);
  } catch (const InputError& e) {
    MESSAGE("register convention: ", e.what());
  }
}

}  // namespace seed_as_test
