// A trace of several switches (issue 34): each switch's rows are fitted with
// its own group size, switches that hash alike are reported together, a
// contradiction names its switch, and rows of two switches never contradict.
// The observations come from hidden models run by `ecmpsim hash`'s engine
// (sim/routing/hash_query.h), and the fits are judged on flows they never saw.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "sim/base/error.h"
#include "sim/base/splitmix.h"
#include "sim/fit/switches.h"
#include "sim/routing/hash_query.h"

namespace switches_test {

namespace {

using namespace ecmpsim;

// SplitMix64 (sim/base/splitmix.h), as tests/fit/fit_test.cpp draws its flows.
struct Draw {
  SplitMix64 g;
  std::uint32_t below(std::uint64_t n) { return static_cast<std::uint32_t>(g.below(n)); }
};

hashing::Tuple some_flow(Draw& d) {
  hashing::Tuple t;
  t.src_ip = 0x0A000000u | d.below(1u << 16);
  t.dst_ip = 0x0A010000u | d.below(1u << 16);
  t.proto = d.below(2) ? 17 : 6;
  t.sport = static_cast<std::uint16_t>(49152 + d.below(16384));
  t.dport = d.below(2) ? 4791 : 443;
  return t;
}

HashCalculator hidden(const char* algo, std::uint32_t seed, std::uint32_t members) {
  HashQuery q;
  q.algo = hashing::find(algo);
  REQUIRE(q.algo != nullptr);
  q.seed = seed;
  q.members = members;
  return HashCalculator(q);
}

// `n` rows of switch `sw` (named in `all.switch_names`) hashed by `h`.
void trace(fit::Observations& all, std::uint32_t sw, const HashCalculator& h, Draw& d, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    fit::Observation o;
    o.tuple = some_flow(d);
    o.member = h(o.tuple).member;
    o.sw = sw;
    o.line = static_cast<std::uint32_t>(all.rows.size() + 2);
    all.rows.push_back(o);
  }
}

fit::Observations four_switches(Draw& d) {
  fit::Observations all;
  all.source = "traced.csv";
  all.fields = hashing::default_fields();
  all.switch_names = {"leaf0", "spine0", "leaf1", "leaf2"};
  // leaf0 and leaf1 run one hash; spine0 the same algorithm in a group of 2;
  // leaf2 another hash in a group of 4, as a switch of another vendor would.
  const HashCalculator leaf = hidden("crc16-ccitt", 0x1234, 4), spine = hidden("crc16-ccitt", 0x1234, 2),
                       other = hidden("jenkins", 7, 4);
  trace(all, 0, leaf, d, 120);
  trace(all, 1, spine, d, 120);
  trace(all, 2, leaf, d, 120);
  trace(all, 3, other, d, 120);
  return all;
}

fit::FitOptions quick() {
  fit::FitOptions f;
  f.algos = {hashing::find("crc16-ccitt"), hashing::find("jenkins")};
  f.seed_end = 64;
  f.threads = 2;
  return f;
}

}  // namespace

TEST_CASE("--members: N for all, NAME=N per switch, both; bad items are errors naming the flag") {
  const fit::MembersSpec a = fit::parse_members("16");
  CHECK(a.all == 16u);
  CHECK(a.named.empty());
  const fit::MembersSpec b = fit::parse_members("4,spine0=2,spine1=2");
  CHECK(b.all == 4u);
  CHECK(b.named == std::map<std::string, std::uint32_t, std::less<>>{{"spine0", 2}, {"spine1", 2}});
  for (const char* bad : {"1", "65537", "x", "leaf0=", "=4", "4,8", "leaf0=2,leaf0=4", "4,", "leaf0=2x"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(fit::parse_members(bad), InputError);
  }
  try {
    fit::parse_members("leaf0=1");
    FAIL("accepted a group of 1");
  } catch (const InputError& e) {
    CHECK(e.describe() == "--members: expected a group size in [2, 65536] in 'leaf0=1'");
  }
}

TEST_CASE("each switch's group size: given, or the largest member its rows show + 1") {
  Draw d{34};
  const fit::Observations all = four_switches(d);
  const std::vector<fit::SwitchRows> s = fit::split_switches(all, fit::parse_members("leaf2=8"));
  REQUIRE(s.size() == 4);
  CHECK(s[0].name == "leaf0");
  CHECK(s[0].obs.rows.size() == 120);
  CHECK(s[0].members == 4);  // 120 flows over 4 members show member 3
  CHECK(s[0].members_from_rows);
  // The chance that a 5th member would never have shown in 120 rows: (4/5)^120.
  CHECK(s[0].unseen_member_chance == doctest::Approx(std::pow(0.8, 120)));
  CHECK(s[1].members == 2);
  CHECK(s[1].unseen_member_chance == doctest::Approx(std::pow(2.0 / 3.0, 120)));
  CHECK(s[3].members == 8);
  CHECK_FALSE(s[3].members_from_rows);
  CHECK(s[3].obs.whose == "switch 'leaf2'");
  CHECK_THROWS_AS(fit::split_switches(all, fit::parse_members("leaf9=4")), InputError);
  // Rows that never left on a member other than 0 cannot tell a group size.
  fit::Observations zero = all;
  for (fit::Observation& o : zero.rows)
    if (o.sw == 1) o.member = 0;
  try {
    fit::split_switches(zero, {});
    FAIL("took a group size from rows all on member 0");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("switch 'spine0': every row has member 0") != std::string::npos);
  }
  CHECK(fit::split_switches(zero, fit::parse_members("spine0=2"))[1].members == 2);
}

TEST_CASE("switches sharing a hash are one model; another group size or hash is its own") {
  Draw d{34};
  const fit::Observations all = four_switches(d);
  const std::vector<fit::SwitchRows> s = fit::split_switches(all, {});
  const std::vector<fit::SwitchGroupFit> g = fit::fit_switches(s, quick());
  REQUIRE(g.size() == 3);
  CHECK(g[0].switches == std::vector<std::string>{"leaf0", "leaf1"});
  CHECK(g[0].result.observations == 240);
  CHECK(g[0].obs.whose == "switches leaf0, leaf1");
  CHECK(g[1].switches == std::vector<std::string>{"spine0"});
  CHECK(g[1].result.group.members == 2);
  CHECK(g[2].switches == std::vector<std::string>{"leaf2"});
  // Each group's best model predicts its switches' hidden hash on unseen flows.
  const HashCalculator leaf = hidden("crc16-ccitt", 0x1234, 4), spine = hidden("crc16-ccitt", 0x1234, 2),
                       other = hidden("jenkins", 7, 4);
  const HashCalculator* truth[] = {&leaf, &spine, &other};
  for (std::size_t k = 0; k < 3; ++k) {
    CAPTURE(k);
    CHECK(g[k].result.certain);
    const fit::Predictor predict(g[k].result);
    Draw unseen{1000 + k};
    for (int i = 0; i < 500; ++i) {
      const hashing::Tuple t = some_flow(unseen);
      REQUIRE(predict(t) == (*truth[k])(t).member);
    }
  }
  REQUIRE_FALSE(g[2].result.models.empty());
  CHECK(g[2].result.models.front().algo->name == "jenkins");
  CHECK(g[2].result.models.front().seed == 7);
}

TEST_CASE("rows of two switches never contradict; one switch's own contradiction names it") {
  Draw d{35};
  fit::Observations all;
  all.source = "traced.csv";
  all.fields = hashing::default_fields();
  all.switch_names = {"leaf0", "leaf1"};
  const HashCalculator a = hidden("crc16-ccitt", 1, 4), b = hidden("jenkins", 7, 4);
  trace(all, 0, a, d, 80);
  trace(all, 1, b, d, 80);
  // A flow of leaf0 also through leaf1, which sends it on another member: two
  // hashes, no contradiction.
  std::size_t i = 0;
  while (b(all.rows[i].tuple).member == all.rows[i].member) ++i;
  fit::Observation twice = all.rows[i];
  twice.sw = 1;
  twice.member = b(twice.tuple).member;
  twice.line = static_cast<std::uint32_t>(all.rows.size() + 2);
  all.rows.push_back(twice);
  // Negative control: the rows pooled as one switch's (the behaviour before
  // issue 34) are a contradiction.
  CHECK_THROWS_AS(fit::check_observations(all, 4), InputError);
  const auto g = fit::fit_switches(fit::split_switches(all, {}), quick());
  CHECK(g.size() == 2);
  // One switch sending a flow two ways is a contradiction, and says which switch.
  fit::Observation again = twice;
  again.member = (twice.member + 1) % 4;
  again.line = twice.line + 1;
  all.rows.push_back(again);
  try {
    fit::fit_switches(fit::split_switches(all, {}), quick());
    FAIL("accepted one switch sending a flow two ways");
  } catch (const InputError& e) {
    CHECK(e.describe() == "traced.csv:" + std::to_string(again.line) +
                              ":1: switch 'leaf1': contradiction: this flow left on member " +
                              std::to_string(again.member) + " here and on member " + std::to_string(twice.member) +
                              " at line " + std::to_string(twice.line) + "; one hash cannot send a flow two ways");
  }
}

}  // namespace switches_test
