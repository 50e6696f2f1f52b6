// Hidden catalogue models must be recovered from their observations (or, where
// several models are indistinguishable, predicted exactly on held-out flows);
// a model no catalogue entry produces must not be reported; too few
// observations must say so. The observations are computed by `ecmpsim hash`'s
// engine (sim/routing/hash_query.h), not by the search.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <vector>
#include <nlohmann/json.hpp>

#include "sim/base/error.h"
#include "sim/base/splitmix.h"
#include "sim/fit/fit.h"
#include "sim/fit/fit_report.h"
#include "sim/routing/hash_query.h"

namespace fit_test {

namespace {

using namespace ecmpsim;

// Draws from SplitMix64 (sim/base/splitmix.h), as narrow as the fields they fill.
struct Rng {
  SplitMix64 g;
  std::uint64_t next() { return g.next(); }
  std::uint32_t below(std::uint64_t n) { return static_cast<std::uint32_t>(g.below(n)); }
};

// Flows varying in every five-tuple field (TCP and UDP, two destination ports).
hashing::Tuple random_tuple(Rng& r) {
  hashing::Tuple t;
  t.src_ip = 0x0A000000u | r.below(1u << 16);
  t.dst_ip = 0x0A010000u | r.below(1u << 16);
  t.proto = r.below(2) ? 17 : 6;
  t.sport = static_cast<std::uint16_t>(49152 + r.below(16384));
  t.dport = r.below(2) ? 4791 : 443;
  return t;
}

fit::Observations observe(const HashCalculator& hidden, Rng& r, std::size_t n) {
  fit::Observations obs;
  obs.source = "obs.csv";
  obs.fields = hashing::default_fields();
  for (std::size_t i = 0; i < n; ++i) {
    fit::Observation o;
    o.tuple = random_tuple(r);
    o.member = hidden(o.tuple).member;
    o.line = static_cast<std::uint32_t>(i + 2);
    obs.rows.push_back(o);
  }
  return obs;
}

// A random field list: any order for seed-affine algorithms (the class solver
// tries every order), the canonical order for the others (the seed search
// tries every subset in that order).
std::vector<hashing::Field> random_fields(Rng& r, bool any_order) {
  std::vector<hashing::Field> f = hashing::default_fields();
  if (any_order)
    for (std::size_t i = f.size(); i > 1; --i) std::swap(f[i - 1], f[r.below(i)]);
  std::vector<hashing::Field> out;
  for (hashing::Field x : f)
    if (r.below(3) != 0) out.push_back(x);
  if (out.empty()) out.push_back(f[0]);
  return out;
}

}  // namespace

TEST_CASE("fit: hidden catalogue models are recovered or predicted exactly on held-out flows") {
  Rng r{2024};
  const auto cat = hashing::catalogue();
  const std::uint32_t sizes[] = {2, 4, 8, 16, 4, 3};
  int certain = 0;
  for (int trial = 0; trial < 12; ++trial) {
    HashQuery q;
    q.algo = &cat[r.below(cat.size())];
    q.members = sizes[r.below(std::size(sizes))];
    const bool classes = q.algo->seed_affine && std::has_single_bit(q.members);
    q.fields = random_fields(r, classes);
    // Seeds searched one by one stay below 2^10 to keep the test quick (the
    // full 32-bit search is timed in bench/fit_bench.cpp).
    q.seed = classes ? static_cast<std::uint32_t>(r.next()) : r.below(1u << 10);
    q.offset = r.below(q.algo->bits < 64 ? q.algo->bits : 64);
    q.select = r.below(2) ? hashing::Selection::Threshold : hashing::Selection::Modulo;
    if (hashing::default_selection(*q.algo) == hashing::Selection::Threshold) {
      // A Linux model as the kernel runs it (and as the search tries it).
      q.select = hashing::Selection::Threshold;
      q.offset = 0;
    }
    CAPTURE(q.algo->name);
    CAPTURE(q.members);
    CAPTURE(q.seed);
    CAPTURE(q.offset);
    CAPTURE(hashing::selection_name(q.select));
    const HashCalculator hidden(q);
    const fit::Observations obs = observe(hidden, r, 400);
    fit::FitOptions opt;
    opt.group.members = q.members;
    opt.seed_end = 1u << 10;
    opt.threads = 2;
    opt.keep = 200;
    const fit::FitResult res = fit::fit(obs, opt);
    std::vector<hashing::Tuple> held_out;
    for (int i = 0; i < 2000; ++i) held_out.push_back(random_tuple(r));
    auto exact = [&](const auto& predict) {
      return std::all_of(held_out.begin(), held_out.end(), [&](const hashing::Tuple& t) { return predict(t) == hidden(t).member; });
    };
    if (res.certain) {
      // Certain: the best model (or the learned map) predicts every held-out flow.
      ++certain;
      CHECK(exact(fit::Predictor(res)));
    } else {
      // Not certain (threshold selection over few members leaves near
      // neighbours that differ on rare flows): the hidden model is a candidate.
      CHECK(res.more_needed > 0);
      const bool found = std::any_of(res.models.begin(), res.models.end(), [&](const fit::Model& m) {
        const fit::Selector sel(m, res.group);
        return exact([&](const hashing::Tuple& t) { return sel.member(t); });
      });
      CHECK(found);
    }
    // Where the seed matters to the members, the search names it.
    if (!res.models.empty() && !q.algo->seed_affine && q.algo->layout == hashing::KeyLayout::Fields) {
      const bool named = std::any_of(res.models.begin(), res.models.end(), [&](const fit::Model& m) {
        return m.algo == q.algo && m.seed == q.seed && m.fields == q.fields;
      });
      CHECK(named);
    }
  }
  CHECK(certain >= 8);
}

TEST_CASE("fit: a seed-affine hidden model comes back as the seed class that contains its seed") {
  Rng r{7};
  HashQuery q;
  q.algo = hashing::find("crc16-ccitt");
  q.fields = {hashing::Field::DstIp, hashing::Field::SrcPort, hashing::Field::SrcIp};
  q.seed = 0xBEEF;
  q.offset = 5;
  q.members = 8;
  const HashCalculator hidden(q);
  fit::FitOptions opt;
  opt.group.members = 8;
  const fit::FitResult res = fit::fit(observe(hidden, r, 300), opt);
  REQUIRE(!res.models.empty());
  CHECK(res.certain);
  // The listed models include the hidden algorithm, fields, offset and
  // selection with the smallest seed of its class; CRC-16/XMODEM differs from
  // CCITT-FALSE only in the initial value, so it is listed too, and predicts alike.
  const auto it = std::find_if(res.models.begin(), res.models.end(), [&](const fit::Model& m) {
    return m.algo == q.algo && m.fields == q.fields && m.offset == 5 && m.select == hashing::Selection::Modulo;
  });
  REQUIRE(it != res.models.end());
  CHECK(it->seed_class);
  CHECK(it->seed <= q.seed);
  // The class representative picks as the hidden seed does: the seeds differ
  // only in hash bits the 3-bit window at offset 5 never reads.
  HashQuery rep = q;
  rep.seed = it->seed;
  const HashCalculator same(rep);
  const fit::Predictor best(res);
  for (int i = 0; i < 500; ++i) {
    const hashing::Tuple t = random_tuple(r);
    CHECK(same(t).member == hidden(t).member);
    CHECK(best(t) == hidden(t).member);
  }
}

TEST_CASE("fit: ten observations are not certain, and the verdict says how many more") {
  Rng r{99};
  HashQuery q;
  q.algo = hashing::find("crc32");
  q.members = 4;
  const HashCalculator hidden(q);
  fit::FitOptions opt;
  opt.group.members = 4;
  opt.seed_end = 256;
  const fit::FitResult res = fit::fit(observe(hidden, r, 10), opt);
  CHECK_FALSE(res.certain);
  CHECK(res.candidates > 1);
  CHECK(res.more_needed > 0);
  CHECK(res.distinct > 1);
}

TEST_CASE("fit: members that no hash gives (a flipped observation, random members) are an error") {
  Rng r{5};
  HashQuery q;
  q.algo = hashing::find("xxh32");
  q.seed = 77;
  q.members = 4;
  const HashCalculator hidden(q);
  fit::Observations obs = observe(hidden, r, 120);
  fit::FitOptions opt;
  opt.group.members = 4;
  opt.seed_end = 4096;
  opt.threads = 2;
  // Negative control first: unflipped, the same search finds the model.
  CHECK(!fit::fit(obs, opt).models.empty());
  obs.rows[60].member ^= 1;
  CHECK_THROWS_AS(fit::fit(obs, opt), InputError);
  for (auto& o : obs.rows) o.member = r.below(4);
  try {
    fit::fit(obs, opt);
    FAIL("random members fitted");
  } catch (const InputError& e) {
    const std::string what = e.what();
    CHECK(what.find("no model fits the 120 observations") == 0);
    CHECK(what.find("contradict every affine hash") != std::string::npos);
  }
}

TEST_CASE("fit: weighted groups search threshold and resilient selection") {
  Rng r{11};
  HashQuery q;
  q.algo = hashing::find("crc32c");
  q.members = 3;
  q.weights = {1, 2, 5};
  q.select = hashing::Selection::Resilient;
  q.buckets = 64;
  q.seed = 300;
  q.offset = 2;
  const HashCalculator hidden(q);
  fit::FitOptions opt;
  opt.group.members = 3;
  opt.group.weights = q.weights;
  opt.group.buckets = 64;
  opt.fields = hashing::default_fields();
  opt.algos = {q.algo};
  opt.seed_end = 1024;
  opt.keep = 100;
  const fit::FitResult res = fit::fit(observe(hidden, r, 200), opt);
  // Seeds differing only in hash bits the bucket index never reads are one
  // model, and weighted threshold selection leaves near neighbours (hashes
  // differing in low bits part only near a bound): the hidden model must be
  // among the candidates, with the search honest that more are left.
  CHECK(std::any_of(res.models.begin(), res.models.end(), [](const fit::Model& m) {
    return m.seed == 300 && m.offset == 2 && m.select == hashing::Selection::Resilient;
  }));
  CHECK(res.candidates > 1);
  CHECK(!res.linear->applicable());
}

namespace {

// CRC-16/CCITT-FALSE bit by bit (poly 0x1021, init 0xFFFF with the seed
// XORed in, no reflection), independent of the catalogue's Boost.CRC.
std::uint16_t ccitt(const std::vector<std::uint8_t>& data, std::uint16_t seed) {
  std::uint16_t crc = 0xFFFF ^ seed;
  for (std::uint8_t b : data) {
    crc ^= static_cast<std::uint16_t>(b << 8);
    for (int i = 0; i < 8; ++i) crc = static_cast<std::uint16_t>((crc & 0x8000) ? (crc << 1) ^ 0x1021 : crc << 1);
  }
  return crc;
}

// CRC-16/BUYPASS (poly 0x8005, init 0): a CRC the restricted search below does not try.
std::uint16_t buypass(const std::vector<std::uint8_t>& data) {
  std::uint16_t crc = 0;
  for (std::uint8_t b : data) {
    crc ^= static_cast<std::uint16_t>(b << 8);
    for (int i = 0; i < 8; ++i) crc = static_cast<std::uint16_t>((crc & 0x8000) ? (crc << 1) ^ 0x8005 : crc << 1);
  }
  return crc;
}

// An IPv6 RoCEv2 flow: fd00::/64 addresses, random source port and flow label.
hashing::Tuple random_tuple_v6(Rng& r) {
  std::array<std::uint8_t, 16> a{0xfd}, b{0xfd};
  for (int i = 8; i < 16; ++i) {
    a[i] = static_cast<std::uint8_t>(r.next());
    b[i] = static_cast<std::uint8_t>(r.next());
  }
  hashing::Tuple t;
  t.src_ip = hashing::IpAddr::v6(a);
  t.dst_ip = hashing::IpAddr::v6(b);
  t.proto = 17;
  t.sport = static_cast<std::uint16_t>(49152 + r.below(16384));
  t.dport = 4791;
  t.flow_label = r.below(1u << 20);
  return t;
}

// The IPv6 key a switch hashes: 16-byte addresses, proto, ports, and the flow
// label as 4 bytes when `label`: written here from the packet layout.
std::vector<std::uint8_t> key_v6(const hashing::Tuple& t, bool label) {
  std::vector<std::uint8_t> k(t.src_ip.bytes().begin(), t.src_ip.bytes().end());
  k.insert(k.end(), t.dst_ip.bytes().begin(), t.dst_ip.bytes().end());
  k.push_back(t.proto);
  for (std::uint16_t p : {t.sport, t.dport}) {
    k.push_back(static_cast<std::uint8_t>(p >> 8));
    k.push_back(static_cast<std::uint8_t>(p));
  }
  if (label)
    for (int i = 24; i >= 0; i -= 8) k.push_back(static_cast<std::uint8_t>(t.flow_label >> i));
  return k;
}

template <class Member>
fit::Observations observe_v6(Rng& r, std::size_t n, bool label, Member member) {
  fit::Observations obs;
  obs.source = "v6.csv";
  obs.fields = hashing::default_fields();
  if (label) obs.fields.push_back(hashing::Field::FlowLabel);
  for (std::size_t i = 0; i < n; ++i) {
    const hashing::Tuple t = random_tuple_v6(r);
    obs.rows.push_back({t, member(t), static_cast<std::uint32_t>(i + 2)});
  }
  return obs;
}

}  // namespace

TEST_CASE("fit: IPv6 observations of CRC-16/CCITT with seed 1234 over 6 members give back the algorithm and the seed") {
  Rng r{623};
  auto hidden = [](const hashing::Tuple& t) { return static_cast<std::uint32_t>(ccitt(key_v6(t, false), 1234) % 6); };
  const fit::Observations obs = observe_v6(r, 200, false, hidden);
  fit::FitOptions opt;
  opt.group.members = 6;  // not a power of two: every seed tried one by one, so the seed itself is named
  opt.algos = {hashing::find("crc16-ccitt")};
  opt.fields = hashing::default_fields();
  opt.seed_end = 4096;
  opt.threads = 2;
  const fit::FitResult res = fit::fit(obs, opt);
  REQUIRE(!res.models.empty());
  CHECK(res.certain);
  CHECK(res.models[0].algo->name == "crc16-ccitt");
  CHECK(res.models[0].seed == 1234);
  CHECK(res.models[0].offset == 0);
  CHECK(res.models[0].select == hashing::Selection::Modulo);
  CHECK_FALSE(res.linear->applicable());  // 6 members: no affine map
  const fit::Predictor best(res);
  for (int i = 0; i < 1000; ++i) {
    const hashing::Tuple t = random_tuple_v6(r);
    REQUIRE(best(t) == hidden(t));
  }
  // Negative control: a CRC outside the searched set (BUYPASS) fits nothing.
  Rng r2{624};
  const fit::Observations other =
      observe_v6(r2, 200, false, [](const hashing::Tuple& t) { return static_cast<std::uint32_t>(buypass(key_v6(t, false)) % 6); });
  CHECK_THROWS_AS(fit::fit(other, opt), InputError);
}

// linux-l3 is policy 0: on IPv6 rt6_multipath_hash keys the addresses, the
// flow label and the next header (net/ipv6/route.c), on IPv4 only the
// addresses; the fitted model's field list says which, in the table and JSON.
TEST_CASE("fit: linux-l3 lists the flow label and next header among its fields on IPv6 only") {
  fit::Model hidden_model;
  hidden_model.algo = hashing::find("linux-l3");
  hidden_model.seed = 5;
  hidden_model.select = hashing::Selection::Threshold;
  fit::Group g;
  g.members = 4;
  const fit::Selector hidden(hidden_model, g);
  fit::FitOptions opt;
  opt.group.members = 4;
  opt.algos = {hidden_model.algo};
  opt.seed_end = 64;
  opt.threads = 2;
  Rng r{91};
  const fit::Observations v6 = observe_v6(r, 64, true, [&](const hashing::Tuple& t) { return hidden.member(t); });
  const fit::FitResult res6 = fit::fit(v6, opt);
  REQUIRE(!res6.models.empty());
  CHECK(res6.models[0].seed == 5);
  CHECK(res6.family == hashing::Family::V6);
  CHECK(fit::fit_table(v6, res6).find("(kernel) src-ip,dst-ip,flow-label,proto ") != std::string::npos);
  CHECK(fit::fit_json(res6)["models"][0]["fields"].dump() == R"(["src-ip","dst-ip","flow-label","proto"])");
  // The same model fitted on IPv4 rows lists the addresses alone.
  fit::Observations v4;
  v4.source = "v4.csv";
  v4.fields = hashing::default_fields();
  for (std::uint32_t i = 0; i < 64; ++i) {
    hashing::Tuple t;
    t.src_ip = 0x0A000000u + i * 7919u;
    t.dst_ip = 0x0A100000u + i * 104729u;
    t.sport = static_cast<std::uint16_t>(0xC000 + i);
    t.dport = 4791;
    v4.rows.push_back({t, hidden.member(t), i + 2});
  }
  const fit::FitResult res4 = fit::fit(v4, opt);
  REQUIRE(!res4.models.empty());
  CHECK(res4.family == hashing::Family::V4);
  CHECK(fit::fit_json(res4)["models"][0]["fields"].dump() == R"(["src-ip","dst-ip"])");
}

TEST_CASE("fit: IPv6 with the flow label, 8 members: the seed class of the hidden CRC and the affine map agree") {
  Rng r{77};
  auto hidden = [](const hashing::Tuple& t) { return static_cast<std::uint32_t>((ccitt(key_v6(t, true), 0xBEEF) >> 2) & 7); };
  const fit::Observations obs = observe_v6(r, 300, true, hidden);
  fit::FitOptions opt;
  opt.group.members = 8;
  opt.algos = {hashing::find("crc16-ccitt")};
  opt.threads = 2;
  const fit::FitResult res = fit::fit(obs, opt);
  REQUIRE(!res.models.empty());
  CHECK(res.certain);
  const fit::Model& m = res.models[0];
  CHECK(m.fields == obs.fields);  // the five-tuple and the label, in packet order
  CHECK(m.offset == 2);
  CHECK(m.select == hashing::Selection::Modulo);
  CHECK(m.seed_class);
  // The class representative picks as 0xBEEF does (they differ only in hash
  // bits the window never reads), computed with the independent CRC.
  REQUIRE(res.linear->applicable());
  CHECK(res.linear->determined());  // 64 + 64 + 14 + 20 varying bits + 1 = 163 unknowns from 300 observations
  CHECK(res.linear->unknowns() == 163);
  for (int i = 0; i < 1000; ++i) {
    const hashing::Tuple t = random_tuple_v6(r);
    REQUIRE(((ccitt(key_v6(t, true), static_cast<std::uint16_t>(m.seed)) >> 2) & 7) == hidden(t));
    REQUIRE(res.linear->predict(t) == hidden(t));
  }
  // Negative control: without the label column the members are not explained.
  fit::Observations no_label = obs;
  no_label.fields.pop_back();
  for (auto& o : no_label.rows) o.tuple.flow_label = 0;
  CHECK_THROWS_AS(fit::fit(no_label, opt), InputError);
}
}  // namespace fit_test
