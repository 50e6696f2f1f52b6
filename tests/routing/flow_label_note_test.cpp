// The flow-label note appears exactly where a hash reads a generated IPv6
// label: linux-l3 or a flow-label field on IPv6, in a scenario's hash, an
// override or a sweep's algorithm axis; never on IPv4, never for a hash that
// does not read the label, never for planned ports (the host sets the label).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/routing/flow_label_note.h"

namespace flow_label_note_test {

using namespace ecmpsim;

TEST_CASE("the flow-label note names the scenarios whose hashes read a generated IPv6 label") {
  const hashing::Family v6 = hashing::Family::V6;
  Spec spec = load_config(ECMPSIM_SOURCE_DIR "/configs/paper16-ipv6.toml");
  REQUIRE(!spec.scenarios.empty());
  ScenarioSpec& s = spec.scenarios.front();
  REQUIRE(s.hash.algo == "crc16-ccitt");  // the five-tuple: no label
  CHECK_FALSE(flow_label_note(spec, v6).has_value());

  const std::vector<std::string> l3{"linux-l3"};
  const auto swept = flow_label_note(spec, v6, l3);
  REQUIRE(swept.has_value());
  CHECK(swept->find("'" + s.name + "'") != std::string::npos);
  CHECK_FALSE(flow_label_note(spec, v6, std::vector<std::string>{"linux-l4", "xxh3"}).has_value());

  s.hash.fields.push_back(hashing::Field::FlowLabel);
  CHECK(flow_label_note(spec, v6).has_value());
  CHECK_FALSE(flow_label_note(spec, hashing::Family::V4).has_value());
  s.sports = SportPlan::Planned;
  CHECK_FALSE(flow_label_note(spec, v6).has_value());
  s.sports = SportPlan::Workload;
  s.hash.fields = hashing::default_fields();

  HashOverride spine;  // one tier reading the label is enough
  spine.tier = Tier::Spine;
  spine.values.algo = "linux-l3";
  spine.keys = kHashAlgo;
  s.hash_tiers.push_back(spine);
  CHECK(flow_label_note(spec, v6).has_value());
}

}  // namespace flow_label_note_test
