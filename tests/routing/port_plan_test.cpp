#include <doctest/doctest.h>

#include <set>

#include "sim/config/config.h"
#include "sim/model/simulation.h"
#include "sim/routing/port_plan.h"
#include "workloads/roce.h"

namespace port_plan_test {

using namespace ecmpsim;

namespace {

// CRC-16/CCITT-FALSE bit by bit (poly 0x1021, init 0xFFFF), independent of the library.
std::uint16_t crc16_ccitt(const std::vector<std::uint8_t>& data) {
  std::uint16_t crc = 0xFFFF;
  for (std::uint8_t b : data) {
    crc ^= static_cast<std::uint16_t>(b << 8);
    for (int i = 0; i < 8; ++i) crc = (crc & 0x8000) ? static_cast<std::uint16_t>((crc << 1) ^ 0x1021) : crc << 1;
  }
  return crc;
}

// The five-tuple key in network order: src, dst, proto, sport, dport.
std::vector<std::uint8_t> five_tuple(std::uint32_t src, std::uint32_t dst, std::uint16_t sport) {
  std::vector<std::uint8_t> k;
  for (std::uint32_t ip : {src, dst})
    for (int shift = 24; shift >= 0; shift -= 8) k.push_back(static_cast<std::uint8_t>(ip >> shift));
  k.push_back(17);
  k.push_back(static_cast<std::uint8_t>(sport >> 8));
  k.push_back(static_cast<std::uint8_t>(sport));
  k.push_back(4791 >> 8);
  k.push_back(4791 & 0xFF);
  return k;
}

ScenarioSpec planned_copy(const ScenarioSpec& s, const std::string& name) {
  ScenarioSpec p = s;
  p.name = name;
  p.sports = SportPlan::Planned;
  return p;
}

const TierImbalance& tier(const ScenarioResult& r, const std::string& name) {
  for (const TierImbalance& t : r.tiers)
    if (t.name == name) return t;
  FAIL("no tier " << name);
  return r.tiers.front();
}

}  // namespace

TEST_CASE("paper16 with planned ports: the colouring puts 4 flows on every link, FIM 0, slowdown 1") {
  const Simulation sim(load_config(ECMPSIM_SOURCE_DIR "/configs/paper16.toml"));
  const ScenarioSpec& ecmp = sim.spec().scenarios.front();
  REQUIRE(ecmp.name == "ecmp");
  const ScenarioSpec planned = planned_copy(ecmp, "planned");
  const ScenarioResult r = sim.run(planned);
  REQUIRE(r.plan.has_value());
  CHECK(r.plan->method == PlanMethod::Colouring);
  CHECK(r.plan->off_colour == 0);
  // 64 ring flows; every leaf sends 16 and receives 16 over 4 spines, so an
  // equitable 4-colouring puts exactly 4 on each of the 32 leaf-spine links.
  CHECK(r.flows.max == 4);
  CHECK(r.flows.mean == 4);
  CHECK(r.flows.fim == 0);
  // Every host sends and receives 4 flows of equal size; with no fabric link
  // carrying more than 4, each gets 400/4 Gb/s from start to end: the ideal.
  CHECK(r.predicted.all.slowdown == doctest::Approx(1.0));
  // ECMP on the same flows, for contrast: CRC-16 puts 5 on some link.
  CHECK(sim.run(ecmp).flows.max == 5);
  // Each planned port, hashed by CRC-16/CCITT (written out above) over the
  // five-tuple, picks at the source leaf (modulo 4) the spine its path took.
  const auto& flows = sim.flows();
  for (std::size_t f = 0; f < flows.size(); ++f) {
    const std::uint16_t port = r.plan->sport[f];
    CHECK(port >= planned.sport_min);
    const std::uint16_t h = crc16_ccitt(five_tuple(flows.src_ip[f].v4(), flows.dst_ip[f].v4(), port));
    CHECK(sim.fabric().link_name(r.trace.path(f)[1]) ==
          "leaf" + std::to_string(sim.fabric().tor_of(flows.src[f])) + "->spine" + std::to_string(h % 4));
  }
}

TEST_CASE("k = 8 fat-tree: planned ports beat CRC ECMP's slowdown; a plan cannot escape polarization") {
  const Simulation sim(load_config(ECMPSIM_SOURCE_DIR "/configs/fattree-k8.toml"));
  const ScenarioSpec* same = nullptr;
  const ScenarioSpec* indep = nullptr;
  for (const ScenarioSpec& s : sim.spec().scenarios) {
    if (s.name == "same-crc") same = &s;
    if (s.name == "indep") indep = &s;
  }
  REQUIRE(same);
  REQUIRE(indep);
  const ScenarioResult ecmp = sim.run(*same);
  const ScenarioSpec plan_same = planned_copy(*same, "planned-same"), plan_indep = planned_copy(*indep, "planned-indep");
  const ScenarioResult p_same = sim.run(plan_same), p_indep = sim.run(plan_indep);
  CHECK(p_same.plan->method == PlanMethod::Greedy);
  // Strided ring over 128 hosts, 4 channels: every host sends and receives 4
  // equal flows. ECMP stacks 5 on a link (slowdown 5/4); a plan keeping every
  // fabric link at <= 4 lets each flow run at 100 Gb/s throughout.
  CHECK(ecmp.flows.max == 5);
  CHECK(ecmp.predicted.all.slowdown == doctest::Approx(1.25));
  for (const ScenarioResult* r : {&p_same, &p_indep}) {
    CHECK(r->flows.max <= 4);
    CHECK(r->predicted.all.slowdown == doctest::Approx(1.0));
    CHECK(r->predicted.all.slowdown < ecmp.predicted.all.slowdown);
  }
  // Same CRC, same key at edge and aggregation: an aggregation switch picks
  // the member index its edge picked, so only 4 of the 16 cores are
  // reachable by any port (FIM 1.5 on aggregation->core, as ECMP). With
  // xxh3 at the aggregation tier the plan reaches every core.
  auto cores_used = [&](const ScenarioResult& r) {
    std::set<NodeId> used;
    for (LinkId l = 0; l < sim.fabric().links().size(); ++l)
      if (sim.fabric().node(sim.fabric().link(l).to).tier == Tier::Core && r.trace.link_flows[l] > 0)
        used.insert(sim.fabric().link(l).to);
    return used.size();
  };
  CHECK(cores_used(ecmp) == 4);
  CHECK(cores_used(p_same) == 4);
  CHECK(cores_used(p_indep) == 16);
  CHECK(tier(p_same, "spine->core").flows.fim == 1.5);
}

TEST_CASE("a failed uplink: the plan falls back to greedy and avoids the failure") {
  Spec spec = load_config(ECMPSIM_SOURCE_DIR "/configs/paper16.toml");
  ScenarioSpec s = planned_copy(spec.scenarios.front(), "planned-down");
  s.down.push_back({"leaf0-spine1", {}});
  spec.scenarios.push_back(s);
  const Simulation sim(spec);
  const ScenarioResult r = sim.run(sim.spec().scenarios.back());
  // leaf0 reaches spine1's side through 3 spines only: ToR pairs see different spines.
  CHECK(r.plan->method == PlanMethod::Greedy);
  const LinkId down = [&] {
    for (LinkId l = 0; l < sim.fabric().links().size(); ++l)
      if (sim.fabric().link_name(l) == "leaf0->spine1") return l;
    return kNone;
  }();
  REQUIRE(down != kNone);
  CHECK(r.trace.link_flows[down] == 0);
  // leaf0 still sends 16 flows, now over 3 uplinks: at least 6 on one.
  CHECK(tier(r, "leaf->spine").flows.max >= 6);
}

TEST_CASE("plans that cannot spread are errors at the key") {
  Spec spec = load_config(ECMPSIM_SOURCE_DIR "/configs/paper16.toml");
  ScenarioSpec s = planned_copy(spec.scenarios.front(), "narrow");
  s.sport_min = s.sport_max = 50000;
  s.sports_at = {"c.toml", 7, 1, "scenario.sports"};
  s.sport_range_at = {"c.toml", 9, 1, "scenario.sport_max"};
  const Simulation sim(spec);
  try {
    sim.plan_ports(s);
    FAIL("a one-port range planned");
  } catch (const InputError& e) {
    CHECK(e.describe() == "c.toml:9:1: scenario.sport_max: sport_min..sport_max (50000..50000) holds 1 port, fewer "
                          "than the 4 members leaf0 chooses among: too small to spread the flows");
  }
  s.sport_max = 50003;  // 4 ports: enough to reach every spine in principle
  CHECK_NOTHROW(sim.plan_ports(s));
  s.hash.fields = {hashing::Field::SrcIp, hashing::Field::DstIp};
  try {
    sim.plan_ports(s);
    FAIL("planned ports without a hash that reads them");
  } catch (const InputError& e) {
    CHECK(e.describe().find("c.toml:7:1: scenario.sports: sports = \"planned\" needs a hash that reads the "
                            "source port") == 0);
  }
}
// linux-l3 (policy 0) hashes no port, but on IPv6 it hashes the flow label,
// which the planned port sets (the kernel derives the port from the label):
// the plan steers it there, as on paper16 above (4 flows on every link), and
// refuses it on IPv4, where policy 0 reads only the addresses.
TEST_CASE("planned ports steer linux-l3 on IPv6 through the flow label, not on IPv4") {
  for (const bool v6 : {true, false}) {
    CAPTURE(v6);
    Spec spec = load_config(ECMPSIM_SOURCE_DIR + std::string(v6 ? "/configs/paper16-ipv6.toml" : "/configs/paper16.toml"));
    ScenarioSpec s = planned_copy(spec.scenarios.front(), "planned-l3");
    s.hash.algo = "linux-l3";
    s.hash.select = hashing::Selection::Threshold;
    const Simulation sim(spec);
    if (!v6) {
      CHECK_THROWS_AS(sim.plan_ports(s), InputError);
      continue;
    }
    const ScenarioResult r = sim.run(s);
    REQUIRE(r.plan.has_value());
    CHECK(r.flows.max == 4);
    CHECK(r.flows.fim == 0);
    for (std::size_t f = 0; f < sim.flows().size(); ++f)
      CHECK(r.plan->flow_label[f] == workloads::flow_label_for_udp_sport(r.plan->sport[f]));
  }
}
}  // namespace port_plan_test
