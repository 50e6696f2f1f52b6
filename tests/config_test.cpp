#include <doctest/doctest.h>

#include "sim/config.h"
#include "sim/simulation.h"

using namespace ecmpsim;

namespace {
std::string error_of(const std::string& text) {
  try {
    const Simulation sim(parse_config(text, "t.toml"));
    for (const auto& s : sim.spec().scenarios) sim.run(s);
  } catch (const InputError& e) {
    return e.describe();
  }
  return "no error";
}
}  // namespace

TEST_CASE("the shipped paper16 config loads with the documented shape") {
  const Spec s = load_config(ECMPSIM_SOURCE_DIR "/configs/paper16.toml");
  CHECK(s.fabric.leaf_spine.leaves == 4);
  CHECK(s.fabric.leaf_spine.spines == 4);
  CHECK(s.fabric.leaf_spine.hosts_per_leaf == 4);
  CHECK(s.fabric.leaf_spine.host_speed.value == 400);
  CHECK(s.workload.nodes == 16);
  CHECK(s.workload.message.value == (1ULL << 30));
  REQUIRE(s.scenarios.size() == 2);
  CHECK(s.scenarios[0].name == "ecmp");
  CHECK(s.scenarios[1].routing == RoutingKind::Static);
}

TEST_CASE("bad input names file, line, column or key, and the cause") {
  CHECK(error_of("[fabric]\nleaves = 0\n") == "t.toml:2:10: fabric.leaves: value 0 out of range [1, 4096]");
  CHECK(error_of("[fabric]\nleafs = 3\n") == "t.toml:2:9: fabric.leafs: unknown key");
  CHECK(error_of("[fabric]\nleaves = \"four\"\n") == "t.toml:2:10: fabric.leaves: expected an integer");
  CHECK(error_of("[fabric\n") == "t.toml:1:8: Error while parsing table header: expected ']', saw '\\n'");
  CHECK(error_of("[fabrik]\n") == "t.toml:1:1: fabrik: unknown section");
  CHECK(error_of("[workload]\nmessage_bytes = \"12XB\"\n") ==
        "t.toml:2:17: workload.message_bytes: invalid size '12XB' (e.g. 4096, \"256MiB\", \"1GB\")");
  CHECK(error_of("[workload]\nnodes = 100\n") ==
        "t.toml:2:9: workload.nodes: job has 100 nodes but the fabric has only 16 endpoints");
  CHECK(error_of("[[scenario]]\nname = \"x\"\n[scenario.hash]\nalgo = \"md5\"\n") ==
        "t.toml:4:8: scenario.hash.algo: unknown hash algorithm 'md5'");
  CHECK(error_of("[[scenario]]\nname = \"x\"\n[scenario.hash]\nfields = [\"src-mac\"]\n") ==
        "t.toml:4:10: scenario.hash.fields: unknown hash field 'src-mac'");
  CHECK(error_of("[[scenario]]\nname = \"a\"\n[[scenario]]\nname = \"a\"\n") ==
        "t.toml:3:1: scenario: duplicate scenario name 'a'");
  CHECK(error_of("[[scenario]]\nname = \"s\"\nrouting = \"static\"\n") ==
        "t.toml:1:1: scenario: static scenario 's' has no routes and no generated policy");
  CHECK(error_of("[fabric]\naddress_base = \"10.0.0.300\"\n") ==
        "t.toml:2:16: fabric.address_base: invalid IPv4 address '10.0.0.300'");
}

TEST_CASE("a static table without a route for a flow's destination is an error") {
  const std::string cfg =
      "[fabric]\nleaves = 2\nspines = 1\nhosts_per_leaf = 1\n"
      "[[scenario]]\nname = \"s\"\nrouting = \"static\"\n"
      "routes = [{ switch = \"leaf0\", dst = \"10.0.1.1\", via = \"spine0\" }]\n";
  CHECK(error_of(cfg) == "no route on switch 'spine0' for destination host1 (10.0.1.1)");
}

TEST_CASE("a route on an unknown switch points at the route") {
  const std::string cfg =
      "[[scenario]]\nname = \"s\"\nrouting = \"static\"\n"
      "routes = [{ switch = \"leaf9\", dst = \"10.0.1.1\", via = \"spine0\" }]\n";
  CHECK(error_of(cfg) == "t.toml:4:11: scenario.routes: static route on unknown switch 'leaf9'");
}

TEST_CASE("missing file") {
  CHECK_THROWS_WITH_AS(load_config("/nonexistent/x.toml"), "cannot open file", InputError);
}
